/**
 * Bytes the node's main thread allocates per accepted eth_sendRawTransaction, and where: an allocation profile
 * of the main thread over the `send` load (bench/send-threads.ts's load, steady state: 5,120 transactions sent
 * first, untimed), taken through the inspector (HeapProfiler.startSampling, counting objects that minor and
 * major collections already freed, so the figure is everything allocated, not what survived). Allocation per
 * transaction does not depend on how busy the machine is, unlike time.
 *   npx tsx bench/send-alloc.ts [--intake] [--checkout DIR] [--top 30] [--live] [--args="flashnode start options"]
 * `--live`: only what is still alive when the window ends (what the window's sends left in the heap), by the
 * function that allocated it.
 * Prints the total per accepted transaction, then the functions that allocated most (self bytes, with their
 * caller), per transaction. The recovery workers are not profiled here (their CPU is in send-threads.ts).
 */

import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { runLoad } from './load.ts'
import { freePort } from './nodes.ts'
import { startSendFixture } from './send-fixture.ts'

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    args: { type: 'string', default: '' },
    duration: { type: 'string', default: '5000' },
    top: { type: 'string', default: '30' },
    live: { type: 'boolean', default: false },
    intake: { type: 'boolean', default: false },
  },
})
// --intake: as bench/send-threads.ts --intake (manual sealing: HTTP, recovery and admission alone; 1,024
// senders, 2,048 sends first, then 4,000 profiled): the figure does not move with the rate reached.
const INTAKE = values.intake === true

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number }
  selfSize: number
  children: SamplingNode[]
}

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspector(port: number): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[]
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl, { maxPayload: 1 << 30 })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let nextId = 1
  const waiting = new Map<number, (result: unknown) => void>()
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown }
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result)
  })
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = nextId++
        waiting.set(id, resolve)
        ws.send(JSON.stringify({ id, method, params }))
      }),
    close: () => ws.close(),
  }
}

const inspectPort = await freePort()
process.env['BENCH_FLASHNODE_NODE_ARGS'] = `${process.env['BENCH_FLASHNODE_NODE_ARGS'] ?? ''} --inspect=127.0.0.1:${inspectPort}`
const fixture = await startSendFixture('send-alloc', INTAKE, values.checkout!, values.args!)
const { bodies, node } = fixture
const WARM_TXS = fixture.warmTxs
try {
  try {
    await runLoad({ url: node.url, bodies: bodies.slice(0, WARM_TXS), concurrency: 64, durationMs: 120_000, warmupMs: 0, once: true, client: 'raw' })
    const session = await inspector(inspectPort)
    await session.send('HeapProfiler.enable')
    await session.send('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: !values.live, includeObjectsCollectedByMinorGC: !values.live })
    const result = await runLoad({ url: node.url, bodies: bodies.slice(WARM_TXS), concurrency: 64, durationMs: INTAKE ? 120_000 : Number(values.duration), warmupMs: 0, once: true, client: 'raw' })
    const { profile } = (await session.send('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } }
    session.close()
    const accepted = result.requests - result.errors
    const bySite = new Map<string, number>()
    let total = 0
    const walk = (n: SamplingNode, caller: string): void => {
      const f = n.callFrame
      const here = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`
      if (n.selfSize > 0) {
        const key = `${here}  ← ${caller}`
        bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize)
        total += n.selfSize
      }
      for (const c of n.children) walk(c, here)
    }
    walk(profile.head, '')
    console.log(`$ npx tsx bench/send-alloc.ts ${process.argv.slice(2).join(' ')}`)
    console.log(`${accepted} accepted (${result.errors} errors), ${result.rps.toFixed(0)} tx/s; main thread ${values.live ? 'holds, of what the window allocated,' : 'allocated'} ${(total / accepted).toFixed(0)} bytes per accepted transaction`)
    for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
      console.log(`  ${(bytes / accepted).toFixed(0).padStart(6)} B/tx  ${site}`)
    }
  } finally {
    await node.stop()
  }
} finally {
  fixture.remove()
}
