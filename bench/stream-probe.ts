/**
 * Stream probe: one OS process (apart from the orchestrator and the node) holding `subscribers` WebSocket
 * connections to the node's flashblock stream (`brotli` of them with `?compression=brotli`) and one
 * eth_subscribe("newFlashblockTransactions") connection, the node's own announcement of each pre-confirmed
 * transaction, taken as the flashblock's publication instant.
 *
 * All stream subscribers resume from one sequence (`?after=S`, S = the first message a scout subscriber
 * sees), so each receives the same messages in the same order and the i-th message of every subscriber is
 * the same one: a receive time is recorded per subscriber and message, nothing is parsed on arrival (text
 * without UTF-8 validation), so the probe's own cost per message stays small. Once every subscriber is
 * connected it prints `ready`; the orchestrator then sends transactions for `runMs`; the probe keeps
 * listening `drainMs` more, then parses what subscriber 0 (JSON) and the first Brotli subscriber received:
 * for every message with transactions, its delay over the announcement of its first transaction (per
 * subscriber), its size in JSON and in Brotli, and its transaction count. Prints one JSON line.
 *   node --import tsx bench/stream-probe.ts @config.json
 */

import { brotliDecompressSync } from 'node:zlib'
import { runAsProbe } from './probe-process.ts'
import WebSocket from 'ws'
import { keccak256, type Hex } from 'viem'

export interface StreamProbeConfig {
  /** The node's JSON-RPC URL (http://host:port). */
  url: string
  subscribers: number
  /** How many of `subscribers` ask for Brotli. */
  brotli: number
  runMs: number
  drainMs: number
}

export interface StreamProbeResult {
  /** Stream receive − announcement of the message's first transaction, ms, per JSON subscriber and message. */
  jsonDelaysMs: number[]
  brotliDelaysMs: number[]
  /** Per message with transactions: last subscriber's receive − first subscriber's receive, ms. */
  spreadsMs: number[]
  jsonBytes: number[]
  brotliBytes: number[]
  transactions: number[]
  messages: number
  errors: number
  errorSamples: string[]
  cpuMs: number
}

interface Payload {
  index: number
  diff: { transactions: Hex[]; block_hash: Hex }
  metadata: { sequence: number; block_number: number }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Connects with its message listener attached from the start (a message may come in the open's own turn). */
function open(url: string, onMessage: (data: Buffer) => void): Promise<WebSocket> {
  const ws = new WebSocket(url, { skipUTF8Validation: true, perMessageDeflate: false })
  ws.on('message', onMessage)
  return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('error', reject))
}

export async function probe(cfg: StreamProbeConfig): Promise<StreamProbeResult> {
  const cpu0 = process.cpuUsage()
  const wsBase = cfg.url.replace(/^http/, 'ws').replace(/\/$/, '')
  const errorSamples: string[] = []
  let errors = 0
  const fail = (what: string): void => {
    errors++
    if (errorSamples.length < 3) errorSamples.push(what.slice(0, 300))
  }

  const announced = new Map<string, number>()
  const rpcWs = await open(wsBase, (data) => {
    const at = performance.now()
    const m = JSON.parse(String(data)) as { params?: { result: string } }
    if (m.params !== undefined && !announced.has(m.params.result)) announced.set(m.params.result, at)
  })
  rpcWs.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions'] }))

  let first: (sequence: number) => void = () => undefined
  const after = new Promise<number>((resolve) => (first = resolve))
  const scout = await open(`${wsBase}/flashblocks`, (data) => first((JSON.parse(String(data)) as Payload).metadata.sequence))
  const resumeAfter = await after
  scout.terminate()

  const received: { at: number[]; data: Buffer[] }[] = []
  const sockets: WebSocket[] = []
  for (let i = 0; i < cfg.subscribers; i++) {
    const compressed = i >= cfg.subscribers - cfg.brotli
    const keep = i === 0 || i === cfg.subscribers - cfg.brotli
    const r = { at: [] as number[], data: [] as Buffer[] }
    received.push(r)
    const ws = await open(`${wsBase}/flashblocks?after=${resumeAfter}${compressed ? '&compression=brotli' : ''}`, (data) => {
      r.at.push(performance.now())
      if (keep) r.data.push(data)
    })
    ws.on('close', (code, reason) => {
      if (code !== 1000 && code !== 1005) fail(`subscriber ${i} closed ${code} ${String(reason)}`)
    })
    ws.on('error', (e) => fail(`subscriber ${i}: ${e.message}`))
    sockets.push(ws)
  }
  process.stdout.write('ready\n')
  await sleep(cfg.runMs + cfg.drainMs)
  for (const ws of sockets) ws.removeAllListeners('close')
  for (const ws of [...sockets, rpcWs]) ws.terminate()
  const cpu = process.cpuUsage(cpu0)

  const json = received[0]!
  const br = cfg.brotli > 0 ? received[cfg.subscribers - cfg.brotli]! : undefined
  const out: StreamProbeResult = {
    jsonDelaysMs: [], brotliDelaysMs: [], spreadsMs: [], jsonBytes: [], brotliBytes: [], transactions: [],
    messages: json.data.length, errors, errorSamples, cpuMs: 0,
  }
  for (const [i, data] of json.data.entries()) {
    const p = JSON.parse(data.toString('utf8')) as Payload
    if (p.diff.transactions.length === 0) continue
    const at = announced.get(keccak256(p.diff.transactions[0]!))
    if (at === undefined) {
      fail(`message ${p.metadata.sequence}: its first transaction was never announced`)
      continue
    }
    if (br !== undefined) {
      const compressed = br.data[i]
      const got = compressed === undefined ? undefined : (JSON.parse(brotliDecompressSync(compressed).toString('utf8')) as Payload).metadata.sequence
      if (got !== p.metadata.sequence) {
        fail(`message ${p.metadata.sequence}: the Brotli subscriber's message at that place was ${got ?? 'none'}`)
      } else out.brotliBytes.push(compressed!.length)
    }
    out.jsonBytes.push(data.length)
    out.transactions.push(p.diff.transactions.length)
    const times: number[] = []
    for (const [s, r] of received.entries()) {
      const t = r.at[i]
      if (t === undefined) {
        fail(`subscriber ${s} never got message ${p.metadata.sequence}`)
        continue
      }
      times.push(t)
      ;(br !== undefined && s >= cfg.subscribers - cfg.brotli ? out.brotliDelaysMs : out.jsonDelaysMs).push(t - at)
    }
    out.spreadsMs.push(Math.max(...times) - Math.min(...times))
  }
  out.errors = errors
  out.cpuMs = (cpu.user + cpu.system) / 1000
  return out
}

runAsProbe(import.meta.url, probe)
