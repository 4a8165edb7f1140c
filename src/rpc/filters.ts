/**
 * Polling filters, as geth's FilterAPI serves them (eth/filters/api.go), for clients that watch over plain
 * HTTP: ethers' provider.on('pending') and viem's watchPendingTransactions create a pending-transaction
 * filter, viem's watchContractEvent and watchBlocks a log or block filter, and poll eth_getFilterChanges.
 *
 * - eth_newPendingTransactionFilter(fullTx?): transactions as they become executable in the pool (the
 *   newPendingTransactions subscription's events): hashes, or with `true` pool transactions.
 * - eth_newBlockFilter: the hash of each sealed block.
 * - eth_newFilter(criteria): logs of sealed blocks that match the addresses and topics, and the block range
 *   when its edges are numbers. The range is checked as geth checks it: `pending` is `pending logs are not
 *   supported`; a range that is neither latest-latest, number-latest nor number-number in order is `invalid
 *   block range params` (both -32602). eth_getFilterLogs runs the criteria as eth_getLogs would.
 * - eth_getFilterChanges answers what arrived since the last poll, starts over and keeps the filter alive
 *   (eth_getFilterLogs does not, as in geth); eth_uninstallFilter removes a filter. An unknown id is geth's
 *   `filter not found`.
 *
 * Bounds (geth has none but the timeout): a filter not polled for 5 minutes is gone (checked at every
 * filter call and whenever an event reaches it, so no timer runs); at most MAX_FILTERS filters exist, a new
 * one evicting the one polled least recently; each keeps at most MAX_BUFFERED entries, the oldest dropped
 * first. Entries are references to the node's event objects, built once for all listeners, so a full buffer
 * costs its array (~80 KB) plus whatever the newest events hold.
 */

import { randomBytes } from 'node:crypto'
import { FlashnodeError, invalidParams } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { logMatches as matchesCriteria } from '../chain/logs.ts'
import type { BlockId } from '../primitives/block-id.ts'
import type { LocatedLog, LogFilter, NodeApi, NodeListener, PendingTransactionEvent } from '../node/api.ts'
import type { MethodHandler } from './registry.ts'
import { formatLocatedLog } from '../format/log.ts'
import { formatTransaction } from '../format/transaction.ts'
import { optional, parseArgs, parseBool, required } from './params/args.ts'
import { parseLogFilter } from './params/log-filter.ts'
import { typeError, jsonKind } from './params/json.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

export const FILTER_TIMEOUT_MS = 5 * 60_000
export const MAX_FILTERS = 256
export const MAX_BUFFERED = 10_000

type Entry = Uint8Array | PendingTransactionEvent | LocatedLog

interface Filter {
  readonly kind: 'blocks' | 'pending' | 'logs'
  readonly full: boolean
  readonly criteria?: LogFilter
  /** When it is gone unless polled again (ms). */
  deadline: number
  entries: Entry[]
  stop(): void
}

export interface FilterOptions {
  readonly now?: () => number
  readonly timeoutMs?: number
  readonly maxFilters?: number
  readonly maxBuffered?: number
}

const notFound = (): FlashnodeError => new FlashnodeError('notFound', 'filter not found')

function parseId(raw: unknown): string {
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'rpc.ID')
  return raw
}

/** geth's rpc.BlockNumber as an int64: latest -2, pending -1, earliest 0 (no pruning here), safe -4, finalized -3. */
function edge(id: BlockId | undefined): bigint {
  if (id === undefined) return -2n
  if (id.kind === 'number') return id.number
  if (id.kind === 'tag') return { latest: -2n, pending: -1n, earliest: 0n, safe: -4n, finalized: -3n }[id.tag]
  return -2n
}

/** geth's EventSystem.SubscribeLogs checks. */
function checkLogRange(criteria: LogFilter): void {
  const from = edge(criteria.fromBlock)
  const to = edge(criteria.toBlock)
  if (from === -1n || to === -1n) throw invalidParams('pending logs are not supported')
  if (from === -2n && to === -2n) return
  if (from >= 0n && to >= 0n && to >= from) return
  if (from >= 0n && to === -2n) return
  throw invalidParams('invalid block range params')
}

function logMatches(l: LocatedLog, f: LogFilter): boolean {
  const from = edge(f.fromBlock)
  const to = edge(f.toBlock)
  if (from >= 0n && from > l.context.blockNumber) return false
  if (to >= 0n && to < l.context.blockNumber) return false
  return matchesCriteria(l.log, f)
}

export function filterMethods(node: NodeApi, opts: FilterOptions = {}): Record<string, MethodHandler> {
  const now = opts.now ?? Date.now
  const timeoutMs = opts.timeoutMs ?? FILTER_TIMEOUT_MS
  const maxFilters = opts.maxFilters ?? MAX_FILTERS
  const maxBuffered = opts.maxBuffered ?? MAX_BUFFERED
  const filters = new Map<string, Filter>()
  registerGauge('filters', filters, (fs) => ({ entries: fs.size, maxEntries: maxFilters }))
  registerGauge('filter entries', filters, (fs) => {
    let entries = 0
    for (const f of fs.values()) entries += f.entries.length
    return { entries, maxEntries: maxFilters * maxBuffered }
  })

  const remove = (id: string): boolean => {
    const f = filters.get(id)
    if (f === undefined) return false
    filters.delete(id)
    f.stop()
    return true
  }
  const sweep = (): void => {
    const t = now()
    for (const [id, f] of filters) if (f.deadline <= t) remove(id)
  }
  const install = (kind: Filter['kind'], full: boolean, criteria: LogFilter | undefined, listen: (push: (e: Entry) => void) => NodeListener): string => {
    sweep()
    while (filters.size >= maxFilters) {
      let oldest: string | undefined
      for (const [id, f] of filters) if (oldest === undefined || f.deadline < filters.get(oldest)!.deadline) oldest = id
      remove(oldest!)
    }
    const id = `0x${randomBytes(16).toString('hex')}`
    const push = (e: Entry): void => {
      const f = filters.get(id)
      if (f === undefined) return
      if (f.deadline <= now()) {
        remove(id)
        return
      }
      f.entries.push(e)
      if (f.entries.length > maxBuffered) f.entries.splice(0, f.entries.length - maxBuffered)
    }
    const filter: Filter = { kind, full, deadline: now() + timeoutMs, entries: [], stop: () => {}, ...(criteria ? { criteria } : {}) }
    filters.set(id, filter)
    try {
      filter.stop = node.subscribe(listen(push))
    } catch (e) {
      filters.delete(id)
      throw e
    }
    return id
  }
  const lookup = (id: string): Filter => {
    sweep()
    const f = filters.get(id)
    if (f === undefined) throw notFound()
    return f
  }

  return {
    eth_newPendingTransactionFilter: async (params) => {
      const [full] = parseArgs(params, [optional(parseBool)])
      return install('pending', full === true, undefined, (push) => ({ pendingTransaction: push }))
    },
    eth_newBlockFilter: async (params) => {
      parseArgs(params, [])
      return install('blocks', false, undefined, (push) => ({ block: (e) => push(e.header.hash) }))
    },
    eth_newFilter: async (params) => {
      const [criteria] = parseArgs(params, [required(parseLogFilter)])
      checkLogRange(criteria)
      return install('logs', false, criteria, (push) => ({
        block: (e) => {
          for (const l of e.logs) if (logMatches(l, criteria)) push(l)
        },
      }))
    },
    eth_getFilterChanges: async (params) => {
      const [id] = parseArgs(params, [required(parseId)])
      const f = lookup(id)
      f.deadline = now() + timeoutMs
      const entries = f.entries
      f.entries = []
      switch (f.kind) {
        case 'blocks':
          return (entries as Uint8Array[]).map(bytesToHex)
        case 'pending':
          return (entries as PendingTransactionEvent[]).map((e) => (f.full ? formatTransaction(e.transaction(), null) : bytesToHex(e.hash)))
        case 'logs':
          return (entries as LocatedLog[]).map(formatLocatedLog)
      }
    },
    eth_getFilterLogs: async (params) => {
      const [id] = parseArgs(params, [required(parseId)])
      const f = lookup(id)
      if (f.kind !== 'logs' || f.criteria === undefined) throw notFound()
      return (await node.getLogs(f.criteria)).map(formatLocatedLog)
    },
    eth_uninstallFilter: async (params) => {
      const [id] = parseArgs(params, [required(parseId)])
      sweep()
      return remove(id)
    },
  }
}
