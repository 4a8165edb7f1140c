/**
 * The single-thread ceiling of the HTTP layer on this machine: bare servers (no JSON-RPC envelope, no
 * state) that read the body, JSON.parse it and answer a constant 32-byte-word result, driven by the same
 * load generator as the scenarios, one after the other:
 *   - node:http (IncomingMessage/ServerResponse), what the node served every request with before;
 *   - the fast lane (src/rpc/transport/http-fast-lane.ts: the socket parsed by http-parser-js, one write
 *     per answer), what plain JSON-RPC POSTs go through now.
 *   - the fast lane in two processes: this one and a child that shares its listening socket (the handle sent
 *     over IPC, as Node 20 lacks `reusePort`), each accepting connections and answering its own: what serving
 *     HTTP from more processes (reading one LMDB, following the feed) could add on this machine at best.
 * Not a scenario (there is nothing to compare with Anvil): it says how far per-request trimming inside one
 * Node process can go at all, what the transport itself costs, and what a second process adds.
 *
 *   npx tsx bench/http-ceiling.ts [--duration MS] [--concurrency N]
 */

import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { serveFastLane } from '../src/rpc/transport/http-fast-lane.ts'
import { DEFAULT_LIMITS } from '../src/rpc/transport/limits.ts'
import { runLoad } from './load.ts'

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '8' }, child: { type: 'boolean', default: false } },
})
const ANSWER = `{"jsonrpc":"2.0","id":1,"result":"0x${'00'.repeat(32)}"}`
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getStorageAt', params: [`0x${'0e'.repeat(20)}`, '0x0', 'latest'] })

const nodeHttp = (): Server =>
  createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(ANSWER) })
      res.end(ANSWER)
    })
  })

const fastLane = (): Server =>
  createTcpServer((socket) =>
    serveFastLane(socket, {
      takes: () => true,
      answer: async (body) => {
        JSON.parse(body)
        return { status: 200, body: ANSWER }
      },
      handOver: (s) => s.destroy(),
      idleTimeoutMs: DEFAULT_LIMITS.idleTimeoutMs,
      log: (message, err) => console.error(message, err),
    }),
  )

/** The child of the two-process row: serves the fast lane on the parent's listening socket, reports its CPU. */
function serveSharedSocket(): void {
  let started = process.cpuUsage()
  process.on('message', (message: string, handle: Server | undefined) => {
    if (message === 'listen' && handle !== undefined) {
      started = process.cpuUsage()
      const lane = fastLane()
      handle.on('connection', (socket) => lane.emit('connection', socket))
      process.send!('serving')
    } else if (message === 'cpu') {
      const cpu = process.cpuUsage(started)
      process.send!({ cpuUs: cpu.user + cpu.system }, () => process.exit(0))
    }
  })
}

/** Forks the child, hands it the server, and resolves once it serves; `stop` returns the child's CPU (µs). */
async function shareWithChild(server: Server): Promise<() => Promise<number>> {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'] })
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve())
    child.once('exit', (code) => reject(new Error(`the child exited with ${code}`)))
    child.send('listen', server)
  })
  return () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: { cpuUs: number }) => resolve(m.cpuUs))
      child.send('cpu')
    })
}

if (values.child === true) {
  serveSharedSocket()
} else {
  await measureAll()
}

async function measureAll(): Promise<void> {
  console.log(`$ npx tsx bench/http-ceiling.ts --duration ${values.duration} --concurrency ${values.concurrency}`)
  const rows = [['bare node:http, one thread', nodeHttp, false], ['bare fast lane, one thread', fastLane, false], ['bare fast lane, two processes', fastLane, true]] as const
  for (const [name, make, twoProcesses] of rows) {
    const server = make()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const stopChild = twoProcesses ? await shareWithChild(server) : undefined
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const load = await runLoad({ url, bodies: [BODY], concurrency: Number(values.concurrency), durationMs: Number(values.duration), warmupMs: 1000 })
    const cpu = process.cpuUsage(cpuBefore)
    const elapsedMs = performance.now() - started
    const cpuUs = cpu.user + cpu.system + (stopChild === undefined ? 0 : await stopChild())
    server.close()
    console.log(
      `${name}: ${Math.round(load.rps).toLocaleString('en-US')} req/s, p50 ${load.p50Ms.toFixed(2)} ms, ` +
        `p99 ${load.p99Ms.toFixed(2)} ms, server CPU ${((cpuUs / 1000 / elapsedMs) * 100).toFixed(0)}% of a core ` +
        `(${(cpuUs / (load.rps * (elapsedMs / 1000))).toFixed(1)} µs a request, warm-up included), ` +
        `generator CPU ${load.generatorCpuPct.toFixed(0)}%`,
    )
  }
}
