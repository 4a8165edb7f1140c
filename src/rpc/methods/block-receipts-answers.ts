/**
 * eth_getBlockReceipts answers, serialized once per block and kept, so that a block asked for again is
 * neither formatted nor serialized again (a block of 2,048 transfers is ~3 MB of JSON).
 *
 * What may be kept, and under which key, is what makes this cache never stale:
 * - a sealed block under its hash. A sealed block's receipts never change, and a
 *   hash names one block's contents, so an answer can never be served for another block, canonical or not;
 * - a pre-confirmed block (context.preconfirmed; no hash yet) under the identity of the node's receipt list, which is one frozen
 *   list per immutable snapshot (NodeApi.getBlockReceipts). Held weakly: the answer lives exactly as long as
 *   the node keeps that snapshot's list, and the next flashblock, a new list, misses.
 * Sealed answers are bounded by total size (characters, which are bytes: the text is ASCII) and count; the
 * least recently used go first, and an answer larger than the whole budget is served but not kept.
 */

import type { LocatedReceipt } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { blockReceiptsJson } from '../format/receipt-json.ts'
import { RawJson } from '../transport/messages.ts'
import { registerGauge } from '../../primitives/memory-gauges.ts'

export interface AnswerCacheLimits {
  /** Total characters of the sealed answers kept. */
  readonly maxBytes: number
  /** Sealed answers kept. */
  readonly maxEntries: number
}

export const DEFAULT_ANSWER_CACHE_LIMITS: AnswerCacheLimits = { maxBytes: 16 * 1024 * 1024, maxEntries: 256 }

const EMPTY = new RawJson('[]')

export class BlockReceiptsAnswers {
  /** Insertion order is recency order (least recent first). */
  private readonly sealed = new Map<string, RawJson>()
  private sealedBytes = 0
  private readonly pending = new WeakMap<readonly LocatedReceipt[], RawJson>()

  constructor(private readonly limits: AnswerCacheLimits = DEFAULT_ANSWER_CACHE_LIMITS) {
    registerGauge('eth_getBlockReceipts answers', this, (a) => ({ entries: a.sealed.size, maxEntries: a.limits.maxEntries, bytes: a.sealedBytes, maxBytes: a.limits.maxBytes }))
  }

  /** The answer for one block's receipts, all of one block context, as the node listed them. */
  answer(receipts: readonly LocatedReceipt[]): RawJson {
    const first = receipts[0]
    if (first === undefined) return EMPTY
    if (first.context.preconfirmed) {
      let answer = this.pending.get(receipts)
      if (answer === undefined) this.pending.set(receipts, (answer = serialize(receipts)))
      return answer
    }
    const key = bytesToHex(first.context.blockHash)
    const hit = this.sealed.get(key)
    if (hit !== undefined) {
      this.sealed.delete(key)
      this.sealed.set(key, hit)
      return hit
    }
    const answer = serialize(receipts)
    this.keep(key, answer)
    return answer
  }

  /** Sealed answers kept, and their total size; for tests. */
  get sealedSize(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.sealed.size, bytes: this.sealedBytes }
  }

  private keep(key: string, answer: RawJson): void {
    const { maxBytes, maxEntries } = this.limits
    if (answer.json.length > maxBytes || maxEntries < 1) return
    this.sealed.set(key, answer)
    this.sealedBytes += answer.json.length
    for (const [oldest, evicted] of this.sealed) {
      if (this.sealedBytes <= maxBytes && this.sealed.size <= maxEntries) break
      this.sealed.delete(oldest)
      this.sealedBytes -= evicted.json.length
    }
  }
}

function serialize(receipts: readonly LocatedReceipt[]): RawJson {
  return new RawJson(blockReceiptsJson(receipts.map((r) => r.receipt), receipts[0]!.context))
}
