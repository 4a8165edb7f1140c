import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { devNode, ACCOUNTS } from '../../test/support/dev-chain.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { computeStateRoot } from '../state/state-root.ts'
import { mergeDiffs, type StateDiff } from '../state/state-diff.ts'
import { StateRoots } from './state-roots.ts'

const slot = (n: number): string => bytesToHex(new Uint8Array(32).fill(n))
const A = ACCOUNTS[0]!.address.toLowerCase()
const B = ACCOUNTS[1]!.address.toLowerCase()
const C = '0xc000000000000000000000000000000000000000'

function diff(accounts: [string, Account | null][], storage: [string, [string, Uint8Array][]][] = [], wiped: string[] = []): StateDiff {
  return {
    accounts: new Map(accounts),
    storage: new Map(storage.map(([a, slots]) => [a, new Map(slots)])),
    wiped: new Set(wiped),
    codes: new Map(),
  }
}

test('roots computed block by block equal the root of all the changes at once, with or without unrooted changes first', async (t) => {
  const node = await devNode(t)
  const kv = node.chain.store.kv
  const head = node.chain.header(node.chain.head())!
  const state = new ArchiveReader(kv, head.number)
  const d0 = diff([[B, new Account(5n, 123n)]])
  const d1 = diff([[C, new Account(0n, 1n)]], [[C, [[slot(1), new Uint8Array([7])], [slot(2), new Uint8Array([8])]]]])
  const d2 = diff([[A, new Account(6n, 100n)], [C, new Account(0n, 2n)]], [[C, [[slot(1), new Uint8Array(0)], [slot(3), new Uint8Array([9])]]]])
  const d3 = diff([[C, new Account(0n, 3n)]], [[C, [[slot(4), new Uint8Array([1])]]]], [C])

  const whole = async (...ds: StateDiff[]) => bytesToHex((await computeStateRoot(kv, head.stateRoot, state, ds.reduce(mergeDiffs))).root)

  const roots = new StateRoots({ store: kv, root: head.stateRoot, state })
  const seen: string[] = []
  for (const d of [d1, d2, d3]) {
    const r = await roots.compute(d)
    roots.advance(r)
    seen.push(bytesToHex(r.root))
  }
  assert.deepEqual(seen, [await whole(d1), await whole(d1, d2), await whole(d1, d2, d3)])

  const afterPending = new StateRoots({ store: kv, root: head.stateRoot, state, unrooted: d0 })
  const r1 = await afterPending.compute(d1)
  afterPending.advance(r1)
  const r2 = await afterPending.compute(d2)
  assert.equal(bytesToHex(r1.root), await whole(d0, d1))
  assert.equal(bytesToHex(r2.root), await whole(d0, d1, d2))
  assert.notEqual(bytesToHex(r2.root), await whole(d1, d2), 'the unrooted changes are in')
})
