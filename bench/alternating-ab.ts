/**
 * Alternating A/B of two checkouts over HTTP: each side's production build (`scripts/build.mjs`) started as
 * `flashnode start --sealing manual` on its own copy of the 100,000-holder bench chain, one side at a time,
 * rounds in ABBA order; in each round the side gets the same closed-loop load (the raw client in its own
 * process, concurrency 8, a warm-up, then the measured window) with inputs that differ request to request
 * (holders of the 100,000 in turn, from a new place each round).
 * The figure is the rate per round and side, and the B/A ratio per round.
 *
 * Why beside bench/paired-ab.ts: that one measures the CPU of parsing, executing and formatting in one
 * process, without HTTP and without the execution worker; a change to what crosses between the main thread
 * and the worker (what the worker posts, where an answer is formatted) shows only here. Why not `npm run
 * bench` with BENCH_FLASHNODE_CHECKOUT: one row, more rounds, sides alternating minutes apart at most.
 * Nodes are built, initialized, started and stopped by bench/nodes.ts, as in every scenario (so
 * BENCH_FLASHNODE_ARGS and BENCH_FLASHNODE_NODE_ARGS apply to both sides); `--a-args` and `--b-args` add
 * `flashnode start` options to one side, so one checkout can be set against itself with another setting.
 * The contract rows (`transfer-`, `swap-`, `multicall-` with `call` or `sim`) send the `contracts` scenario's
 * requests (bench/contracts-bench.ts) over its 20,000-holder chain instead of the 100,000-holder one.
 *   npx tsx bench/alternating-ab.ts --a ../other-checkout [--b .] [--a-args="..."] [--b-args="..."] [--row ROW] [--rounds 6] [--duration 5000]
 * The `send` row (issue 42's intake) sends eth_sendRawTransaction of pre-signed ETH transfers instead, as the `send`
 * scenario does (bench/send-bench.ts: 256 senders in nonce rounds, each sent once, 64 in flight, a 400M-gas chain),
 * on the default cadence (200 ms flashblocks, auto sealing) rather than manual sealing; every side and round starts
 * from the same fresh chain, so the same transactions are accepted each time, and the warm-up lets the sender-
 * recovery workers (started by the first submission) load before the window.
 * ROW: sim1 | sim10 | call | storage | send | transfer-call | transfer-sim | swap-call | swap-sim | multicall-call | multicall-sim
 */

import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { balanceSlot } from '../test/fixtures/erc20/index.ts'
import { balanceOfData, simulateBodies } from './distinct-bodies.ts'
import { contractRequestBody, contractRow, HOLDERS as CONTRACT_HOLDERS } from './contracts-bench.ts'
import { keylessHolder, TOKEN_ADDRESS, writeBenchGenesis, type BenchChain } from './genesis.ts'
import { runLoad } from './load.ts'
import { freePort, initFlashnode, splitArgs, startFlashnode } from './nodes.ts'
import { rpcBody } from './rpc.ts'
import { TxFactory } from './txs.ts'

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    'a-args': { type: 'string', default: '' },
    'b-args': { type: 'string', default: '' },
    row: { type: 'string', default: 'sim1' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5000' },
  },
})
if (values.a === undefined) throw new Error('usage: npx tsx bench/alternating-ab.ts --a CHECKOUT [--b CHECKOUT] [--a-args="..."] [--b-args="..."] [--row ROW] [--rounds R] [--duration MS] (ROW: see the top of this file)')
const ROW = values.row!
const CONTRACT = contractRow(ROW)
/** Bodies of a contract row per side and round: its requests walk on from round to round. */
const CONTRACT_BODIES = 20_000
const ROUNDS = Number(values.rounds)
const DURATION_MS = Number(values.duration)
const WARMUP_MS = 1_500
const HOLDERS = 100_000
/**
 * Bodies per side and round: every holder once (a simulation of n calls takes n + 1 holders a body). A
 * round of eth_call or of simulations sends fewer than that; eth_getStorageAt at over ~15,000/s comes back to
 * its first holder within a round.
 */
const BODIES = HOLDERS

const SEND = ROW === 'send'
/** The send row's senders, in-flight requests and transactions (as bench/send-bench.ts). */
const SENDERS = 256
const SEND_CONCURRENCY = 64
const SEND_TXS = SENDERS * 200
let sendBodies: string[] | undefined

const holders = CONTRACT === undefined && !SEND ? Array.from({ length: HOLDERS }, (_, i) => keylessHolder(i)) : []
let start = 0
let contractChain: BenchChain | undefined

/** A new run through the holders for every side and round. */
function bodies(): string[] {
  if (SEND) return sendBodies!
  if (CONTRACT !== undefined) {
    const from = start
    start += CONTRACT_BODIES
    return Array.from({ length: CONTRACT_BODIES }, (_, r) => contractRequestBody(contractChain!, CONTRACT, from + r))
  }
  start = (start + 17_389) % HOLDERS
  const at = (i: number) => holders[(start + i) % HOLDERS]!
  if (ROW === 'call') return Array.from({ length: BODIES }, (_, i) => rpcBody(i, 'eth_call', [{ to: TOKEN_ADDRESS, data: balanceOfData(at(i)) }, 'latest']))
  if (ROW === 'storage') return Array.from({ length: BODIES }, (_, i) => rpcBody(i, 'eth_getStorageAt', [TOKEN_ADDRESS, balanceSlot(at(i)), 'latest']))
  const calls = ROW === 'sim10' ? 10 : ROW === 'sim1' ? 1 : NaN
  if (Number.isNaN(calls)) throw new Error(`unknown row ${ROW}`)
  return simulateBodies(TOKEN_ADDRESS, holders, calls, 'latest', start % (HOLDERS / 2)).slice(0, BODIES)
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const sides = [
    { name: 'A', checkout: resolve(values.a!), args: splitArgs(values['a-args']!), rates: [] as number[] },
    { name: 'B', checkout: resolve(values.b!), args: splitArgs(values['b-args']!), rates: [] as number[] },
  ]
  const work = mkdtempSync(join(tmpdir(), 'flashnode-alternating-'))
  try {
    const genesis = join(work, 'genesis.json')
    if (SEND) {
      const sendChain = writeBenchGenesis(genesis, { accounts: SENDERS, gasLimit: 400_000_000n })
      const factory = new TxFactory(sendChain.chainId, sendChain.token, SENDERS)
      sendBodies = factory.batch('eth', SEND_TXS, undefined, undefined).map((t, i) => rpcBody(i + 1, 'eth_sendRawTransaction', [t.raw]))
    } else if (CONTRACT === undefined) writeBenchGenesis(genesis, { accounts: 64, holders: HOLDERS })
    else contractChain = writeBenchGenesis(genesis, { accounts: 64, holders: CONTRACT_HOLDERS, swap: true })
    const chain = join(work, 'chain')
    initFlashnode(genesis, chain)
    console.log(`$ npx tsx bench/alternating-ab.ts ${process.argv.slice(2).join(' ')}`)
    console.log(`A ${sides[0]!.checkout} ${sides[0]!.args.join(' ')}, B ${sides[1]!.checkout} ${sides[1]!.args.join(' ')}; ${ROW}: ${ROUNDS} rounds, ${DURATION_MS} ms (+${WARMUP_MS} ms warm-up) per side, concurrency ${SEND ? SEND_CONCURRENCY : 8}`)
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        const dataDir = join(work, `data-${side.name}`)
        rmSync(dataDir, { recursive: true, force: true })
        cpSync(chain, dataDir, { recursive: true })
        const node = await startFlashnode({ checkout: side.checkout, genesisPath: genesis, datadir: dataDir, port: await freePort(), extraArgs: [...(SEND ? [] : ['--sealing', 'manual']), '--log-level', 'warn', ...side.args] })
        try {
          const load = await runLoad({ url: node.url, bodies: bodies(), concurrency: SEND ? SEND_CONCURRENCY : 8, durationMs: DURATION_MS, warmupMs: WARMUP_MS, once: SEND, client: 'raw' })
          if (load.errors > 0) throw new Error(`${side.name}: ${load.errors} errors, e.g. ${load.errorSamples.join('; ')}`)
          side.rates.push(load.rps)
          console.log(`round ${r + 1} ${side.name}: ${load.rps.toFixed(0)}/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms`)
        } finally {
          await node.stop()
        }
      }
    }
    const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]]
    const ratios = b.rates.map((x, i) => x / a.rates[i]!)
    console.log(`rate median A ${median(a.rates).toFixed(0)}/s, B ${median(b.rates).toFixed(0)}/s; B/A per round ${ratios.map((x) => x.toFixed(2)).join(' ')} (median ${median(ratios).toFixed(2)})`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
