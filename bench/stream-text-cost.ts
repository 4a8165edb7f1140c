/**
 * What building one flashblock stream message costs the sequencer's main thread, old way against new: CPU
 * time (process.cpuUsage) and bytes allocated (an in-process allocation profile, HeapProfiler sampling that
 * counts what minor and major collections already freed) per message. Neither depends on how busy the
 * machine is.
 *   npx tsx bench/stream-text-cost.ts [--flashblocks 10] [--txs 1000] [--passes 20]
 * A sequencer in this process (manual sealing) builds `--flashblocks` flashblocks of `--txs` ERC-20 transfers
 * each (bench genesis, one sender per transfer) and a seal; its feed events are recorded, then replayed
 * `--passes` times through each builder:
 * - old: test/support/reference-message-builder.ts (the payload object tree, each receipt's bloom hashed
 *   again) + JSON.stringify + Buffer.from, as src/stream/publisher.ts did;
 * - new: src/stream/message-builder.ts (the JSON bytes written directly, the builder's receipt blooms ORed).
 * The two alternate pass by pass. Both produce the same bytes (checked on the first pass). `--only new|old`
 * replays one of them only, for a CPU profile (node --cpu-prof) of that one.
 */

import { Session } from 'node:inspector/promises'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildBenchGenesis } from './genesis.ts'
import { TxFactory } from './txs.ts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../src/node/create-node.ts'
import { ManualScheduler } from '../src/sequencer/scheduler.ts'
import { hexToBytes } from '../src/primitives/hex.ts'
import type { GethGenesis } from '../src/execution/chain-config.ts'
import type { PreconfirmedSnapshot } from '../src/preconf/snapshot.ts'
import type { SealedBlock } from '../src/preconf/feed.ts'
import { MessageBuilder } from '../src/stream/message-builder.ts'
import { ReferenceMessageBuilder } from '../test/support/reference-message-builder.ts'

const { values } = parseArgs({ options: { flashblocks: { type: 'string', default: '10' }, txs: { type: 'string', default: '1000' }, passes: { type: 'string', default: '20' }, only: { type: 'string' } } })
const FLASHBLOCKS = Number(values.flashblocks)
const TXS = Number(values.txs)
const PASSES = Number(values.passes)

type Event = { kind: 'flashblock'; snapshot: PreconfirmedSnapshot } | { kind: 'sealed'; block: SealedBlock }

async function recordEvents(): Promise<Event[]> {
  const chain = buildBenchGenesis({ accounts: TXS, gasLimit: 2_000_000_000n })
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-stream-text-'))
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: dir,
    genesis: chain.genesis as unknown as GethGenesis,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  try {
    const events: Event[] = []
    node.feed!.on('flashblock', (snapshot) => events.push({ kind: 'flashblock', snapshot }))
    node.feed!.on('sealed', (block) => events.push({ kind: 'sealed', block }))
    await node.start()
    const txs = new TxFactory(chain.chainId, chain.token, TXS).batch('erc20', TXS * FLASHBLOCKS, undefined, undefined)
    for (let f = 0; f < FLASHBLOCKS; f++) {
      for (const t of txs.slice(f * TXS, (f + 1) * TXS)) await node.api.sendRawTransaction(hexToBytes(t.raw))
      await node.sequencer!.flashblock()
    }
    await node.sequencer!.seal()
    const withTxs = events.filter((e) => e.kind === 'flashblock' && e.snapshot.transactions.length > e.snapshot.firstNew)
    console.log(`recorded ${events.length} feed events; ${withTxs.length} flashblocks with transactions (${withTxs.map((e) => (e.kind === 'flashblock' ? e.snapshot.transactions.length - e.snapshot.firstNew : 0)).join(', ')})`)
    return events
  } finally {
    await node.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const oldWay = (events: readonly Event[]): Buffer[] => {
  let s = 1
  const b = new ReferenceMessageBuilder(() => s++)
  return events.map((e) => Buffer.from(JSON.stringify((e.kind === 'flashblock' ? b.flashblock(e.snapshot) : b.sealed(e.block)).payload), 'utf8'))
}
const newWay = (events: readonly Event[]): Buffer[] => {
  let s = 1
  const b = new MessageBuilder(() => s++)
  return events.map((e) => (e.kind === 'flashblock' ? b.flashblock(e.snapshot) : b.sealed(e.block)).json)
}

interface SamplingNode {
  selfSize: number
  children: SamplingNode[]
}
const totalBytes = (n: SamplingNode): number => n.children.reduce((sum, c) => sum + totalBytes(c), n.selfSize)

const way0 = { old: oldWay, new: newWay }
const events = await recordEvents()
const a = oldWay(events)
const b = newWay(events)
if (a.length !== b.length || a.some((x, i) => !x.equals(b[i]!))) throw new Error('the two builders disagree')
const bytes = a.reduce((sum, x) => sum + x.length, 0)
console.log(`${events.length} messages per pass, ${(bytes / events.length / 1024).toFixed(1)} KiB of JSON each on average`)

if (values.only === 'old' || values.only === 'new') {
  for (let p = 0; p < PASSES; p++) way0[values.only](events)
  process.exit(0)
}
const session = new Session()
session.connect()
const cpu = { old: 0, new: 0 }
const alloc = { old: 0, new: 0 }
const way = { old: oldWay, new: newWay }
for (let p = 0; p < PASSES; p++) {
  for (const name of p % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
    globalThis.gc?.()
    const start = process.cpuUsage()
    way[name](events)
    const used = process.cpuUsage(start)
    cpu[name] += used.user + used.system
  }
}
for (const name of ['old', 'new'] as const) {
  await session.post('HeapProfiler.enable')
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  for (let p = 0; p < 3; p++) way[name](events)
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } }
  alloc[name] = totalBytes(profile.head) / 3
}
session.disconnect()
const messages = events.length * PASSES
console.log(`$ npx tsx bench/stream-text-cost.ts ${process.argv.slice(2).join(' ')}`)
for (const name of ['old', 'new'] as const) {
  console.log(`${name}: ${(cpu[name] / messages / 1000).toFixed(3)} ms CPU per message (${(cpu[name] / PASSES / 1000).toFixed(1)} ms per pass of ${events.length}), ${(alloc[name] / events.length / 1024).toFixed(0)} KiB allocated per message`)
}
console.log(`new/old: CPU ${(cpu.new / cpu.old).toFixed(3)}, allocated ${(alloc.new / alloc.old).toFixed(3)}`)
