/**
 * Issue 42, the call path: CPU and allocated bytes per pooled ERC-20 transfer on a sequencer's main thread,
 * two checkouts alternately in one process (each from its TypeScript sources through tsx, workers too).
 * Per round and side: N ERC-20 transfers sent over HTTP (admission: worker preparation, pool), the event
 * loop drained (idle warming of library objects, where the side does it), then `sequencer.flashblock()`, then
 * the block sealed (untimed). Figures:
 *  - flashblock CPU: process.cpuUsage across `flashblock()` (the workers idle then), µs per transaction;
 *  - main-thread CPU from the first send to the flashblock's end (admission's main-thread share, idle
 *    warming, the flashblock), from /proc/self/task/<pid>/stat ticks, µs per transaction;
 *  - with ALLOC=1: bytes the main thread allocates over the same window (sampling heap profiler, objects
 *    collected by minor and major GC included), per transaction, and the library transaction's share.
 * Each node has 2 admission (recovery) workers (WORKERS=n: n), as the CLI gives a machine of more than one core; a
 * manual-sealing sequencer on the flashblock-build scenario's chain (genesis.ts, 256 senders, 200M gas).
 *   npx tsx bench/callpath-paired.ts BEFORE_DIR AFTER_DIR [rounds=20] [n=500]
 * BEFORE_DIR and AFTER_DIR: checkouts with node_modules (e.g. `git worktree add --detach DIR COMMIT` and a
 * symlink to this repo's node_modules).
 */

import { readFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { buildBenchGenesis } from './genesis.ts'
import { modulesOf, startInProcess } from './in-process-node.ts'
import type { RunningNode } from './nodes.ts'
import { NonceBook, quantile, sendAll, TxFactory } from './txs.ts'

const [beforeDir, afterDir] = [process.argv[2]!, process.argv[3]!]
const ROUNDS = Number(process.argv[4] ?? 20)
const N = Number(process.argv[5] ?? 500)
const WARMUP = 3
const ALLOC = process.env['ALLOC'] === '1'
const WORKERS = Number(process.env['WORKERS'] ?? 2)
const TICK_US = 1_000_000 / 100 // CLK_TCK

function mainThreadTicks(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime, stime (fields 14, 15 of the full line)
}

const drain = async (): Promise<void> => {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r))
}

interface Side {
  readonly name: string
  readonly node: { sequencer?: { flashblock(): Promise<{ transactions: unknown[] }>; seal(): Promise<unknown> }; close(): Promise<void> }
  readonly url: string
  readonly key: RunningNode
  close(): Promise<void>
}

async function start(name: string, dir: string, genesis: unknown): Promise<Side> {
  return { name, ...(await startInProcess<Side['node']>(await modulesOf(dir), genesis, `callpath-${name}`, { recoveryWorkers: WORKERS })) }
}

interface ProfileNode { callFrame: { functionName: string; url: string }; selfSize: number; children?: ProfileNode[] }

const session = new Session()
session.connect()
const post = <T>(method: string, params: object = {}): Promise<T> =>
  new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))))

const LIBRARY = /FeeMarket1559Tx|create1559FeeMarketTxFromBytesArray|sharedConstructor|createLegacyTx|AccessList2930Tx|libraryTx/

function sumProfile(node: ProfileNode, underLibrary: boolean, acc: { total: number; library: number }): void {
  const lib = underLibrary || LIBRARY.test(node.callFrame.functionName)
  acc.total += node.selfSize
  if (lib) acc.library += node.selfSize
  for (const c of node.children ?? []) sumProfile(c, lib, acc)
}

async function main(): Promise<void> {
  const chain = buildBenchGenesis({ accounts: 256, gasLimit: 200_000_000n })
  const factory = new TxFactory(chain.chainId, chain.token, 256)
  const nonces = new NonceBook()
  const sides = [await start('before', beforeDir, chain.genesis), await start('after', afterDir, chain.genesis)]
  const figures = new Map(sides.map((s) => [s.name, { flash: [] as number[], main: [] as number[], bytes: [] as number[], library: [] as number[] }]))
  if (ALLOC) await post('HeapProfiler.enable')
  try {
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
        const txs = factory.batch('erc20', N, nonces, s.key)
        await drain()
        if (ALLOC) await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
        const ticks0 = mainThreadTicks()
        await sendAll(s.url, txs)
        await drain()
        const cpu0 = process.cpuUsage()
        const snapshot = await s.node.sequencer!.flashblock()
        const cpu = process.cpuUsage(cpu0)
        const ticks = mainThreadTicks() - ticks0
        let alloc = { total: 0, library: 0 }
        if (ALLOC) {
          const { profile } = await post<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling')
          sumProfile(profile.head, false, alloc)
        }
        await s.node.sequencer!.seal()
        if (snapshot.transactions.length < N) throw new Error(`${s.name}: a flashblock of ${snapshot.transactions.length}, ${N} pooled`)
        if (round < WARMUP) continue
        const f = figures.get(s.name)!
        f.flash.push((cpu.user + cpu.system) / N)
        f.main.push((ticks * TICK_US) / N)
        f.bytes.push(alloc.total / N)
        f.library.push(alloc.library / N)
      }
    }
  } finally {
    for (const s of sides) await s.close()
  }
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length
  console.log(`${ROUNDS} rounds of ${N} ERC-20 transfers per side after ${WARMUP} warm-up rounds, alternating; ${WORKERS} recovery workers`)
  for (const [name, f] of figures) {
    console.log(
      `${name}: flashblock CPU p50 ${quantile(f.flash, 0.5).toFixed(1)} µs/tx (mean ${mean(f.flash).toFixed(1)}); main thread send..flashblock mean ${mean(f.main).toFixed(1)} µs/tx` +
        (ALLOC ? `; allocated mean ${(mean(f.bytes) / 1024).toFixed(2)} KiB/tx, library tx objects ${(mean(f.library) / 1024).toFixed(2)} KiB/tx` : ''),
    )
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e)
    process.exit(1)
  },
)
