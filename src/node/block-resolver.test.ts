/**
 * The one block resolver, through its interface, over a chain and a pending source that are plain fakes:
 * every kind of block id, which ones name the pre-confirmed state, and the errors for blocks that do not exist.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BlockResolver } from './block-resolver.ts'
import type { ChainReader } from './chain-reader.ts'
import type { PendingSource } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { BlockId } from '../primitives/block-id.ts'
import { FlashnodeError } from '../errors/errors.ts'

const KNOWN = new Uint8Array(32).fill(0x11)
const UNKNOWN = new Uint8Array(32).fill(0x22)

function chainAt(head: bigint, pointers: { safe?: bigint; finalized?: bigint } = {}): ChainReader {
  return {
    head: () => head,
    store: {
      pointer: (name: 'safe' | 'finalized') => pointers[name],
      numberOfHash: (hash: Uint8Array) => (hash.every((b) => b === 0x11) ? 3n : undefined),
    },
  } as unknown as ChainReader
}

const snapshotOn = (parent: bigint): PreconfirmedSnapshot => ({ parent: { number: parent }, header: { number: parent + 1n } }) as unknown as PreconfirmedSnapshot

const pendingOf = (snapshot: PreconfirmedSnapshot): PendingSource => ({ snapshot: () => snapshot }) as unknown as PendingSource

const tag = (t: 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest'): BlockId => ({ kind: 'tag', tag: t })
const num = (n: bigint): BlockId => ({ kind: 'number', number: n })
const hash = (h: Uint8Array): BlockId => ({ kind: 'hash', hash: h, requireCanonical: false })

test('sealed ids resolve to sealed blocks, never to the pre-confirmed state', () => {
  const resolver = new BlockResolver(chainAt(5n, { safe: 4n, finalized: 2n }), pendingOf(snapshotOn(5n)))
  assert.deepEqual(resolver.tryResolve(tag('latest')), { number: 5n, pending: false })
  assert.deepEqual(resolver.tryResolve(tag('earliest')), { number: 0n, pending: false })
  assert.deepEqual(resolver.tryResolve(tag('safe')), { number: 4n, pending: false })
  assert.deepEqual(resolver.tryResolve(tag('finalized')), { number: 2n, pending: false })
  assert.deepEqual(resolver.tryResolve(num(5n)), { number: 5n, pending: false }, 'the head by its number')
  assert.deepEqual(resolver.tryResolve(num(0n)), { number: 0n, pending: false })
  assert.deepEqual(resolver.tryResolve(hash(KNOWN)), { number: 3n, pending: false })
})

test('pending is the newest snapshot, or the head (still as pending) when there is none newer than the head', () => {
  const fresh = snapshotOn(5n)
  assert.deepEqual(new BlockResolver(chainAt(5n), pendingOf(fresh)).tryResolve(tag('pending')), { number: 6n, pending: true, snapshot: fresh })
  assert.deepEqual(new BlockResolver(chainAt(5n), pendingOf(snapshotOn(4n))).tryResolve(tag('pending')), { number: 5n, pending: true }, 'a snapshot older than the head is never served')
  assert.deepEqual(new BlockResolver(chainAt(5n)).tryResolve(tag('pending')), { number: 5n, pending: true }, 'no pre-confirmations: the head')
})

test('blocks that do not exist: undefined from tryResolve, geth\'s "header not found" from resolve', () => {
  const resolver = new BlockResolver(chainAt(5n), pendingOf(snapshotOn(5n)))
  for (const id of [num(6n), hash(UNKNOWN), tag('safe'), tag('finalized')]) assert.equal(resolver.tryResolve(id), undefined)
  const notFound = (message: string) => (e: unknown) => e instanceof FlashnodeError && e.kind === 'notFound' && e.message === message
  assert.throws(() => resolver.resolve(num(6n)), notFound('header not found'))
  assert.throws(() => resolver.resolve(tag('safe')), notFound('header not found'))
  assert.throws(() => resolver.resolve(hash(UNKNOWN)), notFound('header for hash not found'))
  assert.deepEqual(resolver.resolve(num(5n)), { number: 5n, pending: false })
})
