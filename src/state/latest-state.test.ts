/**
 * The latest-state tables answer exactly as the history floors do, at every block, through accounts created,
 * changed, deleted and re-created, slots written before and after wipes; reads at the head take them (no
 * floor), reads at an older block of a changed item fall back to the floor; and an older database gets the
 * same tables from its history (buildLatestState) as one that wrote them block by block.
 */

import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { Account } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { LmdbStore, type KvStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { ArchiveReader } from './archive-reader.ts'
import { buildLatestState, hasLatestState } from './latest-state.ts'
import type { StateDiff } from './state-diff.ts'
import { writeStateHistory } from './state-history.ts'
import { BufferedTrieDb } from './trie-db.ts'

const h = bytesToHex
const addr = (b: number): Uint8Array => new Uint8Array(20).fill(b)
const slot = (b: number): Uint8Array => new Uint8Array(32).fill(b)
const A = addr(0xa1)
const B = addr(0xb2)
const C = addr(0xc3)
const NEVER = addr(0xee)
const S1 = slot(1)
const S2 = slot(2)
const S3 = slot(3)

/** Six blocks of changes: creation, updates, a deletion with a wipe, a re-creation, writes beside wipes. */
const BLOCKS: Partial<StateDiff>[] = [
  { accounts: new Map([[h(A), new Account(0n, 10n)], [h(B), new Account(1n, 20n)]]), storage: new Map([[h(A), new Map([[h(S1), Uint8Array.of(1)], [h(S2), Uint8Array.of(2)]])]]) },
  { accounts: new Map([[h(A), new Account(1n, 9n)]]), storage: new Map([[h(A), new Map([[h(S1), Uint8Array.of(0x11)]])]]) },
  { accounts: new Map([[h(A), null]]), wiped: new Set([h(A)]), storage: new Map([[h(B), new Map([[h(S3), Uint8Array.of(3)]])]]) },
  { accounts: new Map([[h(C), new Account(0n, 1n)]]) },
  { accounts: new Map([[h(A), new Account(0n, 5n)]]), wiped: new Set([h(A)]), storage: new Map([[h(A), new Map([[h(S2), Uint8Array.of(0x22)]])]]) },
  { accounts: new Map([[h(B), new Account(2n, 19n)]]), storage: new Map([[h(B), new Map([[h(S3), new Uint8Array(0)]])]]) },
]

function writeBlock(kv: LmdbStore, n: bigint, diff: Partial<StateDiff>): void {
  const full: StateDiff = { accounts: new Map(), storage: new Map(), wiped: new Set(), codes: new Map(), ...diff }
  const batch = kv.batch()
  writeStateHistory(batch, n, full, { root: new Uint8Array(32), accounts: full.accounts, trieDb: new BufferedTrieDb(kv) })
  kv.commit(batch)
}

const HEAD = BigInt(BLOCKS.length)
const LATEST_TAGS = [0x41, 0x53, 0x57]

/** The blocks above, written as the node writes blocks (history with its latest-state entries). */
function chain(t: TestContext): LmdbStore {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  BLOCKS.forEach((diff, i) => writeBlock(kv, BigInt(i + 1), diff))
  return kv
}

/** What a database from before the tables holds: the history only, no latest-state entries, no flag. */
function historyOnly(t: TestContext): LmdbStore {
  const kv = chain(t)
  const batch = kv.batch()
  for (const tag of LATEST_TAGS) for (const e of kv.range(Uint8Array.of(tag), Uint8Array.of(tag + 1))) batch.del(e.key)
  batch.del(keys.meta('latestState'))
  kv.commit(batch)
  return kv
}

const latestEntries = (kv: KvStore) => LATEST_TAGS.flatMap((tag) => [...kv.range(Uint8Array.of(tag), Uint8Array.of(tag + 1))].map((e) => [h(e.key), h(e.value)]))

/** Everything a reader at `block` says about every item of the blocks above. */
function readAll(kv: KvStore, block: bigint): unknown {
  const r = new ArchiveReader(kv, block)
  const accounts = [A, B, C, NEVER].map((a) => {
    const acc = r.getAccount(a)
    return acc === undefined ? null : [acc.nonce, acc.balance]
  })
  const slots = [A, B, NEVER].flatMap((a) => [S1, S2, S3].map((s) => h(r.getStorage(a, s))))
  return { accounts, slots }
}

/** A store that counts the floors asked of it. */
function counting(kv: KvStore): KvStore & { floors: number } {
  const c = Object.create(kv) as KvStore & { floors: number }
  c.floors = 0
  c.floor = (low, high) => {
    c.floors++
    return kv.floor(low, high)
  }
  return c
}

test('reads through the latest-state tables equal the history floors at every block', (t) => {
  const tables = chain(t)
  const floors = historyOnly(t)
  assert.equal(hasLatestState(tables), true)
  assert.equal(hasLatestState(floors), false)
  for (let b = 0n; b <= HEAD + 1n; b++) assert.deepEqual(readAll(tables, b), readAll(floors, b), `block ${b}`)
  // the scenario is not trivial: deletion, re-creation after a wipe, a slot zeroed
  assert.deepEqual(readAll(floors, 3n), { accounts: [null, ['1', '20'].map(BigInt), null, null], slots: ['0x', '0x', '0x', '0x', '0x', '0x03', '0x', '0x', '0x'] })
  assert.deepEqual((readAll(floors, 6n) as { slots: string[] }).slots, ['0x', '0x22', '0x', '0x', '0x', '0x', '0x', '0x', '0x'])
})

test('reads at the head take one point lookup; an older block reads the floor only for items written since', (t) => {
  const kv = chain(t)
  const atHead = counting(kv)
  readAll(atHead, HEAD)
  assert.equal(atHead.floors, 0, 'nothing at the head needs a floor')
  // a fresh wrapper: its own history cache, so every read below reaches the store
  const older = counting(kv)
  const r5 = new ArchiveReader(older, 5n)
  r5.getAccount(NEVER)
  r5.getStorage(NEVER, S1)
  assert.equal(older.floors, 0, 'an item never written needs no floor at any block')
  assert.deepEqual(r5.getStorage(A, S2), Uint8Array.of(0x22))
  assert.equal(r5.getAccount(C)?.balance, 1n)
  assert.equal(older.floors, 0, 'items (and wipes) last written at or below the block need none')
  const r2 = new ArchiveReader(older, 2n)
  assert.equal(r2.getAccount(C), undefined)
  assert.equal(older.floors, 1, 'an item first written after the block: the floor says it did not exist yet')
  assert.equal(r2.getAccount(B)?.balance, 20n)
  assert.equal(older.floors, 2, 'an item written again after the block: the floor finds its value then')
})

test('an older database gets the same tables from its history as one that wrote them block by block', (t) => {
  const written = chain(t)
  const older = historyOnly(t)
  assert.equal(latestEntries(older).length, 0)
  assert.equal(buildLatestState(older, undefined), 0, 'no chain yet: nothing to build')
  const items = buildLatestState(older, HEAD)
  assert.equal(items, latestEntries(written).length)
  assert.deepEqual(latestEntries(older), latestEntries(written))
  assert.equal(hasLatestState(older), true)
  assert.equal(buildLatestState(older, HEAD), 0, 'built once')
  assert.equal(buildLatestState(written, HEAD), 0, 'a database that wrote them through its head is left alone')
  for (let b = 0n; b <= HEAD + 1n; b++) assert.deepEqual(readAll(older, b), readAll(written, b), `block ${b}`)
})

test('tables that do not reach the head (an older version sealed blocks since) are rebuilt at open', (t) => {
  const kv = chain(t)
  // block 7 as a version without the tables writes it: history only, the flag left at block 6
  const batch = kv.batch()
  batch.put(keys.account(A, HEAD + 1n), new Account(3n, 1n).serialize())
  batch.put(keys.storage(B, S1, HEAD + 1n), Uint8Array.of(0x77))
  kv.commit(batch)
  const stale = new ArchiveReader(counting(kv), HEAD + 1n).getAccount(A)
  assert.equal(stale?.balance, 5n, 'the stale table answers the old value: what a rebuild prevents')
  assert.ok(buildLatestState(kv, HEAD + 1n) > 0)
  const fresh = counting(kv)
  assert.equal(new ArchiveReader(fresh, HEAD + 1n).getAccount(A)?.balance, 1n)
  assert.deepEqual(new ArchiveReader(fresh, HEAD + 1n).getStorage(B, S1), Uint8Array.of(0x77))
  assert.equal(fresh.floors, 0)
})
