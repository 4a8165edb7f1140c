/**
 * The incremental state root against the one-shot one (computeStateRoot over the merged diff), on random
 * blocks of several diffs over a stored parent state: account changes, creations of accounts the parent lacks,
 * deletions and re-creations, slot writes and zeroings, wipes, storage of accounts that end deleted. Each block must give the same root, the
 * same final accounts and the same new trie nodes (none of the intermediate tries' nodes kept).
 * FUZZ_SEED=<n> repeats a run.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keys } from '../storage/keys.ts'
import { LmdbStore } from '../storage/db.ts'
import { ArchiveReader } from './archive-reader.ts'
import { IncrementalStateRoot } from './incremental-root.ts'
import { mergeDiffs, type StateDiff } from './state-diff.ts'
import { writeStateHistory } from './state-history.ts'
import { computeStateRoot, EMPTY_TRIE_ROOT } from './state-root.ts'
import type { StateReader } from './state-reader.ts'

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ADDRESSES = Array.from({ length: 24 }, (_, i) => bytesToHex(Uint8Array.from({ length: 20 }, (_, j) => (i * 7 + j * 13 + 1) & 0xff)))
const slotKey = (n: number) => bytesToHex(Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? n : 0)))

function randomDiff(next: () => number, first: boolean): StateDiff {
  const pick = (n: number) => Math.floor(next() * n)
  const accounts = new Map<string, Account | null>()
  const storage = new Map<string, Map<string, Uint8Array>>()
  const wiped = new Set<string>()
  // the genesis leaves the last four addresses out: later diffs create accounts the parent state lacks
  for (let i = 0, n = first ? ADDRESSES.length - 4 : 1 + pick(8); i < n; i++) {
    const address = first ? ADDRESSES[i]! : ADDRESSES[pick(ADDRESSES.length)]!
    const roll = next()
    if (first || roll < 0.5) accounts.set(address, new Account(BigInt(pick(5)), BigInt(pick(1000)), KECCAK256_RLP, KECCAK256_NULL))
    else if (roll < 0.6) accounts.set(address, null)
    if (!first && next() < 0.15) wiped.add(address)
    if (first || wiped.has(address) || next() < 0.6) {
      const slots = new Map<string, Uint8Array>()
      for (let s = 0, m = pick(6); s < m; s++) slots.set(slotKey(pick(12)), next() < 0.25 && !first ? new Uint8Array(0) : Uint8Array.of(1 + pick(250)))
      if (slots.size > 0 || wiped.has(address)) storage.set(address, slots)
    }
  }
  return { accounts, storage, wiped, codes: new Map() }
}

const nodesOf = (m: ReadonlyMap<string, Uint8Array>): Map<string, string> => new Map([...m].map(([k, v]) => [k, bytesToHex(v)]))
const accountsOf = (m: ReadonlyMap<string, Account | null>): Map<string, string | null> => new Map([...m].map(([k, v]) => [k, v === null ? null : bytesToHex(v.serialize())]))

test('a block applied diff by diff has the root, accounts and new nodes of its merged diff computed at once', async (t) => {
  const seed = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31))
  t.diagnostic(`FUZZ_SEED=${seed}`)
  const next = random(seed)
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const empty: StateReader = { getAccount: () => undefined, getStorage: () => new Uint8Array(0), getCode: () => new Uint8Array(0) }
  const genesis = randomDiff(next, true)
  const stored = await computeStateRoot(kv, EMPTY_TRIE_ROOT, empty, genesis)
  const batch = kv.batch()
  writeStateHistory(batch, 1n, genesis, stored)
  kv.commit(batch)
  const base = new ArchiveReader(kv, 1n)
  let changedNodes = 0
  for (let round = 0; round < 60; round++) {
    const diffs = Array.from({ length: 2 + Math.floor(next() * 5) }, () => randomDiff(next, false))
    const once = await computeStateRoot(kv, stored.root, base, diffs.reduce(mergeDiffs))
    const incremental = new IncrementalStateRoot(kv, stored.root, base)
    for (const d of diffs) await incremental.apply(d)
    const result = incremental.finish()
    assert.equal(bytesToHex(result.root), bytesToHex(once.root), `round ${round}: root`)
    assert.deepEqual(accountsOf(result.accounts), accountsOf(once.accounts), `round ${round}: final accounts`)
    // Either may write again a node the database holds (a storage trie rewritten to what it was), a no-op;
    // the nodes the database lacks must be the same: the block's new nodes, and no intermediate trie's.
    const lacking = (nodes: ReadonlyMap<string, Uint8Array>) => new Map([...nodesOf(nodes)].filter(([k]) => kv.get(keys.trie(hexToBytes(`0x${k}`))) === undefined))
    assert.deepEqual(lacking(result.trieDb.pending), lacking(once.trieDb.pending), `round ${round}: the nodes to store`)
    changedNodes += once.trieDb.pending.size
  }
  assert.ok(changedNodes > 0, 'the rounds changed the tries')
})

test('a finished root takes no more diffs', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const empty: StateReader = { getAccount: () => undefined, getStorage: () => new Uint8Array(0), getCode: () => new Uint8Array(0) }
  const root = new IncrementalStateRoot(kv, EMPTY_TRIE_ROOT, empty)
  const diff: StateDiff = { accounts: new Map([[ADDRESSES[0]!, new Account(1n, 1n)]]), storage: new Map(), wiped: new Set(), codes: new Map() }
  await root.apply(diff)
  root.finish()
  await assert.rejects(root.apply(diff), /state root already finished/)
})
