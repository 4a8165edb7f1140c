/**
 * Logs as eth_getLogs, subscriptions and filters see them: each with its block context and position, and
 * the one address/topics match they all apply (geth's: any of the addresses, or all when none; per topic
 * position null or an empty list is a wildcard, else any of the listed topics; a filter naming more positions
 * than the log has topics does not match).
 */

import { equalBytes } from '../primitives/hex.ts'
import type { BlockContext, LogView, ReceiptView } from './types.ts'

/** A log with its position, as eth_getLogs returns it. */
export interface LocatedLog {
  readonly log: LogView
  readonly context: BlockContext
  readonly transactionHash: Uint8Array
  readonly transactionIndex: number
  readonly logIndex: number
}

/** What a log filter asks of a log itself (its block range is the caller's). */
export interface LogCriteria {
  /** Any of these addresses (empty = all). */
  readonly addresses: readonly Uint8Array[]
  /** Per position: null = wildcard, else any of the listed topics. */
  readonly topics: readonly (readonly Uint8Array[] | null)[]
}

export function logMatches(log: LogView, criteria: LogCriteria): boolean {
  if (criteria.addresses.length > 0 && !criteria.addresses.some((a) => equalBytes(a, log.address))) return false
  if (criteria.topics.length > log.topics.length) return false
  return criteria.topics.every((wanted, i) => wanted === null || wanted.length === 0 || wanted.some((t) => equalBytes(t, log.topics[i]!)))
}

/** Appends `receipt`'s logs (those matching `criteria`, when given) to `out`, located in `context`. */
export function appendLogs(out: LocatedLog[], receipt: ReceiptView, context: BlockContext, criteria?: LogCriteria): void {
  receipt.logs.forEach((log, i) => {
    if (criteria !== undefined && !logMatches(log, criteria)) return
    out.push({ log, context, transactionHash: receipt.transactionHash, transactionIndex: receipt.transactionIndex, logIndex: receipt.firstLogIndex + i })
  })
}
