import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import type { StateReader } from '../state/state-reader.ts'
import { BaseReaders } from './read-cache.ts'

function counting(): StateReader & { reads: number } {
  const r = {
    reads: 0,
    getAccount: () => (r.reads++, new Account(1n, 100n)),
    getStorage: () => (r.reads++, Uint8Array.of(7)),
    getCode: () => (r.reads++, Uint8Array.of(0x60)),
  }
  return r
}

test('simulations on one base share its reads; another base reads anew; code is shared by hash; accounts are copies', () => {
  const bases = new BaseReaders(2)
  const a = counting()
  const b = counting()
  const addr = new Uint8Array(20)
  const first = bases.of('block-a', a).getAccount(addr)!
  first.balance = 0n
  assert.equal(bases.of('block-a', a).getAccount(addr)!.balance, 100n, 'a handed-out account is a copy')
  bases.of('block-a', a).getStorage(addr, new Uint8Array(32))
  bases.of('block-a', a).getStorage(addr, new Uint8Array(32))
  assert.equal(a.reads, 2, 'one read per item for every simulation on the base')
  bases.of('block-b', b).getAccount(addr)
  assert.equal(b.reads, 1)
  const hash = new Uint8Array(32).fill(1)
  bases.of('block-a', a).getCode(hash)
  bases.of('block-b', b).getCode(hash)
  assert.equal(a.reads + b.reads, 4, 'code by hash is read once for every base')
})
