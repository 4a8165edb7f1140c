import { randomBytes } from 'node:crypto'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { launchNatsCluster } from '../test/support/nats-cluster.ts'
import { ensureStream, FencedPublisher } from '../src/stream/fenced-publisher.ts'
import { streamConfig, streamName, subjectOf } from '../src/stream/jetstream-layout.ts'
const chainId = 903n
const cluster = await launchNatsCluster()
const nc0 = await connect({ servers: [...cluster.urls] })
await ensureStream(nc0, streamConfig(chainId, 3), 10_000)
const jsm = await jetstreamManager(nc0)
const info = await jsm.streams.info(streamName(chainId))
console.log('leader', info.cluster?.leader)
const data = randomBytes(Number(process.argv[2] ?? 60000))
let id = 0
for (let round = 0; round < 2; round++) for (const url of cluster.urls) {
  const nc = await connect({ servers: url })
  const name = nc.info?.server_name
  const pub = new FencedPublisher(nc, { stream: streamName(chainId), subject: subjectOf(chainId), term: 1, ackTimeoutMs: 2_000 })
  let last = await pub.lastSequence()
  const ms: number[] = []
  for (let i = 0; i < 350; i++) {
    const s = performance.now()
    last = await pub.publish(data, { expectedLastSequence: last, id: String(id++) })
    if (i >= 50) ms.push(performance.now() - s)
    await new Promise((r) => setTimeout(r, 2))
  }
  ms.sort((a, b) => a - b)
  console.log(name, name === info.cluster?.leader ? 'LEADER' : '      ', 'p50', ms[150]!.toFixed(2), 'p90', ms[270]!.toFixed(2), 'p99', ms[297]!.toFixed(2))
  await nc.close()
}
await nc0.close()
await cluster.dispose()
