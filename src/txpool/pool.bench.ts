/**
 * Micro-benchmark (not a test): admission throughput of the pool for 10,000 pre-signed EIP-1559 transfers
 * from 256 senders, arriving nonce-major (every sender's nonce n, then every sender's n+1, …), against an
 * in-memory state. Measures the whole path eth_sendRawTransaction takes below rpc/: decode, sender recovery
 * (native secp256k1), every check, insertion. Also splits it: decode + recovery alone, what an admission
 * worker does per transaction (prepareTx), and the pool alone (already-decoded transactions).
 *
 *   npx tsx src/txpool/pool.bench.ts [txs] [senders]
 */

import { materialize, parseTx, type PooledTx } from './decode.ts'
import { TxPool } from './pool.ts'
import { prepareTx } from './prepared.ts'
import { FakeState, env, makeKey, transfer } from './test-kit.ts'

const TXS = Number(process.argv[2] ?? 10_000)
const SENDERS = Number(process.argv[3] ?? 256)
// Room for every transaction: the default limits (5120 + 1024) would turn this into an eviction benchmark.
const config = { globalSlots: TXS, globalQueue: TXS, accountSlots: TXS }

const keys = Array.from({ length: SENDERS }, (_, i) => makeKey(1000 + i))
let t = performance.now()
const raws: Uint8Array[] = []
for (let nonce = 0; raws.length < TXS; nonce++) {
  for (const key of keys) {
    if (raws.length === TXS) break
    raws.push(transfer(key, nonce))
  }
}
console.log(`signed ${raws.length} txs from ${SENDERS} senders in ${(performance.now() - t).toFixed(0)} ms`)

const pendingEnv = env()
const state = new FakeState(keys)

/** Wall-clock and CPU milliseconds (CPU time is what this process used: others sharing the cores do not count). */
function timed(fn: () => void): { wall: number; cpu: number } {
  const cpu0 = process.cpuUsage()
  const start = performance.now()
  fn()
  const wall = performance.now() - start
  const cpu = process.cpuUsage(cpu0)
  return { wall, cpu: (cpu.user + cpu.system) / 1000 }
}

function admitAll(): { wall: number; cpu: number } {
  const pool = new TxPool({ config })
  const ms = timed(() => {
    for (const raw of raws) pool.add(raw, state, pendingEnv)
  })
  if (pool.stats().pending !== TXS) throw new Error(`expected ${TXS} pending, got ${JSON.stringify(pool.stats())}`)
  return ms
}

function decodeAll(): { ms: number; txs: PooledTx[] } {
  const start = performance.now()
  const txs = raws.map((raw) => materialize(parseTx(raw), pendingEnv.common, 0))
  return { ms: performance.now() - start, txs }
}

function prepareAll(): number {
  const start = performance.now()
  for (const raw of raws) prepareTx(raw, pendingEnv.common)
  return performance.now() - start
}

function poolOnly(txs: PooledTx[]): number {
  const pool = new TxPool({ config })
  const start = performance.now()
  for (const tx of txs) pool.add(tx, state, pendingEnv)
  return performance.now() - start
}

const rate = (ms: number) => `${Math.round((TXS / ms) * 1000).toLocaleString('en-US')} tx/s`

admitAll() // warm-up (JIT)
const runs = [admitAll(), admitAll(), admitAll()].sort((a, b) => a.wall - b.wall)
const median = runs[1]!
console.log(
  `add(raw): ${rate(median.wall)} wall-clock, ${rate(median.cpu)} per CPU-second ` +
    `(median of 3 runs: ${runs.map((m) => m.wall.toFixed(0)).join(' / ')} ms wall)`,
)
const decoded = decodeAll()
console.log(`  decode + recover only (library object, the inline path): ${rate(decodeAll().ms)}`)
prepareAll() // warm-up (JIT)
console.log(`  prepareTx (an admission worker's work per transaction; direct-prepare.ts for these): ${rate(prepareAll())}`)
console.log(`  pool only (decoded input): ${rate(poolOnly(decoded.txs))}`)
t = performance.now()
const full = new TxPool({ config })
for (const tx of decoded.txs) full.add(tx, state, pendingEnv)
t = performance.now()
let n = 0
for (const _ of full.best(pendingEnv.baseFee)) n++
console.log(`  best(): ${n} txs iterated in ${(performance.now() - t).toFixed(1)} ms`)
