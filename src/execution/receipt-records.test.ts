import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encodeReceipt } from '@ethereumjs/vm'
import { encodeReceiptFast } from './receipt-records.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

test("encodeReceiptFast equals the library's encodeReceipt: every type, status, pre-Byzantium roots, gas sizes, with and without logs", () => {
  const bloom = new Uint8Array(256).map((_, i) => (i * 37) % 256)
  const log: [Uint8Array, Uint8Array[], Uint8Array] = [new Uint8Array(20).fill(1), [new Uint8Array(32).fill(2)], Uint8Array.of(3, 4)]
  for (const type of [0, 1, 2, 3, 4]) {
    for (const first of [{ status: 1 as const }, { status: 0 as const }, { stateRoot: new Uint8Array(32).fill(9) }]) {
      for (const gas of [0n, 1n, 127n, 128n, 21_000n, 30_000_000n, 2n ** 64n - 1n]) {
        for (const logs of [[], [log]]) {
          for (const bitvector of [new Uint8Array(256), bloom]) {
            const receipt = { ...first, cumulativeBlockGasUsed: gas, bitvector, logs }
            assert.equal(hex(encodeReceiptFast(receipt, type)), hex(encodeReceipt(receipt as never, type as never)), JSON.stringify({ type, first, gas: String(gas), logs: logs.length }))
          }
        }
      }
    }
  }
})
