/**
 * The single-thread ceiling of node:http on this machine: a bare server (no framework, no JSON-RPC
 * envelope, no state) that reads the body, JSON.parses it and answers a constant 32-byte-word result,
 * driven by the same load generator as the scenarios. Not a scenario (there is nothing to compare): it
 * says how far per-request trimming inside one Node process can go at all, next to Anvil's figures.
 *
 *   npx tsx bench/http-ceiling.ts [--duration MS] [--concurrency N]
 */

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { runLoad } from './load.ts'

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '8' } },
})
const ANSWER = `{"jsonrpc":"2.0","id":1,"result":"0x${'00'.repeat(32)}"}`

const server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'))
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(ANSWER) })
    res.end(ANSWER)
  })
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getStorageAt', params: [`0x${'0e'.repeat(20)}`, '0x0', 'latest'] })
const cpuBefore = process.cpuUsage()
const started = performance.now()
const load = await runLoad({ url, bodies: [body], concurrency: Number(values.concurrency), durationMs: Number(values.duration), warmupMs: 1000 })
const cpu = process.cpuUsage(cpuBefore)
const serverCpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - started)) * 100
server.close()
console.log(`$ npx tsx bench/http-ceiling.ts --duration ${values.duration} --concurrency ${values.concurrency}`)
console.log(
  `bare node:http, one thread: ${Math.round(load.rps).toLocaleString('en-US')} req/s, p50 ${load.p50Ms.toFixed(2)} ms, ` +
    `p99 ${load.p99Ms.toFixed(2)} ms, server CPU ${serverCpuPct.toFixed(0)}% of a core (incl. idle wait), ` +
    `generator CPU ${load.generatorCpuPct.toFixed(0)}%`,
)
