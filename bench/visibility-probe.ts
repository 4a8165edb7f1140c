/**
 * Visibility probe: one OS process (apart from the orchestrator, like loadgen.ts) that sends signed
 * transactions at given moments and times, for each, the interval from the eth_sendRawTransaction answer
 * until it is seen through `pending` by ONE detector:
 *   - 'ws': an `eth_subscribe ["newFlashblockTransactions"]` subscription (a hash per pre-confirmed tx),
 *     opened before the first send;
 *   - 'receipt': a poller that every `pollMs` sends one JSON-RPC batch of eth_getTransactionReceipt for every
 *     answered-but-unseen hash (what a polling client sees; adds up to pollMs plus a round trip);
 *   - 'pending-block': a poller of eth_getBlockByNumber("pending", false), looking for the hashes in it; the
 *     same batch asks for "latest" too, since a transaction pre-confirmed in a block's last flashblock can
 *     be sealed before any poll sees it in the pending block (it is then in latest, not lost).
 * Sends follow the schedule given (the orchestrator draws Poisson gaps, so arrivals are independent of the
 * peer's tick phase) over a small pool of keep-alive raw sockets, each send its own request. After the last
 * send it waits up to `drainMs` for the rest; what is never seen is an error. Prints one JSON line.
 *   node --import tsx bench/visibility-probe.ts @config.json
 */

import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import WebSocket from 'ws'
import { buildRequest, RawConnection } from './raw-http.ts'
import { rpcBody } from './rpc.ts'

export type Detector = 'ws' | 'receipt' | 'pending-block'

export interface VisibilityConfig {
  url: string
  detector: Detector
  /** Raw transactions and their hashes, sent in order. */
  txs: { raw: string; hash: string }[]
  /** Send time of each transaction, in ms from the start (same length as txs). */
  sendAtMs: number[]
  pollMs: number
  drainMs: number
}

export interface VisibilityResult {
  /** Answer → seen, ms, for every transaction seen; negative when seen before its own answer arrived. */
  latenciesMs: number[]
  sent: number
  /** 'pending-block': first seen in the latest block, never in a pending block. */
  seenInLatest: number
  errors: number
  errorSamples: string[]
  cpuMs: number
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)))

export async function probe(cfg: VisibilityConfig): Promise<VisibilityResult> {
  const url = new URL(cfg.url)
  const port = Number(url.port)
  const answeredAt = new Map<string, number>()
  const seenAt = new Map<string, number>()
  const errorSamples: string[] = []
  let errors = 0
  const fail = (what: string): void => {
    errors++
    if (errorSamples.length < 3) errorSamples.push(what.slice(0, 300))
  }
  let seenInLatest = 0
  // Only its own transactions: under a load of other senders the subscription carries theirs too.
  const mine = new Set(cfg.txs.map((t) => t.hash.toLowerCase()))
  const see = (hash: string, at: number, inLatest = false): void => {
    if (seenAt.has(hash) || !mine.has(hash)) return
    seenAt.set(hash, at)
    if (inLatest) seenInLatest++
  }

  let ws: WebSocket | undefined
  if (cfg.detector === 'ws') {
    ws = new WebSocket(`ws://${url.host}/`)
    await new Promise<void>((resolve, reject) => {
      ws!.once('error', reject)
      ws!.once('open', () => ws!.send(rpcBody(1, 'eth_subscribe', ['newFlashblockTransactions'])))
      ws!.on('message', (data: Buffer) => {
        const at = performance.now()
        const m = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown; params?: { result?: unknown } }
        if (m.id === 1) return m.error === undefined ? resolve() : reject(new Error(`eth_subscribe answered ${JSON.stringify(m.error)}`))
        if (typeof m.params?.result === 'string') see(m.params.result.toLowerCase(), at)
      })
    })
  }

  let sending = true
  const outstanding = (): string[] => [...answeredAt.keys()].filter((h) => !seenAt.has(h))
  const poller = async (): Promise<void> => {
    const conn = new RawConnection(url.hostname, port, 10_000)
    try {
      while (sending || outstanding().length > 0) {
        const t = performance.now()
        const hashes = outstanding()
        if (cfg.detector === 'receipt' && hashes.length > 0) {
          const body = `[${hashes.map((h, i) => rpcBody(i, 'eth_getTransactionReceipt', [h])).join(',')}]`
          const reply = await conn.post(buildRequest(url, Buffer.from(body)))
          const at = performance.now()
          const items = JSON.parse(reply.text) as { id: number; result?: unknown; error?: unknown }[]
          for (const it of items) {
            if (it.error !== undefined) fail(`eth_getTransactionReceipt: ${JSON.stringify(it.error)}`)
            else if (it.result !== null && it.result !== undefined) see(hashes[it.id]!, at)
          }
        } else if (cfg.detector === 'pending-block' && hashes.length > 0) {
          const body = `[${rpcBody(0, 'eth_getBlockByNumber', ['pending', false])},${rpcBody(1, 'eth_getBlockByNumber', ['latest', false])}]`
          const reply = await conn.post(buildRequest(url, Buffer.from(body)))
          const at = performance.now()
          const items = JSON.parse(reply.text) as { id: number; result?: { transactions?: string[] } | null; error?: unknown }[]
          for (const m of items) {
            const tag = m.id === 0 ? 'pending' : 'latest'
            if (m.error !== undefined || m.result === null || m.result === undefined) fail(`eth_getBlockByNumber(${tag}): ${JSON.stringify(m)}`)
            else for (const h of m.result.transactions ?? []) if (answeredAt.has(h.toLowerCase())) see(h.toLowerCase(), at, tag === 'latest')
          }
        }
        await sleep(cfg.pollMs - (performance.now() - t))
      }
    } finally {
      conn.close()
    }
  }

  const idle: RawConnection[] = []
  const sendOne = async (tx: { raw: string; hash: string }): Promise<void> => {
    const conn = idle.pop() ?? new RawConnection(url.hostname, port, 10_000)
    try {
      const reply = await conn.post(buildRequest(url, Buffer.from(rpcBody(1, 'eth_sendRawTransaction', [tx.raw]))))
      const at = performance.now()
      const m = JSON.parse(reply.text) as { result?: unknown; error?: unknown }
      if (typeof m.result === 'string' && m.result.toLowerCase() === tx.hash.toLowerCase()) answeredAt.set(tx.hash.toLowerCase(), at)
      else fail(`eth_sendRawTransaction answered ${reply.text}`)
      idle.push(conn)
    } catch (e) {
      conn.close()
      fail(`eth_sendRawTransaction: ${(e as Error).message}`)
    }
  }

  const cpu0 = process.cpuUsage()
  const polling = cfg.detector === 'ws' ? Promise.resolve() : poller()
  const t0 = performance.now()
  const sends: Promise<void>[] = []
  for (let i = 0; i < cfg.txs.length; i++) {
    await sleep(t0 + cfg.sendAtMs[i]! - performance.now())
    sends.push(sendOne(cfg.txs[i]!))
  }
  await Promise.all(sends)
  const drainEnd = performance.now() + cfg.drainMs
  while (outstanding().length > 0 && performance.now() < drainEnd) await sleep(5)
  const unseen = outstanding()
  sending = false
  for (const h of unseen) answeredAt.delete(h) // stops the poller; they are errors
  await polling
  for (const h of unseen) fail(`${h} not visible through pending within ${cfg.drainMs} ms of the last send`)
  ws?.close()
  for (const c of idle) c.close()

  const latenciesMs: number[] = []
  for (const [h, answered] of answeredAt) {
    const seen = seenAt.get(h)
    if (seen !== undefined) latenciesMs.push(seen - answered)
  }
  const cpu = process.cpuUsage(cpu0)
  return { latenciesMs, sent: cfg.txs.length, seenInLatest, errors, errorSamples, cpuMs: (cpu.user + cpu.system) / 1000 }
}

async function main(): Promise<void> {
  const arg = process.argv[2]
  if (arg === undefined) throw new Error('usage: visibility-probe.ts <VisibilityConfig JSON | @file>')
  const cfg = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as VisibilityConfig
  process.stdout.write(`${JSON.stringify(await probe(cfg))}\n`)
  process.exit(0)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`visibility-probe: ${(e as Error).stack ?? String(e)}\n`)
    process.exit(2)
  })
}
