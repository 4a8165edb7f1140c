/**
 * What "replicated before announced" (issue 40) costs a pre-confirmation: side by side, a single sequencer
 * (no gate) and a sequencer gated by the replicated stream (src/stream/replicated-stream.ts) on a loopback
 * three-server JetStream cluster, R=3 (test/support/nats-cluster.ts). Both are manual-sealing nodes in this
 * process on the dev chain; each flashblock carries one distinct transfer (the next nonce), and the figure is
 * a flashblock's build-to-announce time: from `sequencer.flashblock()` called to the feed's `flashblock`
 * event (pool, execution, journal write and, gated, the message built and its fenced publish acknowledged).
 * The two sides alternate flashblock by flashblock, so both see the same machine; a block is sealed every
 * 10 flashblocks (its seal not measured). Prints p50/p99 of each side and the difference.
 * Not a test:
 *   npx tsx bench/replicated-preconf.ts [--flashblocks 500] [--warmup 50] [--single-only]
 * `--single-only` measures the single sequencer alone (no broker), for comparing checkouts.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../src/node/create-node.ts'
import { ManualScheduler } from '../src/sequencer/scheduler.ts'
import { ACCOUNTS, signedTx, testGenesis } from '../test/support/dev-chain.ts'

const { values } = parseArgs({ options: { flashblocks: { type: 'string', default: '500' }, warmup: { type: 'string', default: '50' }, 'single-only': { type: 'boolean', default: false } } })
const COUNT = Number(values.flashblocks)
const WARMUP = Number(values.warmup)
const PER_BLOCK = 10

interface Side {
  readonly name: string
  readonly node: FlashNode
  readonly ms: number[]
  nonce: bigint
  announcedAt: number
}

async function sideNode(dir: string): Promise<FlashNode> {
  return createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: mkdtempSync(join(dir, 'node-')),
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
}

function side(name: string, node: FlashNode): Side {
  const s: Side = { name, node, ms: [], nonce: 0n, announcedAt: 0 }
  node.sequencer!.on('flashblock', () => (s.announcedAt = performance.now()))
  return s
}

/** One flashblock with one new transfer; its build-to-announce time in ms. */
async function step(s: Side, i: number): Promise<void> {
  const tx = signedTx(s.node, 0, s.nonce++, { to: ACCOUNTS[3]!.address, value: BigInt(i + 1), gasLimit: 21_000n })
  await s.node.api.sendRawTransaction(tx.serialize())
  const started = performance.now()
  await s.node.sequencer!.flashblock()
  if (i >= WARMUP) s.ms.push(s.announcedAt - started)
  if ((i + 1) % PER_BLOCK === 0) await s.node.sequencer!.seal()
}

const q = (ms: readonly number[], p: number): number => {
  const sorted = [...ms].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
}

const dir = mkdtempSync(join(tmpdir(), 'flashnode-replicated-bench-'))
const closers: (() => Promise<void>)[] = []
try {
  const sides: Side[] = []
  const single = await sideNode(dir)
  closers.push(() => single.close())
  await single.start()
  sides.push(side('single sequencer', single))
  if (!values['single-only']) {
    const [{ launchNatsCluster }, { connect }, { ReplicatedStream }] = await Promise.all([
      import('../test/support/nats-cluster.ts'),
      import('@nats-io/transport-node'),
      import('../src/stream/replicated-stream.ts'),
    ])
    const cluster = await launchNatsCluster()
    closers.push(() => cluster.dispose())
    const nc = await connect({ servers: [...cluster.urls] })
    closers.unshift(() => nc.close())
    const gated = await sideNode(dir)
    closers.unshift(() => gated.close())
    const gate = await ReplicatedStream.open(nc, { chainId: gated.rules.chainId, term: 1, publisher: gated.stream!, replicas: 3, ackTimeoutMs: 2_000, unavailableAfterMs: 5_000 })
    gated.sequencer!.useGate(gate)
    await gated.start()
    sides.push(side('gated, R=3 loopback cluster', gated))
  }
  for (let i = 0; i < WARMUP + COUNT; i++) for (const s of sides) await step(s, i)
  console.log(`build-to-announce of a flashblock with one new transfer, ${COUNT} flashblocks per side (after ${WARMUP}), sides alternating:`)
  for (const s of sides) console.log(`  ${s.name.padEnd(30)} p50 ${q(s.ms, 0.5).toFixed(2)} ms  p99 ${q(s.ms, 0.99).toFixed(2)} ms  max ${Math.max(...s.ms).toFixed(2)} ms`)
  if (sides.length === 2) {
    const [a, b] = sides as [Side, Side]
    console.log(`  ${'difference (replication)'.padEnd(30)} p50 ${(q(b.ms, 0.5) - q(a.ms, 0.5)).toFixed(2)} ms  p99 ${(q(b.ms, 0.99) - q(a.ms, 0.99)).toFixed(2)} ms   (goal: <= 3 ms p50, <= 10 ms p99)`)
  }
} finally {
  for (const close of closers) await close().catch(() => undefined)
  rmSync(dir, { recursive: true, force: true })
}
