import { test } from 'node:test'
import assert from 'node:assert/strict'
import { historyKeyBlock, keys, readU32, readU64, u32, u64 } from './keys.ts'

const ADDRESS = Uint8Array.from({ length: 20 }, (_, i) => i + 1)
const SLOT = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i)
const blockBytes = (n: bigint): number[] => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(56 - 8 * i)) & 0xffn))

test('history keys are the tag, the item, then the block as 8 big-endian bytes, each on a buffer of its own', () => {
  for (const n of [0n, 1n, 255n, 256n, (1n << 32n) + 5n, (1n << 64n) - 1n]) {
    const account = keys.account(ADDRESS, n)
    assert.deepEqual([...account], [0x61, ...ADDRESS, ...blockBytes(n)])
    assert.deepEqual([...keys.wipe(ADDRESS, n)], [0x77, ...ADDRESS, ...blockBytes(n)])
    const storage = keys.storage(ADDRESS, SLOT, n)
    assert.deepEqual([...storage], [0x73, ...ADDRESS, ...SLOT, ...blockBytes(n)])
    assert.equal(historyKeyBlock(account), n)
    assert.equal(historyKeyBlock(storage), n)
    assert.equal(storage.byteOffset, 0)
    assert.equal(storage.buffer.byteLength, storage.length, 'not a slice of a shared pool (keys may be kept or posted)')
  }
})

test('keys sort by item, then by block number', () => {
  const compare = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b)
  assert.ok(compare(keys.storage(ADDRESS, SLOT, 255n), keys.storage(ADDRESS, SLOT, 256n)) < 0)
  assert.ok(compare(keys.storage(ADDRESS, SLOT, (1n << 40n)), keys.storage(ADDRESS, SLOT, (1n << 40n) + 1n)) < 0)
  const otherSlot = SLOT.slice()
  otherSlot[31] = otherSlot[31]! + 1
  assert.ok(compare(keys.storage(ADDRESS, SLOT, (1n << 63n)), keys.storage(ADDRESS, otherSlot, 0n)) < 0)
})

test('u64 and u32 write big-endian bytes as DataView does, across the safe-integer edge and wrapping', () => {
  const viaDataView64 = (n: bigint): Uint8Array => {
    const out = new Uint8Array(8)
    new DataView(out.buffer).setBigUint64(0, n)
    return out
  }
  for (const n of [0n, 1n, 255n, 256n, 0xffff_ffffn, 0x1_0000_0000n, 0x1f_ffff_ffff_ffffn, 0x20_0000_0000_0000n, 0xffff_ffff_ffff_ffffn, 0x0102_0304_0506_0708n]) {
    assert.deepEqual(u64(n), viaDataView64(n), `u64(${n})`)
    assert.equal(readU64(u64(n)), n)
  }
  const viaDataView32 = (n: number): Uint8Array => {
    const out = new Uint8Array(4)
    new DataView(out.buffer).setUint32(0, n)
    return out
  }
  for (const n of [0, 1, 255, 256, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0102_0304]) {
    assert.deepEqual(u32(n), viaDataView32(n), `u32(${n})`)
    assert.equal(readU32(u32(n)), n)
  }
})
