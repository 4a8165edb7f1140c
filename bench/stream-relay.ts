/**
 * The stream's floor on this machine: a bare WebSocket fan-out, its own OS process, that does nothing but
 * relay the node's flashblock stream. It subscribes to the node's `/flashblocks` once; on each message it
 * reads the sequence and the first transaction's hash, announces that hash to its eth_subscribe clients (as
 * the node announces a pre-confirmation), then sends the same bytes, unchanged, to each of its stream
 * subscribers: the least any server must do to get these bytes to these subscribers after an announcement.
 * The stream probe (stream-probe.ts) measures it exactly as it measures the node, so the bench can show how
 * much of the node's figure is the machine's own loopback fan-out and how much is the node's.
 *
 * It speaks only what the probe uses: `/` takes an eth_subscribe request and sends announcements;
 * `/flashblocks?after=S` sends every relayed message after sequence S, then live ones (JSON only).
 *   node --import tsx bench/stream-relay.ts @config.json   (prints `ready`, then `{}` when it ends)
 */

import { readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'
import { keccak256, type Hex } from 'viem'

export interface StreamRelayConfig {
  /** The node's JSON-RPC URL (http://host:port). */
  upstream: string
  /** Where the relay writes its port. */
  portFile: string
  /** It exits after this long. */
  lifetimeMs: number
}

interface Relayed {
  sequence: number
  data: Buffer
}

const cfg = JSON.parse(readFileSync((process.argv[2] ?? '').slice(1), 'utf8')) as StreamRelayConfig
const relayed: Relayed[] = []
const announcees = new Set<WebSocket>()
const subscribers = new Map<WebSocket, number>()

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
server.on('connection', (ws, req) => {
  ws.on('error', () => undefined)
  const url = new URL(req.url ?? '/', 'http://relay')
  if (url.pathname === '/flashblocks') {
    const after = url.searchParams.get('after')
    const from = after === null ? (relayed.at(-1)?.sequence ?? 0) - 1 : Number(after)
    for (const m of relayed) if (m.sequence > from) ws.send(m.data)
    subscribers.set(ws, from)
    ws.on('close', () => subscribers.delete(ws))
    return
  }
  ws.on('message', (data) => {
    const { id } = JSON.parse(String(data)) as { id: number }
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }))
    announcees.add(ws)
  })
  ws.on('close', () => announcees.delete(ws))
})
await new Promise<void>((resolve) => server.once('listening', resolve))

const upstream = new WebSocket(`${cfg.upstream.replace(/^http/, 'ws').replace(/\/$/, '')}/flashblocks`, { perMessageDeflate: false })
upstream.on('message', (data: Buffer) => {
  const message = JSON.parse(data.toString('utf8')) as { diff: { transactions: Hex[] }; metadata: { sequence: number } }
  const first = message.diff.transactions[0]
  if (first !== undefined) {
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0x1', result: keccak256(first) } })
    for (const ws of announcees) ws.send(note)
  }
  relayed.push({ sequence: message.metadata.sequence, data })
  for (const [ws, from] of subscribers) if (message.metadata.sequence > from) ws.send(data)
})
await new Promise<void>((resolve, reject) => upstream.once('open', resolve).once('error', reject))

writeFileSync(cfg.portFile, String((server.address() as AddressInfo).port))
process.stdout.write('ready\n')
setTimeout(() => {
  upstream.terminate()
  for (const ws of server.clients) ws.terminate()
  server.close()
  process.stdout.write('{}\n')
  process.exit(0)
}, cfg.lifetimeMs)
