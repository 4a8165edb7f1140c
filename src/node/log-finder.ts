/**
 * eth_getLogs over sealed blocks: each block's header bloom rules it out cheaply before its receipts are
 * read. Logs come in (block, transaction index, log index) order. Range and result size are bounded.
 */

import { FlashnodeError } from '../errors/errors.ts'
import { bloomMayContain } from '../primitives/bloom.ts'
import { equalBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import type { LogView } from '../chain/types.ts'
import type { LocatedLog, LogFilter } from './api.ts'
import type { BlockResolver } from './block-resolver.ts'
import type { ChainReader } from './chain-reader.ts'
import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'
import { pendingContext, pendingReceipts } from './pending-views.ts'

export interface LogLimits {
  readonly maxBlockRange: number
  readonly maxResults: number
}

function matches(log: LogView, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => equalBytes(a, log.address))) return false
  if (filter.topics.length > log.topics.length) return false
  return filter.topics.every((wanted, i) => wanted === null || wanted.length === 0 || wanted.some((t) => equalBytes(t, log.topics[i]!)))
}

function bloomMayMatch(bloom: Uint8Array, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bloomMayContain(bloom, a))) return false
  return filter.topics.every((wanted) => wanted === null || wanted.length === 0 || wanted.some((t) => bloomMayContain(bloom, t)))
}

export function findLogs(chain: ChainReader, resolver: BlockResolver, filter: LogFilter, limits: LogLimits): LocatedLog[] {
  let from: bigint
  let to: bigint
  let pending: PreconfirmedSnapshot | undefined
  if (filter.blockHash !== undefined) {
    const n = chain.store.numberOfHash(filter.blockHash)
    if (n === undefined) throw new FlashnodeError('notFound', 'unknown block')
    from = to = n
  } else {
    const head = chain.head()
    const resolveEdge = (id: LogFilter['fromBlock']) => resolver.tryResolve(id ?? LATEST) ?? { number: head, pending: false }
    const fromBlock = resolveEdge(filter.fromBlock)
    const toBlock = resolveEdge(filter.toBlock)
    from = fromBlock.number
    to = toBlock.number
    if (toBlock.snapshot !== undefined) {
      // Sealed blocks up to the snapshot's parent, then the pre-confirmed logs.
      pending = toBlock.snapshot
      to = pending.parent.number
    }
    if (from > to + (pending !== undefined ? 1n : 0n)) throw new FlashnodeError('invalidParams', 'invalid block range params')
    if (to - from + 1n > BigInt(limits.maxBlockRange)) {
      throw new FlashnodeError('limitExceeded', `query exceeds max block range ${limits.maxBlockRange}`)
    }
  }
  const out: LocatedLog[] = []
  for (let n = from; n <= to; n++) {
    const header = chain.header(n)
    if (header === undefined || !bloomMayMatch(header.logsBloom, filter)) continue
    const receipts = chain.receipts(n) ?? []
    const context = chain.context(n)!
    for (const r of receipts) {
      r.logs.forEach((log, i) => {
        if (!matches(log, filter)) return
        out.push({ log, context, transactionHash: r.transactionHash, transactionIndex: r.transactionIndex, logIndex: r.firstLogIndex + i })
      })
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
    r.logs.forEach((log, i) => {
      if (matches(log, filter)) {
        out.push({ log, context, transactionHash: r.transactionHash, transactionIndex: r.transactionIndex, logIndex: r.firstLogIndex + i })
      }
    })
    if (out.length > limits.maxResults) {
      throw new FlashnodeError('limitExceeded', `query returned more than ${limits.maxResults} results`)
    }
  }
}
