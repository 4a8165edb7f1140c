/**
 * How a fresh Flashnode's CPU per simulation falls as V8 compiles its simulation path: the production build
 * (bench/nodes.ts, `--sealing manual`) on a fresh copy of the 100,000-holder bench chain, then consecutive
 * windows of the `distinct` scenario's simulation load (1 or 10 chained ERC-20 transfers, concurrency 8, inputs
 * differing request to request), each window's CPU per simulation from /proc/<pid>/task/<tid>/stat: the whole
 * node, its main thread, and its other threads largest first (execution workers, V8's platform threads, which
 * compile and collect garbage; all of them are named `node`, so they are told apart by their figures).
 * `--pre MS` first runs eth_call balanceOf for MS, as the rows before the simulations in `distinct` do.
 *
 * Why: a row whose window starts on a cold node measures the JIT, not the path (docs/performance.md,
 * "The simulation rows"); the curve says how long a warm-up has to be. CPU per simulation, unlike the rate,
 * depends little on what else runs on the machine.
 *   npx tsx bench/warmup-curve.ts [--row sim1|sim10] [--windows 10] [--window 2000] [--starts 1] [--pre 0] [--args="--execution-workers 1"]
 */

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { balanceOfData, simulateBodies } from './distinct-bodies.ts'
import { keylessHolder, TOKEN_ADDRESS, writeBenchGenesis } from './genesis.ts'
import { runLoad } from './load.ts'
import { freePort, initFlashnode, splitArgs, startFlashnode } from './nodes.ts'
import { rpcBody } from './rpc.ts'

const { values } = parseArgs({
  options: {
    row: { type: 'string', default: 'sim1' },
    windows: { type: 'string', default: '10' },
    window: { type: 'string', default: '2000' },
    starts: { type: 'string', default: '1' },
    pre: { type: 'string', default: '0' },
    args: { type: 'string', default: '' },
  },
})
const HOLDERS = 100_000
const TICKS_PER_SECOND = 100
const CALLS = values.row === 'sim10' ? 10 : values.row === 'sim1' ? 1 : NaN
if (Number.isNaN(CALLS)) throw new Error(`unknown row ${values.row} (sim1 | sim10)`)

/** CPU ticks so far of each thread of `pid`. */
function threadTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(tid), Number(fields[11]) + Number(fields[12]))
    } catch {
      /* the thread ended */
    }
  }
  return out
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'flashnode-warmup-'))
  try {
    const genesis = join(work, 'genesis.json')
    const chain = join(work, 'chain')
    writeBenchGenesis(genesis, { accounts: 64, holders: HOLDERS })
    initFlashnode(genesis, chain)
    const holders = Array.from({ length: HOLDERS }, (_, i) => keylessHolder(i))
    let start = 0
    const simulations = (): string[] => {
      start = (start + 17_389) % HOLDERS
      return simulateBodies(TOKEN_ADDRESS, holders, CALLS, 'latest', start % (HOLDERS / 2))
    }
    console.log(`$ npx tsx bench/warmup-curve.ts ${process.argv.slice(2).join(' ')}`)
    console.log('window: sim/s, CPU µs a simulation: node (main thread; other threads, largest first)')
    for (let s = 0; s < Number(values.starts); s++) {
      const dataDir = join(work, 'data')
      rmSync(dataDir, { recursive: true, force: true })
      cpSync(chain, dataDir, { recursive: true })
      const node = await startFlashnode({ genesisPath: genesis, datadir: dataDir, port: await freePort(), extraArgs: ['--sealing', 'manual', '--log-level', 'warn', ...splitArgs(values.args!)] })
      try {
        if (Number(values.pre) > 0) {
          const calls = Array.from({ length: 50_000 }, (_, i) => rpcBody(i, 'eth_call', [{ to: TOKEN_ADDRESS, data: balanceOfData(holders[i]!) }, 'latest']))
          await runLoad({ url: node.url, bodies: calls, concurrency: 8, durationMs: Number(values.pre), warmupMs: 0, client: 'raw' })
        }
        for (let w = 1; w <= Number(values.windows); w++) {
          let before = new Map<number, number>()
          const load = await runLoad({ url: node.url, bodies: simulations(), concurrency: 8, durationMs: Number(values.window), warmupMs: 0, client: 'raw' }, () => {
            before = threadTicks(node.serverPid)
          })
          const after = threadTicks(node.serverPid)
          if (load.errors > 0) throw new Error(`${load.errors} errors, e.g. ${load.errorSamples.join('; ')}`)
          const answered = (load.rps * Number(values.window)) / 1000
          const us = (ticks: number): number => (ticks / TICKS_PER_SECOND / answered) * 1e6
          const spent = [...after].map(([tid, t]) => [tid, t - (before.get(tid) ?? 0)] as const)
          const total = spent.reduce((sum, [, t]) => sum + t, 0)
          const main = spent.find(([tid]) => tid === node.serverPid)?.[1] ?? 0
          const others = spent.filter(([tid, t]) => tid !== node.serverPid && t > 0).map(([, t]) => t).sort((a, b) => b - a)
          console.log(`start ${s + 1} window ${w}: ${load.rps.toFixed(0)}/s, ${us(total).toFixed(0)} µs (main ${us(main).toFixed(0)}; ${others.map((t) => us(t).toFixed(0)).join(' ')})`)
        }
      } finally {
        await node.stop()
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (!existsSync('/proc/self/task')) throw new Error('bench/warmup-curve.ts reads /proc: Linux only')
await main()
