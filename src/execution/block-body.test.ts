import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createBlock } from '@ethereumjs/block'
import { createTx } from '@ethereumjs/tx'
import { encodeBlock } from './block-body.ts'
import { ACCOUNTS, devNode } from '../../test/support/dev-chain.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'

test("encodeBlock gives the library's own block bytes, for legacy and typed transactions, with many or none", async (t) => {
  const node = await devNode(t)
  const common = node.rules.at(1n, 10n)
  const key = hexToBytes(ACCOUNTS[0]!.privateKey)
  const to = ACCOUNTS[1]!.address as `0x${string}`
  const txs = Array.from({ length: 70 }, (_, i) =>
    createTx(
      (i % 3 === 0
        ? { type: 0, nonce: BigInt(i), to, gasLimit: 21_000n, gasPrice: 10n ** 10n, data: new Uint8Array(i) }
        : { type: i % 3, chainId: 31337n, nonce: BigInt(i), to, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, gasPrice: 10n ** 10n, accessList: [] }) as Parameters<typeof createTx>[0],
      { common },
    ).sign(key),
  )
  const header = { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 7n, timestamp: 10n, parentBeaconBlockRoot: new Uint8Array(32), blobGasUsed: 0n, excessBlobGas: 0n, requestsHash: new Uint8Array(32) }
  for (const list of [txs, txs.slice(0, 1), []]) {
    const full = createBlock({ header, transactions: list, withdrawals: [] }, { common })
    const headerOnly = createBlock({ header, withdrawals: [] }, { common })
    assert.equal(bytesToHex(encodeBlock(headerOnly, list.map((tx) => tx.serialize()))), bytesToHex(full.serialize()))
  }
})
