/**
 * eth_subscribe / eth_unsubscribe over a WebSocket connection.
 *
 * Kinds: `newFlashblockTransactions` (a hash per pre-confirmed transaction, or with `true` the full
 * transaction with its receipt fields flattened in, blockHash 32 zero bytes), `pendingLogs` (each log of the
 * newest flashblock, with an address/topics filter), `newFlashblocks` (the accumulated pending block with full
 * transactions), geth's `newPendingTransactions` (a hash per transaction entering the pool's executable set,
 * or with `true` the transaction as a pool transaction: no block fields), `newHeads` and, for sealed blocks,
 * `logs`. `newHeads` follows the endpoint's heads cadence (`HeadsCadence`): `block`, a header per sealed
 * block (geth's); `flashblock` (the default where pre-confirmations are on, as Base's pre-confirmation
 * endpoints), also the pending block's header at every flashblock, the same fields eth_getBlockByNumber
 * answers for `pending` then (no hash, miner or nonce yet), so a head arrives about every flashblock interval
 * and each sealed block's header still arrives with its hash. Every pre-confirmed transaction is delivered
 * exactly once per subscription: a flashblock event carries only what it added. Subscriptions end with
 * eth_unsubscribe or when the connection closes; a connection holds a bounded number of them. Where the
 * facade has no pre-confirmations (an endpoint that turns them off) the flashblock kinds do not exist, as on
 * geth: -32602 `no "…" subscription in eth namespace`.
 */

import { randomBytes } from 'node:crypto'
import { FlashnodeError, invalidArgument, invalidParams } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { logMatches } from '../chain/logs.ts'
import type { FlashblockEvent, LocatedLog, LogFilter, NodeApi, NodeListener, SealedBlockEvent } from '../node/api.ts'
import type { MethodContext, MethodHandler, RpcConnection } from './registry.ts'
import { formatBlock, formatHeader } from '../format/block.ts'
import { formatLocatedLog } from '../format/log.ts'
import { formatReceipt } from './format/receipt.ts'
import { formatTransaction } from '../format/transaction.ts'
import type { JsonValue } from '../format/json.ts'
import { parseLogFilter } from './params/log-filter.ts'
import { parseBool } from './params/args.ts'
import { ParamError } from './params/param-error.ts'
import { failpointAfterAnswer } from '../primitives/failpoints.ts'

export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 128

type Send = (result: JsonValue) => void

const matches = (l: LocatedLog, f: LogFilter | undefined): boolean => f === undefined || logMatches(l.log, f)

function flashblockTransactions(event: FlashblockEvent, full: boolean, send: Send): void {
  if (!full) {
    for (const hash of event.hashes) send(bytesToHex(hash))
    return
  }
  for (const { tx, receipt } of event.transactions) {
    const r = formatReceipt(receipt.receipt, receipt.context)
    // The receipt's fields added to the fresh transaction object (a spread here costs microseconds per transaction).
    const out = formatTransaction(tx.tx, tx.placement)
    out.status = r.status ?? null
    out.gasUsed = r.gasUsed!
    out.cumulativeGasUsed = r.cumulativeGasUsed!
    out.logs = r.logs!
    out.contractAddress = r.contractAddress ?? null
    out.logsBloom = r.logsBloom!
    send(out)
  }
}

/** The subscription's options (argument 1), with a parser's ParamError worded as `invalid argument 1: …`. */
function parseOptions<T>(parse: (raw: unknown) => T, options: unknown): T {
  try {
    return parse(options)
  } catch (e) {
    if (e instanceof ParamError) throw invalidArgument(1, e.message)
    throw e
  }
}

/**
 * When `newHeads` announces a head: `block`, at each seal; `flashblock`, at each flashblock (the pending
 * block's header) and at each seal (the sealed header).
 */
export type HeadsCadence = 'block' | 'flashblock'
export const HEADS_CADENCES: readonly HeadsCadence[] = ['block', 'flashblock']

export interface SubscriptionOptions {
  /** Default `flashblock`; always `block` where the facade does not pre-confirm. */
  readonly heads?: HeadsCadence
}

/** The kinds that announce pre-confirmed state. */
const PRECONFIRMATION_KINDS: ReadonlySet<string> = new Set(['newFlashblockTransactions', 'pendingLogs', 'newFlashblocks'])

function listenerFor(kind: string, options: unknown, send: Send, preconfirmations: boolean, heads: HeadsCadence): NodeListener {
  if (!preconfirmations && PRECONFIRMATION_KINDS.has(kind)) throw invalidParams(`no "${kind}" subscription in eth namespace`)
  switch (kind) {
    case 'newFlashblockTransactions': {
      const full = options === undefined ? false : parseOptions(parseBool, options)
      return { flashblock: (e) => flashblockTransactions(e, full, send) }
    }
    case 'pendingLogs': {
      const filter = options === undefined ? undefined : parseOptions(parseLogFilter, options)
      return { flashblock: (e) => e.logs.filter((l) => matches(l, filter)).forEach((l) => send(formatLocatedLog(l))) }
    }
    case 'newPendingTransactions': {
      const full = options === undefined ? false : parseOptions(parseBool, options)
      return {
        pendingTransaction: (e) => send(full ? formatTransaction(e.transaction(), null) : bytesToHex(e.hash)),
      }
    }
    case 'newFlashblocks':
      return { flashblock: (e) => send(formatBlock(e.block, true)) }
    case 'newHeads': {
      const sealed = (e: SealedBlockEvent): void => send(formatHeader(e.header))
      if (heads === 'block') return { block: sealed }
      return { block: sealed, flashblock: (e) => send(formatHeader(e.block.header, { pending: true })) }
    }
    case 'logs': {
      const filter = options === undefined ? undefined : parseOptions(parseLogFilter, options)
      return { block: (e) => e.logs.filter((l) => matches(l, filter)).forEach((l) => send(formatLocatedLog(l))) }
    }
    default:
      throw invalidParams(`no "${kind}" subscription in eth namespace`)
  }
}

export function subscriptionMethods(node: NodeApi, opts: SubscriptionOptions = {}): Record<string, MethodHandler> {
  // A facade without pre-confirmations has no flashblocks: its heads are the sealed blocks', whatever is asked.
  const heads = node.preconfirmations ? opts.heads ?? 'flashblock' : 'block'
  const byConnection = new WeakMap<RpcConnection, Map<string, () => void>>()
  const connectionOf = (ctx: MethodContext): RpcConnection => {
    if (ctx.connection === undefined) throw new FlashnodeError('methodNotFound', 'notifications not supported')
    return ctx.connection
  }
  const subsOf = (conn: RpcConnection): Map<string, () => void> => {
    let subs = byConnection.get(conn)
    if (subs === undefined) {
      const created = new Map<string, () => void>()
      byConnection.set(conn, created)
      conn.onClose(() => {
        for (const stop of created.values()) stop()
        created.clear()
      })
      subs = created
    }
    return subs
  }
  return {
    eth_subscribe: async (params, ctx) => {
      const conn = connectionOf(ctx)
      const kind = params[0]
      if (typeof kind !== 'string') throw invalidParams('invalid argument 0: expected a subscription name')
      if (params.length > 2) throw invalidParams('too many arguments, want at most 2')
      const subs = subsOf(conn)
      const limit = conn.maxSubscriptions ?? MAX_SUBSCRIPTIONS_PER_CONNECTION
      if (subs.size >= limit) {
        throw new FlashnodeError('limitExceeded', `too many subscriptions on this connection (limit ${limit})`)
      }
      const id = `0x${randomBytes(16).toString('hex')}`
      const send: Send = (result) => {
        conn.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } }))
        // Once the turn is over: the messages of one run leave the socket together at its end (ws-server.ts).
        failpointAfterAnswer('subscription:sent')
      }
      const stop = node.subscribe(listenerFor(kind, params[1] ?? undefined, send, node.preconfirmations, heads))
      subs.set(id, stop)
      return id
    },
    eth_unsubscribe: async (params, ctx) => {
      const conn = connectionOf(ctx)
      const id = params[0]
      if (typeof id !== 'string') throw invalidParams('invalid argument 0: expected a subscription id')
      const subs = subsOf(conn)
      const stop = subs.get(id)
      if (stop === undefined) return false
      stop()
      subs.delete(id)
      return true
    },
  }
}
