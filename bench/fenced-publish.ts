/**
 * Publish-with-acknowledgement latency of the fenced publish (src/stream/fenced-publisher.ts) into an R=3
 * flashblock stream on a loopback three-server JetStream cluster (test/support/nats-cluster.ts): one publish
 * at a time, each expecting the sequence before it, as a leader publishes flashblocks. Prints p50/p99/max.
 * Not a test: `npx tsx bench/fenced-publish.ts [COUNT] [BYTES]` (defaults 500 and 2048).
 */

import { randomBytes } from 'node:crypto'
import { connect } from '@nats-io/transport-node'
import { launchNatsCluster } from '../test/support/nats-cluster.ts'
import { ensureStream, FencedPublisher } from '../src/stream/fenced-publisher.ts'
import { streamConfig, streamName, subjectOf } from '../src/stream/jetstream-layout.ts'

const count = Number(process.argv[2] ?? 500)
const size = Number(process.argv[3] ?? 2048)
const WARMUP = 50
const chainId = 903n

const cluster = await launchNatsCluster()
try {
  const nc = await connect({ servers: [...cluster.urls] })
  await ensureStream(nc, streamConfig(chainId, 3), 10_000)
  const pub = new FencedPublisher(nc, { stream: streamName(chainId), subject: subjectOf(chainId), term: 1, ackTimeoutMs: 2_000 })
  const data = randomBytes(size)
  let last = await pub.lastSequence()
  const ms: number[] = []
  for (let i = 0; i < WARMUP + count; i++) {
    const start = performance.now()
    last = await pub.publish(data, { expectedLastSequence: last, id: String(i) })
    if (i >= WARMUP) ms.push(performance.now() - start)
  }
  ms.sort((a, b) => a - b)
  const q = (p: number): string => ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)]!.toFixed(2)
  console.log(`fenced publish, R=3 loopback cluster, ${count} x ${size} B (after ${WARMUP} warm-up): p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${ms.at(-1)!.toFixed(2)} ms`)
  await nc.close()
} finally {
  await cluster.dispose()
}
