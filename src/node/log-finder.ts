/**
 * eth_getLogs over sealed blocks: each block's header bloom rules it out cheaply before its receipts are
 * read. Logs come in (block, transaction index, log index) order. Range and result size are bounded.
 *
 * The range is checked as geth checks it (eth/filters: FilterAPI.GetLogs, Filter.Logs, the search
 * session): a missing edge is `latest`; `safe` / `finalized` with no such block yet is `safe header not
 * found` / `finalized header not found`; after resolving, a range that runs backwards is `invalid block range
 * params` and one that ends past the head is `block range extends beyond current head block` (both -32602),
 * never an empty list. Unlike geth, `pending` is served: it ends the range at the pre-confirmed block (its
 * logs after the sealed ones); where pre-confirmations are off it is `latest`. A block number is a sealed
 * block: the open block's number is named by `pending` only. Our range limit is geth's `--rpc.rangelimit`
 * (`exceed maximum block range N`, -32602, counted as geth counts: last - first), checked on the resolved
 * numbers; more than 1000 addresses is geth's `exceed max addresses or topics per search position`.
 */

import { FlashnodeError, invalidParams } from '../errors/errors.ts'
import { bloomMayContain } from '../primitives/bloom.ts'
import { LATEST, type BlockId } from '../primitives/block-id.ts'
import { appendLogs } from '../chain/logs.ts'
import type { LocatedLog, LogFilter } from './api.ts'
import type { BlockResolver, ResolvedBlock } from './block-resolver.ts'
import type { ChainReader } from './chain-reader.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { pendingContext, pendingReceipts } from '../preconf/views.ts'

/** geth's default --rpc.logquerylimit: addresses (and topics per position) one query may name. */
const LOG_QUERY_LIMIT = 1000

export interface LogLimits {
  readonly maxBlockRange: number
  readonly maxResults: number
}

function bloomMayMatch(bloom: Uint8Array, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bloomMayContain(bloom, a))) return false
  return filter.topics.every((wanted) => wanted === null || wanted.length === 0 || wanted.some((t) => bloomMayContain(bloom, t)))
}

/** One end of the range: a tag resolved (a missing safe / finalized block is geth's error), a number kept. */
function rangeEdge(resolver: BlockResolver, id: BlockId | undefined): ResolvedBlock {
  const edge = id ?? LATEST
  const resolved = resolver.tryResolve(edge)
  if (resolved !== undefined) return resolved
  if (edge.kind === 'number') return { number: edge.number, pending: false }
  if (edge.kind === 'tag') throw new FlashnodeError('notFound', `${edge.tag} header not found`)
  throw invalidParams('invalid block range params')
}

export function findLogs(chain: ChainReader, resolver: BlockResolver, filter: LogFilter, limits: LogLimits): LocatedLog[] {
  if (filter.addresses.length > LOG_QUERY_LIMIT || filter.topics.some((t) => t !== null && t.length > LOG_QUERY_LIMIT)) {
    throw new FlashnodeError('limitExceeded', 'exceed max addresses or topics per search position', { code: -32000 })
  }
  let from: bigint
  let to: bigint
  let pending: PreconfirmedSnapshot | undefined
  if (filter.blockHash !== undefined) {
    const n = chain.store.numberOfHash(filter.blockHash)
    if (n === undefined) throw new FlashnodeError('notFound', 'unknown block')
    from = to = n
  } else {
    const head = chain.head()
    const fromBlock = rangeEdge(resolver, filter.fromBlock)
    const toBlock = rangeEdge(resolver, filter.toBlock)
    from = fromBlock.number
    to = toBlock.number
    if (from > to) throw invalidParams('invalid block range params')
    if (toBlock.snapshot === undefined && to > head) throw invalidParams('block range extends beyond current head block')
    if (to - from > BigInt(limits.maxBlockRange)) throw invalidParams(`exceed maximum block range ${limits.maxBlockRange}`)
    if (toBlock.snapshot !== undefined) {
      // Sealed blocks up to the snapshot's parent, then the pre-confirmed logs.
      pending = toBlock.snapshot
      to = pending.parent.number
    }
  }
  const out: LocatedLog[] = []
  for (let n = from; n <= to; n++) {
    const header = chain.header(n)
    if (header === undefined || !bloomMayMatch(header.logsBloom, filter)) continue
    const receipts = chain.receipts(n) ?? []
    const context = chain.context(n)!
    for (const r of receipts) {
      appendLogs(out, r, context, filter)
      if (out.length > limits.maxResults) {
        throw new FlashnodeError('limitExceeded', `query returned more than ${limits.maxResults} results`)
      }
    }
  }
  if (pending !== undefined) collectPending(pending, filter, out, limits)
  return out
}

function collectPending(snapshot: PreconfirmedSnapshot, filter: LogFilter, out: LocatedLog[], limits: LogLimits): void {
  const context = pendingContext(snapshot)
  for (const r of pendingReceipts(snapshot)) {
    appendLogs(out, r, context, filter)
    if (out.length > limits.maxResults) {
      throw new FlashnodeError('limitExceeded', `query returned more than ${limits.maxResults} results`)
    }
  }
}
