/**
 * Where a Flashnode's CPU goes per accepted eth_sendRawTransaction, thread by thread, read from /proc (each
 * thread's utime + stime across the measured window), not from a sampling profile: on a machine whose cores are
 * all busy, a V8 profile charges the time a thread spends descheduled to the call it was in when it lost its core,
 * typically a call that woke another thread (postMessage to a worker, a socket write, lmdb-js's startWriting), so
 * those look costly in `--cpu-prof` while /proc shows what each thread really burned.
 *
 * The load is the `send` scenario's (bench/send-bench.ts: pre-signed ETH transfers from 256 senders in nonce rounds,
 * 64 in flight, a 400M-gas chain, the production build at its default 200 ms cadence). Fresh (the default): the
 * window starts 0.2 s after the first send, as in that scenario, so it includes the workers' loading and the JIT's
 * warm-up; `--warm`: 5,120 transactions are sent first, untimed, so the window sees the steady state.
 *   npx tsx bench/send-threads.ts [--warm | --intake] [--checkout DIR] [--args="flashnode start options"]
 * `--intake`: the intake alone, no sequencing (`--sealing manual`): 2,048 sends untimed, then 4,000 timed, from
 * 1,024 senders (under the pool's 6,144 places, so none is refused): HTTP, JSON-RPC, recovery and admission
 * with their LMDB writes, and nothing amortized over a flashblock, so the figure does not move with the rate
 * the machine lets the load reach (the other modes' do: a flashblock's and a seal's fixed costs are shared by
 * however many transactions it holds).
 * Threads are named by id; `main` is the node's main thread. The busiest others are, in steady state, the
 * sender-recovery workers, then V8's platform threads (garbage collection, optimizing compiler).
 */

import { readdirSync, readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { runLoad } from './load.ts'
import { startSendFixture } from './send-fixture.ts'
import { machineBusySeconds } from './proc.ts'

const { values } = parseArgs({
  options: {
    warm: { type: 'boolean', default: false },
    intake: { type: 'boolean', default: false },
    checkout: { type: 'string', default: '.' },
    args: { type: 'string', default: '' },
    duration: { type: 'string', default: '5000' },
  },
})
const INTAKE = values.intake === true
const warm = values.warm === true || INTAKE
const DURATION_MS = INTAKE ? 120_000 : Number(values.duration)
const CLOCK_TICKS = 100 // per second, as /proc counts utime and stime (USER_HZ)

/** CPU ticks so far of each thread of `pid`: user + system, and system alone. */
function threadTicks(pid: number): Map<number, { all: number; sys: number }> {
  const ticks = new Map<number, { all: number; sys: number }>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks.set(Number(tid), { all: Number(fields[11]) + Number(fields[12]), sys: Number(fields[12]) })
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks
}

const fixture = await startSendFixture('send-threads', INTAKE, values.checkout!, values.args!)
const { bodies, node } = fixture
const WARM_TXS = fixture.warmTxs
try {
  try {
    if (warm) await runLoad({ url: node.url, bodies: bodies.slice(0, WARM_TXS), concurrency: 64, durationMs: 120_000, warmupMs: 0, once: true, client: 'raw' })
    const rest = bodies.slice(warm ? WARM_TXS : 0)
    // Fresh: the first 0.2 s are the load's own warm-up, outside the ticks (as the scenario's).
    const load = runLoad({ url: node.url, bodies: rest, concurrency: 64, durationMs: DURATION_MS, warmupMs: warm ? 0 : 200, once: true, client: 'raw' })
    if (!warm) await new Promise((resolve) => setTimeout(resolve, 200))
    const busyBefore = machineBusySeconds()
    const startedAt = performance.now()
    const before = threadTicks(node.serverPid)
    const result = await load
    const after = threadTicks(node.serverPid)
    const seconds = (performance.now() - startedAt) / 1000
    const nodeSeconds = [...after].reduce((s, [tid, t]) => s + t.all - (before.get(tid)?.all ?? 0), 0) / CLOCK_TICKS
    // Everything else the machine ran meanwhile (the load generator included), in % of one core.
    const otherPct = ((machineBusySeconds() - busyBefore - nodeSeconds) / seconds) * 100
    const accepted = INTAKE ? result.requests - result.errors : result.rps * (DURATION_MS / 1000)
    console.log(`$ npx tsx bench/send-threads.ts ${process.argv.slice(2).join(' ')}`)
    console.log(`${INTAKE ? 'intake only (manual sealing, 2,048 sent first)' : warm ? 'steady (5,120 sent first)' : 'fresh start'}: ${result.rps.toFixed(0)} tx/s accepted, p50 ${result.p50Ms.toFixed(1)} ms, ${result.errors} errors; node ${((nodeSeconds / seconds) * 100).toFixed(0)}% of one core, other processes (load generator included) ${otherPct.toFixed(0)}%`)
    const perTx = (ticks: number): number => (ticks * 1e6) / CLOCK_TICKS / accepted
    const rows = [...after].map(([tid, t]) => ({ tid, us: perTx(t.all - (before.get(tid)?.all ?? 0)), sys: perTx(t.sys - (before.get(tid)?.sys ?? 0)) })).filter((r) => r.us > 0)
    rows.sort((a, b) => b.us - a.us)
    for (const r of rows) console.log(`  ${r.us.toFixed(0).padStart(5)} µs/tx  ${r.tid === node.serverPid ? 'main' : `thread ${r.tid}`} (system ${r.sys.toFixed(0)})`)
    console.log(`  ${rows.reduce((s, r) => s + r.us, 0).toFixed(0).padStart(5)} µs/tx  all threads`)
  } finally {
    await node.stop()
  }
} finally {
  fixture.remove()
}
