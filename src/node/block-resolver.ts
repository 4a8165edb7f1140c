/**
 * THE one place where a block id (tag, number, hash, EIP-1898 object, `pending`) becomes a block.
 *
 * `pending` resolves to the feed's newest pre-confirmed snapshot (taken once, here, so the whole
 * request sees one flashblock), or to the newest sealed block when pre-confirmations are off: never older
 * than `latest`, never null. A hash with `requireCanonical` that is not canonical fails; this node has no
 * side chains, so every known hash is canonical.
 */

import { FlashnodeError } from '../errors/errors.ts'
import type { BlockId } from '../primitives/block-id.ts'
import type { ChainReader } from './chain-reader.ts'
import type { PendingSource } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'

export interface ResolvedBlock {
  readonly number: bigint
  /** True when the id asked for the pre-confirmed state. */
  readonly pending: boolean
  /** The snapshot a pending id resolved to (absent when pre-confirmations are off). */
  readonly snapshot?: PreconfirmedSnapshot
}

export class BlockResolver {
  constructor(
    private readonly chain: ChainReader,
    private readonly pendingSource?: PendingSource,
  ) {}

  /** The block the id names, or undefined when there is no such block (future number, unknown hash). */
  tryResolve(id: BlockId): ResolvedBlock | undefined {
    const head = this.chain.head()
    switch (id.kind) {
      case 'tag':
        switch (id.tag) {
          case 'latest':
            return { number: head, pending: false }
          case 'pending': {
            const snapshot = this.pendingSource?.snapshot()
            if (snapshot === undefined || snapshot.parent.number < head) return { number: head, pending: true }
            return { number: snapshot.header.number, pending: true, snapshot }
          }
          case 'earliest':
            return { number: 0n, pending: false }
          case 'safe':
          case 'finalized': {
            const n = this.chain.store.pointer(id.tag)
            return n === undefined ? undefined : { number: n, pending: false }
          }
        }
        break
      case 'number':
        return id.number <= head ? { number: id.number, pending: false } : undefined
      case 'hash': {
        const n = this.chain.store.numberOfHash(id.hash)
        return n === undefined ? undefined : { number: n, pending: false }
      }
    }
    return undefined
  }

  /** Like tryResolve, but a missing block is an error (state reads): geth's `header not found`. */
  resolve(id: BlockId): ResolvedBlock {
    const r = this.tryResolve(id)
    if (r === undefined) throw new FlashnodeError('notFound', id.kind === 'hash' ? `header for hash not found` : 'header not found')
    return r
  }
}
