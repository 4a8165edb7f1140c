import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { WorldState, EMPTY_CODE_HASH } from './world-state.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'

interface Pre {
  nonce?: bigint
  balance?: bigint
  code?: Uint8Array
  storage?: Record<string, bigint>
}

/** A base over plain accounts; an account with storage gets a (fake) non-empty storage root. */
function baseOf(accounts: Record<string, Pre>): StateReader {
  const byAddress = new Map<bigint, Pre>()
  const codes = new Map<string, Uint8Array>()
  for (const [a, pre] of Object.entries(accounts)) {
    byAddress.set(BigInt(a), pre)
    if (pre.code !== undefined) codes.set(bytesToHex(keccak256(pre.code)), pre.code)
  }
  return {
    getAccount(address) {
      const pre = byAddress.get(bytesToBigInt(address))
      if (pre === undefined) return undefined
      const hasStorage = Object.values(pre.storage ?? {}).some((v) => v !== 0n)
      return new Account(pre.nonce ?? 0n, pre.balance ?? 0n, hasStorage ? keccak256(new Uint8Array([1])) : KECCAK256_RLP, pre.code ? keccak256(pre.code) : KECCAK256_NULL)
    },
    getStorage(address, slot) {
      const v = byAddress.get(bytesToBigInt(address))?.storage?.[String(bytesToBigInt(slot))] ?? 0n
      return v === 0n ? new Uint8Array(0) : bigIntToFixedBytes(v, 32).subarray(32 - Math.ceil(v.toString(16).length / 2))
    },
    getCode(hash) {
      return codes.get(bytesToHex(hash)) ?? new Uint8Array(0)
    },
  }
}

const A = 0xaan
const B = 0xbbn
const C = 0xccn
const key = (a: bigint): string => '0x' + a.toString(16).padStart(40, '0')
const slotKey = (s: bigint): string => '0x' + s.toString(16).padStart(64, '0')

function world(): WorldState {
  return new WorldState(
    baseOf({
      '0xaa': { nonce: 1n, balance: 100n, storage: { '1': 5n } },
      '0xbb': { balance: 7n, code: new Uint8Array([0x60, 0x00]) },
    }),
  )
}

test('reads come from the base and are converted to bigints', () => {
  const w = world()
  assert.equal(w.getBalance(A), 100n)
  assert.equal(w.getNonce(A), 1n)
  assert.equal(w.getStorage(A, 1n), 5n)
  assert.equal(w.getStorage(A, 2n), 0n)
  assert.deepEqual([...w.getCode(B)], [0x60, 0x00])
  assert.equal(w.getCodeHash(B), bytesToBigInt(keccak256(new Uint8Array([0x60, 0x00]))))
  assert.equal(w.getCodeHash(A), EMPTY_CODE_HASH)
  assert.equal(w.getCodeHash(C), 0n)
  assert.equal(w.exists(C), false)
  assert.equal(w.isEmpty(C), true)
  assert.equal(w.isEmpty(A), false)
})

test('revert undoes every kind of change back to its mark; later marks nest', () => {
  const w = world()
  w.beginTransaction()
  const outer = w.checkpoint()
  w.setBalance(A, 1n)
  const inner = w.checkpoint()
  w.setNonce(A, 9n)
  w.setCode(A, new Uint8Array([0xfe]))
  w.setStorage(A, 1n, 6n)
  w.setStorage(A, 3n, 8n)
  w.setTransient(A, 1n, 4n)
  assert.equal(w.warmAccount(C), true)
  assert.equal(w.warmSlot(C, 1n), true)
  w.addRefund(4800)
  w.addLog({ address: A, topics: [], data: new Uint8Array(0) })
  assert.equal(w.markSelfDestructed(B), false)
  w.markCreated(C)
  w.addBalance(C, 3n)
  w.revertTo(inner)
  assert.equal(w.getBalance(A), 1n, 'the outer change stays')
  assert.equal(w.getNonce(A), 1n)
  assert.equal(w.getCodeHash(A), EMPTY_CODE_HASH)
  assert.equal(w.getCode(A).length, 0)
  assert.equal(w.getStorage(A, 1n), 5n)
  assert.equal(w.getStorage(A, 3n), 0n)
  assert.equal(w.getTransient(A, 1n), 0n)
  assert.equal(w.isWarmAccount(C), false)
  assert.equal(w.isWarmSlot(C, 1n), false)
  assert.equal(w.refund, 0)
  assert.equal(w.logs.length, 0)
  assert.equal(w.isSelfDestructed(B), false)
  assert.equal(w.isCreatedInTx(C), false)
  assert.equal(w.exists(C), false)
  w.revertTo(outer)
  assert.equal(w.getBalance(A), 100n)
})

test('a committed frame (no revert) keeps its changes, and an outer revert still undoes them', () => {
  const w = world()
  w.beginTransaction()
  const outer = w.checkpoint()
  w.checkpoint()
  w.setStorage(A, 1n, 77n)
  // inner frame succeeds: nothing to call
  assert.equal(w.getStorage(A, 1n), 77n)
  w.revertTo(outer)
  assert.equal(w.getStorage(A, 1n), 5n)
})

test('original storage is the value at the start of the transaction, not of the frame', () => {
  const w = world()
  w.beginTransaction()
  w.setStorage(A, 1n, 6n)
  w.setStorage(A, 1n, 7n)
  assert.equal(w.getOriginalStorage(A, 1n), 5n)
  assert.equal(w.getOriginalStorage(A, 9n), 0n)
  w.endTransaction(true)
  w.beginTransaction()
  assert.equal(w.getOriginalStorage(A, 1n), 7n)
})

test('a wipe, and undoing it, change which storage the next read and write of that account go to', () => {
  const w = world()
  w.beginTransaction()
  w.setStorage(A, 1n, 6n)
  const mark = w.checkpoint()
  w.deleteAccount(A)
  assert.equal(w.getStorage(A, 1n), 0n, 'wiped')
  w.setStorage(A, 2n, 9n)
  w.setStorage(A, 1n, 3n)
  w.revertTo(mark)
  assert.equal(w.getStorage(A, 1n), 6n, 'the write before the wipe is back')
  assert.equal(w.getStorage(A, 2n), 0n, 'the write into the wiped storage is gone')
  w.setStorage(A, 1n, 4n)
  w.revertTo(mark)
  assert.equal(w.getStorage(A, 1n), 6n)
  assert.equal(w.getOriginalStorage(A, 1n), 5n)
})

test('per-transaction parts are cleared between transactions; state stays', () => {
  const w = world()
  w.beginTransaction()
  w.warmAccount(C)
  w.warmSlot(A, 1n)
  w.setTransient(A, 1n, 1n)
  w.addRefund(100)
  w.markCreated(C)
  w.setBalance(A, 50n)
  const logs = w.endTransaction(true)
  assert.equal(logs.length, 0)
  w.beginTransaction()
  assert.equal(w.isWarmAccount(C), false)
  assert.equal(w.isWarmSlot(A, 1n), false)
  assert.equal(w.warmSlot(A, 1n), true, 'the first access of the new transaction is cold again')
  assert.equal(w.getTransient(A, 1n), 0n)
  assert.equal(w.refund, 0)
  assert.equal(w.isCreatedInTx(C), false)
  assert.equal(w.getBalance(A), 50n)
})

test('diff: net changes only; an account changed and changed back is left out', () => {
  const w = world()
  w.beginTransaction()
  w.setBalance(A, 99n)
  w.setBalance(A, 100n)
  w.setStorage(A, 1n, 6n)
  w.setStorage(A, 1n, 5n)
  w.setStorage(A, 2n, 1n)
  w.setBalance(B, 8n)
  w.endTransaction(true)
  const d = w.diff()
  assert.deepEqual([...d.accounts.keys()], [key(B)])
  assert.equal(d.accounts.get(key(B))!.balance, 8n)
  assert.deepEqual(
    [...d.storage.get(key(A))!].map(([k, v]) => [k, bytesToHex(v)]),
    [[slotKey(2n), '0x01']],
  )
  assert.equal(d.wiped.size, 0)
})

test('diff: a later diff reports what is unchanged since as the same objects and leaves the earlier diff as it was', () => {
  const w = world()
  w.beginTransaction()
  w.setBalance(A, 90n)
  w.setStorage(A, 2n, 3n)
  w.setBalance(B, 8n)
  w.endTransaction(true)
  const first = w.diff()
  w.beginTransaction()
  w.setBalance(B, 9n)
  w.setStorage(A, 3n, 4n)
  w.endTransaction(true)
  const second = w.diff()
  assert.equal(second.accounts.get(key(A)), first.accounts.get(key(A)), 'A did not change since: the same Account')
  assert.equal(second.storage.get(key(A))!.get(slotKey(2n)), first.storage.get(key(A))!.get(slotKey(2n)), 'nor did its slot 2')
  assert.notEqual(second.accounts.get(key(B)), first.accounts.get(key(B)))
  assert.equal(second.accounts.get(key(B))!.balance, 9n)
  assert.equal(first.accounts.get(key(B))!.balance, 8n, 'the earlier diff still says what it said')
  assert.deepEqual([...first.storage.get(key(A))!.keys()], [slotKey(2n)])
  w.beginTransaction()
  w.setStorage(A, 2n, 7n)
  w.endTransaction(true)
  const third = w.diff()
  assert.equal(bytesToHex(third.storage.get(key(A))!.get(slotKey(2n))!), '0x07')
  assert.equal(bytesToHex(first.storage.get(key(A))!.get(slotKey(2n))!), '0x03', 'a slot changed since: new bytes, the old ones kept')
})

test('diff: a deleted account is null with its storage wiped; a re-created one is a wipe plus its new slots', () => {
  const w = world()
  w.beginTransaction()
  w.markSelfDestructed(A)
  w.endTransaction(true)
  let d = w.diff()
  assert.equal(d.accounts.get(key(A)), null)
  assert.ok(d.wiped.has(key(A)))
  assert.equal(w.getStorage(A, 1n), 0n, 'no fall-back to the base after a wipe')

  w.beginTransaction()
  w.createAccount(A)
  w.setNonce(A, 1n)
  w.setStorage(A, 4n, 2n)
  w.endTransaction(true)
  d = w.diff()
  assert.equal(d.accounts.get(key(A))!.nonce, 1n)
  assert.ok(d.wiped.has(key(A)))
  assert.deepEqual([...d.storage.get(key(A))!.keys()], [slotKey(4n)])
  assert.equal(w.getStorage(A, 1n), 0n)
})

test('diff: an account created and deleted within the block, absent from the base, leaves no trace', () => {
  const w = world()
  w.beginTransaction()
  w.addBalance(C, 5n)
  w.setStorage(C, 1n, 1n)
  w.markSelfDestructed(C)
  w.endTransaction(true)
  const d = w.diff()
  assert.equal(d.accounts.has(key(C)), false)
  assert.equal(d.wiped.has(key(C)), false)
  assert.equal(d.storage.has(key(C)), false)
})

test('EIP-161: touched empty accounts are deleted at the end of a transaction only when asked (Spurious Dragon on)', () => {
  const preSpurious = world()
  preSpurious.beginTransaction()
  preSpurious.addBalance(C, 0n)
  preSpurious.endTransaction(false)
  assert.equal(preSpurious.exists(C), true, 'Frontier keeps the empty account a zero transfer made')
  assert.equal(preSpurious.diff().accounts.get(key(C))!.balance, 0n)

  const w = new WorldState(baseOf({ '0xcc': {} }))
  w.beginTransaction()
  w.addBalance(C, 0n)
  w.endTransaction(true)
  assert.equal(w.exists(C), false)
  assert.equal(w.diff().accounts.get(key(C)), null)

  const reverted = new WorldState(baseOf({ '0xcc': {} }))
  reverted.beginTransaction()
  const mark = reverted.checkpoint()
  reverted.addBalance(C, 0n)
  reverted.revertTo(mark)
  reverted.endTransaction(true)
  assert.equal(reverted.exists(C), true, 'a reverted touch does not count')
})

test('discardTransaction undoes the whole transaction', () => {
  const w = world()
  w.beginTransaction()
  w.setBalance(A, 1n)
  w.setStorage(A, 1n, 0n)
  w.discardTransaction()
  assert.equal(w.getBalance(A), 100n)
  assert.equal(w.getStorage(A, 1n), 5n)
  const d = w.diff()
  assert.equal(d.accounts.size + d.storage.size + d.wiped.size, 0)
})

test('code set here is in the diff by its hash; hasStorage sees the base root and written slots', () => {
  const w = world()
  w.beginTransaction()
  const code = new Uint8Array([0x60, 0x01, 0x00])
  w.createAccount(C)
  w.setNonce(C, 1n)
  w.setCode(C, code)
  w.endTransaction(true)
  const d = w.diff()
  const hash = bytesToHex(keccak256(code))
  assert.deepEqual(d.codes.get(hash), code)
  assert.equal(bytesToHex(d.accounts.get(key(C))!.codeHash), hash)
  assert.equal(w.hasStorage(A), true)
  assert.equal(w.hasStorage(B), false)
  w.beginTransaction()
  w.setStorage(B, 1n, 1n)
  assert.equal(w.hasStorage(B), true)
})
