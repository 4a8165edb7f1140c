/**
 * Throughput sender: one OS process (of several, apart from the orchestrator and the node) that offers the
 * throughput scenario's load. Run through probe-process.ts:
 *   node --import tsx bench/throughput-sender.ts @config.json
 *
 * 1. Signs every transaction it may send before anything is timed (txs.ts / swap-txs.ts: native secp256k1,
 *    not cached: each is sent once), in rounds over its own senders (round r = each sender's next nonce), and
 *    builds the HTTP requests: JSON-RPC batches of `batchSize` eth_sendRawTransaction, one transaction per
 *    sender in a batch. Each of its `connections` keep-alive sockets owns a fixed share of its senders and
 *    sends its batches one after the other, so a sender's nonces arrive in order. Then prints `ready`.
 * 2. On `go` (probe-process.ts), open loop: batches fall due at `ratePerSecond` whatever the answers, each
 *    queued on its connection (a slow node lengthens the connections' queues, not the schedule), for `runMs`.
 * 3. Pool guard: every `pollMs` it reads txpool_status on a socket of its own; while pending + queued is at
 *    or above `poolHigh` no batch falls due (the schedule does not catch up afterwards). Set below the pool's
 *    5,120 executable slots, it keeps the pool full without a refusal or an eviction; the share of the
 *    window it held back (`pausedMs`) says the node, not the load, set the rate.
 * Prints one JSON line: accepted (answered with the hash) in the window and in all, refusals with samples,
 * batch round trips, the time held back, its CPU during the window and since `go`, and whether it ran out of
 * signed transactions before `runMs` (then the offered rate was met and more could have been sent).
 */

import { buildRequest, RawConnection } from './raw-http.ts'
import { rpcBody } from './rpc.ts'
import { runAsProbe, waitForGo } from './probe-process.ts'
import { SwapTxFactory } from './swap-txs.ts'
import { quantile, TxFactory, type SignedTx } from './txs.ts'
import type { SwapAddresses } from '../test/fixtures/swap/index.ts'
import type { Address } from 'viem'

/** What a sender sends: ETH transfers, ERC-20 transfers (txs.ts), swaps through the router and the pair (swap-txs.ts). */
export type LoadKind = 'eth' | 'erc20' | 'swap'

/** Signs `kind` from bench account `sender` at `nonce`, uncached. */
export type Signer = (kind: LoadKind, sender: number, nonce: number) => SignedTx

/** A signer over the bench chain's accounts [0, accounts). */
export function loadSigner(chainId: number, token: Address, swap: SwapAddresses | undefined, accounts: number): Signer {
  const transfers = new TxFactory(chainId, token, accounts)
  let swaps: SwapTxFactory | undefined
  return (kind, sender, nonce) => {
    if (kind !== 'swap') return transfers.tx(kind, sender, nonce, false)
    if (swap === undefined) throw new Error('swaps need a chain built with swap: true')
    swaps ??= new SwapTxFactory(chainId, swap, accounts)
    return swaps.tx(sender, nonce, false)
  }
}

export interface SenderConfig {
  url: string
  chainId: number
  token: Address
  swap?: SwapAddresses
  /** Sender s sends kinds[s % kinds.length]. */
  kinds: LoadKind[]
  /** Its senders (bench account indexes) and each one's first nonce. */
  senders: number[]
  nonces: number[]
  /** Transactions to sign (in rounds over the senders). */
  count: number
  ratePerSecond: number
  batchSize: number
  connections: number
  /** From go: offer for runMs; count accepted between warmupMs and warmupMs + windowMs. */
  runMs: number
  warmupMs: number
  windowMs: number
  poolHigh: number
  pollMs: number
}

export interface SenderResult {
  signed: number
  signMs: number
  sent: number
  accepted: number
  acceptedInWindow: number
  refused: number
  errorSamples: string[]
  /** Window time the pool guard held the load back, ms. */
  pausedMs: number
  /** Highest pending + queued the guard read. */
  poolPeak: number
  batchP50Ms: number
  batchP99Ms: number
  ranOut: boolean
  /** Transactions that fell due but were never sent (queued on a busy connection when the run ended). */
  backlog: number
  cpuWindowMs: number
  cpuMs: number
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

interface Reply {
  id?: number
  result?: unknown
  error?: unknown
}

async function send(cfg: SenderConfig): Promise<SenderResult> {
  const url = new URL(cfg.url)
  const port = Number(url.port)
  const accounts = Math.max(...cfg.senders) + 1
  const sign = loadSigner(cfg.chainId, cfg.token, cfg.swap, accounts)

  // 1. Sign, in rounds over each connection's own senders, and build the requests.
  const signStart = performance.now()
  const lanes = Math.max(1, Math.min(cfg.connections, cfg.senders.length))
  const owned = Array.from({ length: lanes }, (_, c) => cfg.senders.map((s, i) => ({ s, i })).filter((_, i) => i % lanes === c))
  const perLane = Math.ceil(cfg.count / lanes)
  const queues: Buffer[][] = owned.map((mine) => {
    const txs: string[] = []
    for (let k = 0; k < perLane; k++) {
      const { s, i } = mine[k % mine.length]!
      txs.push(sign(cfg.kinds[s % cfg.kinds.length]!, s, cfg.nonces[i]! + Math.floor(k / mine.length)).raw)
    }
    const batches: Buffer[] = []
    for (let k = 0; k < txs.length; k += cfg.batchSize) {
      const body = `[${txs.slice(k, k + cfg.batchSize).map((raw, j) => rpcBody(j, 'eth_sendRawTransaction', [raw])).join(',')}]`
      batches.push(buildRequest(url, Buffer.from(body)))
    }
    return batches
  })
  const signMs = performance.now() - signStart
  const signed = perLane * lanes
  process.stdout.write('ready\n')
  await waitForGo()

  // 2. Open loop with the pool guard.
  const cpuAtGo = process.cpuUsage()
  const t0 = performance.now()
  const windowStart = t0 + cfg.warmupMs
  const windowEnd = windowStart + cfg.windowMs
  const end = t0 + cfg.runMs
  let cpuAtWindow: NodeJS.CpuUsage | undefined
  let cpuWindow: NodeJS.CpuUsage | undefined
  const windowTimers = [
    setTimeout(() => (cpuAtWindow = process.cpuUsage()), cfg.warmupMs),
    setTimeout(() => (cpuWindow = process.cpuUsage(cpuAtWindow)), cfg.warmupMs + cfg.windowMs),
  ]
  let sent = 0
  let accepted = 0
  let acceptedInWindow = 0
  let refused = 0
  const errorSamples: string[] = []
  const refuse = (what: string): void => {
    refused++
    if (errorSamples.length < 3) errorSamples.push(what.slice(0, 300))
  }
  const batchMs: number[] = []

  const due: number[] = new Array<number>(lanes).fill(0) // batches due on each lane, not yet sent
  const wake: ((() => void) | undefined)[] = new Array(lanes).fill(undefined)
  let offering = true
  const lane = async (c: number): Promise<void> => {
    const conn = new RawConnection(url.hostname, port, 30_000)
    const queue = queues[c]!
    let next = 0
    try {
      for (;;) {
        if (due[c]! === 0) {
          if (!offering) return
          await new Promise<void>((r) => (wake[c] = r))
          wake[c] = undefined
          continue
        }
        if (next >= queue.length) return
        due[c]!--
        const started = performance.now()
        let text: string
        try {
          const reply = await conn.post(queue[next++]!)
          if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.text.slice(0, 200)}`)
          text = reply.text
        } catch (e) {
          refuse(`eth_sendRawTransaction batch: ${(e as Error).message}`)
          continue
        }
        const done = performance.now()
        batchMs.push(done - started)
        const items = JSON.parse(text) as Reply[]
        let ok = 0
        for (const item of items) {
          if (typeof item.result === 'string') ok++
          else refuse(`eth_sendRawTransaction answered ${JSON.stringify(item.error ?? item)}`)
        }
        sent += items.length
        accepted += ok
        if (done >= windowStart && done <= windowEnd) acceptedInWindow += ok
      }
    } finally {
      conn.close()
    }
  }
  const lanesDone = Promise.all(Array.from({ length: lanes }, (_, c) => lane(c)))

  let paused = false
  let pausedMs = 0
  let poolPeak = 0
  const guard = async (): Promise<void> => {
    const conn = new RawConnection(url.hostname, port, 10_000)
    const request = buildRequest(url, Buffer.from(rpcBody(1, 'txpool_status', [])))
    try {
      while (offering) {
        const t = performance.now()
        try {
          const reply = await conn.post(request)
          const r = (JSON.parse(reply.text) as { result?: { pending: string; queued: string } }).result
          if (r !== undefined) {
            const level = Number(r.pending) + Number(r.queued)
            poolPeak = Math.max(poolPeak, level)
            paused = level >= cfg.poolHigh
          }
        } catch (e) {
          refuse(`txpool_status: ${(e as Error).message}`)
        }
        await sleep(cfg.pollMs - (performance.now() - t))
      }
    } finally {
      conn.close()
    }
  }
  const guarding = guard()

  const total = queues.reduce((n, q) => n + q.length, 0)
  let issued = 0
  let credit = 0
  let last = t0
  const perBatchMs = (cfg.batchSize * 1000) / cfg.ratePerSecond
  while (issued < total) {
    const now = performance.now()
    if (now >= end) break
    const step = now - last
    last = now
    if (paused) {
      pausedMs += Math.max(0, Math.min(now, windowEnd) - Math.max(now - step, windowStart))
    } else {
      credit = Math.min(credit + step / perBatchMs, lanes) // a stall catches up one batch a lane at most
      for (; credit >= 1 && issued < total; credit--, issued++) {
        const c = issued % lanes
        due[c]!++
        wake[c]?.()
      }
    }
    await sleep(1)
  }
  const ranOut = issued >= total && performance.now() < end
  offering = false
  const backlog = due.reduce((n, d) => n + d, 0) * cfg.batchSize // fell due, never sent: the node's intake was slower
  due.fill(0)
  for (const w of wake) w?.()
  await Promise.race([lanesDone, sleep(30_000)])
  await guarding
  for (const t of windowTimers) clearTimeout(t)
  const cpu = cpuWindow ?? process.cpuUsage(cpuAtWindow)
  const ms = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000
  return {
    signed,
    signMs,
    sent,
    accepted,
    acceptedInWindow,
    refused,
    errorSamples,
    pausedMs,
    poolPeak,
    batchP50Ms: quantile(batchMs, 0.5),
    batchP99Ms: quantile(batchMs, 0.99),
    ranOut,
    backlog,
    cpuWindowMs: ms(cpu),
    cpuMs: ms(process.cpuUsage(cpuAtGo)),
  }
}

runAsProbe(import.meta.url, send)
