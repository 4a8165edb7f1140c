/**
 * Micro-benchmark (issue 42): what a seal waits for its transactions and receipts roots, with blocks of
 * 15,000 ETH transfers built flashblock by flashblock (10 of 1,500) by a sequencer in manual mode, its roots
 * on a loaded seal-hashing worker either hashed whole at the seal (`whole`: OpenOptions.orderedRoots, as
 * before) or fed to the worker as the block grows (`fed`: OpenOptions.rootsFeed).
 *
 * Per block it reports: the roots wait (wall ms from the seal's call to its answer; on a shared machine a
 * ceiling), the worker's own ms on the seal's request (load-independent but for CPU contention), the seal's
 * wall ms (the sequencer's observer), and CPU ms of the block's build and seal: the whole process's
 * (process.cpuUsage, every thread) and the main thread's (/proc ticks of 10 ms).
 * Run: `nice npx tsx bench/seal-roots.ts whole` and `… fed` (BLOCKS=3 by default, after one warm-up block).
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { createNode, DEFAULT_NODE_SETTINGS, type NodeConfig } from '../src/node/create-node.ts'
import { SealHashing } from '../src/node/seal-hashing/seal-hashing.ts'
import { Sequencer, type CandidateIterator, type PoolCandidate, type SequencerPool } from '../src/sequencer/sequencer.ts'
import { ManualScheduler } from '../src/sequencer/scheduler.ts'
import type { OpenOptions, RootsFeed } from '../src/execution/block-builder.ts'
import { hexToBytes } from '../src/primitives/hex.ts'
import { buildBenchGenesis } from './genesis.ts'
import { TxFactory } from './txs.ts'

const MODE = process.argv[2] === 'whole' ? 'whole' : 'fed'
const BLOCKS = Number(process.env.BLOCKS ?? 3)
const PER_BLOCK = 15_000
const FLASHBLOCKS = 10
const SENDERS = 1_000

/** The main thread's CPU ms (utime + stime of its /proc task, 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const processCpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

class ListPool implements SequencerPool {
  txs: PoolCandidate[] = []
  candidates(): CandidateIterator {
    let i = 0
    return { next: () => this.txs[i++], skipSender: () => undefined }
  }
  included(_b: unknown, hashes: readonly Uint8Array[]): void {
    this.txs = this.txs.slice(hashes.length)
  }
  drop(): void {}
  stateChanged(): void {}
}

async function main(): Promise<void> {
  const chain = buildBenchGenesis({ accounts: SENDERS, gasLimit: 400_000_000n })
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const total = (BLOCKS + 1) * PER_BLOCK
  process.stderr.write(`signing ${total} transfers…\n`)
  const signed = factory.batch('eth', total, undefined, undefined)
  const senders = chain.accounts.map((a) => hexToBytes(a.address))
  const dataDir = mkdtempSync(join(tmpdir(), 'flashnode-seal-roots-'))
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: chain.genesis as unknown as NodeConfig['genesis'] })
  const hashing = new SealHashing()
  hashing.start()
  await hashing.whenReady()

  let waits: number[] = []
  const timed = <T>(p: Promise<T>): Promise<T> => {
    const started = performance.now()
    return p.then((v) => (waits.push(performance.now() - started), v))
  }
  const open: OpenOptions =
    MODE === 'whole'
      ? { orderedRoots: (lists) => timed(hashing.roots(lists)) }
      : {
          rootsFeed: (): RootsFeed => {
            const feed = hashing.feed()
            return { update: (l) => feed.update(l), roots: (l) => timed(feed.roots(l)), discard: () => feed.discard() }
          },
        }
  const seals: number[] = []
  const pool = new ListPool()
  const seq = new Sequencer(
    node.rules,
    node.chain.store.kv,
    node.chain.store,
    () => node.chain.header(node.chain.head())!,
    (executed, extra) => node.writer.commit(executed, extra),
    pool,
    new ManualScheduler(),
    { mode: 'manual', flashblockIntervalMs: 200, flashblocksPerBlock: FLASHBLOCKS, coinbase: new Uint8Array(20), extraData: new Uint8Array(0), maxTransactionsPerFlashblock: PER_BLOCK / FLASHBLOCKS },
    { open, observer: { flashblockBuilt: () => undefined, journalWritten: () => undefined, sealed: (s) => seals.push(s * 1000), tickSkipped: () => undefined } },
  )
  await seq.start()
  const rows: string[] = []
  for (let b = 0; b <= BLOCKS; b++) {
    pool.txs = signed.slice(b * PER_BLOCK, (b + 1) * PER_BLOCK).map((t) => {
      const raw = hexToBytes(t.raw)
      let tx: TypedTransaction | undefined
      return {
        get tx() {
          return (tx ??= createTxFromRLP(raw, { common: node.rules.mutableCopy() }))
        },
        raw,
        hash: hexToBytes(t.hash),
        sender: senders[t.sender]!,
      }
    })
    waits = []
    const cpu0 = processCpuMs()
    const main0 = mainThreadCpuMs()
    for (let f = 1; f < FLASHBLOCKS; f++) await seq.flashblock()
    const cpu1 = processCpuMs()
    const main1 = mainThreadCpuMs()
    const executed = await seq.seal()
    const cpu2 = processCpuMs()
    const main2 = mainThreadCpuMs()
    if (executed.stored.txHashes.length !== PER_BLOCK) throw new Error(`block ${b}: ${executed.stored.txHashes.length} transactions sealed, not ${PER_BLOCK}`)
    const row = `${MODE} block ${b}${b === 0 ? ' (warm-up)' : ''}: roots wait ${waits[0]!.toFixed(1)} ms wall, worker ${hashing.lastWorkerMs.toFixed(1)} ms on the seal's request; seal ${seals[seals.length - 1]!.toFixed(0)} ms wall (last flashblock included ${(cpu2 - cpu1).toFixed(0)} ms CPU all threads, ${main2 - main1} ms main); build of flashblocks 1-9 ${(cpu1 - cpu0).toFixed(0)} ms CPU all threads, ${main1 - main0} ms main`
    rows.push(row)
    process.stderr.write(row + '\n')
  }
  console.log(JSON.stringify({ mode: MODE, answered: hashing.answered }))
  for (const row of rows) console.log(row)
  await seq.stop()
  await hashing.close()
  await node.close()
  rmSync(dataDir, { recursive: true, force: true })
}

await main()
