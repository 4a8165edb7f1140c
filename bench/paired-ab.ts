/**
 * Paired A/B of two checkouts' request path, in one process: each side is a Flashnode built from its own
 * sources (createNode, execution inline, no result cache, manual sealing) over its own copy of the
 * 100,000-holder bench chain, answering the same kind of request through its JSON-RPC envelope and method
 * table. Rounds alternate A and B (ABBA), so both see the same machine phases; the figure is CPU time per
 * request (process.cpuUsage), per side, and the median of the per-round B/A ratios with its quartiles.
 *
 * Why: on this VM the same code runs 1.6-2x apart between runs and an HTTP benchmark's rate moves ±20%
 * run to run, which hides a 10% change; a paired in-process comparison resolves it. It measures the CPU of
 * parsing, executing and formatting (not HTTP, not the worker hand-off): the npm run bench rows stay the
 * measure users see.
 *
 * Inputs differ request to request (holders of the 100,000 in turn, each side its own run through them), so
 * the history cache is not what a row measures. The contract modes (`transfer-`, `swap-`, `multicall-` with
 * `call` or `sim`) send the `contracts` scenario's requests (bench/contracts-bench.ts: solc-compiled token,
 * router, pair and multicall) over its 20,000-holder chain, walking the holders the same way.
 *   npx tsx bench/paired-ab.ts --a ../other-checkout [--b .] [--mode MODE] [--n 300] [--rounds 20]
 * MODE: sim1 | sim10 | call | storage | transfer-call | transfer-sim | swap-call | swap-sim | multicall-call | multicall-sim
 */

import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { balanceOfData, transferChainParams } from './distinct-bodies.ts'
import { contractRequestBody, contractRow, HOLDERS as CONTRACT_HOLDERS } from './contracts-bench.ts'
import { keylessHolder, TOKEN_ADDRESS, writeBenchGenesis, type BenchChain } from './genesis.ts'
import { balanceSlot } from '../test/fixtures/erc20/index.ts'

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    mode: { type: 'string', default: 'sim1' },
    n: { type: 'string' },
    rounds: { type: 'string', default: '20' },
  },
})
if (values.a === undefined) throw new Error('usage: npx tsx bench/paired-ab.ts --a CHECKOUT [--b CHECKOUT] [--mode MODE] [--n N] [--rounds R] (MODE: see the top of this file)')
const MODE = values.mode!
const CONTRACT = contractRow(MODE)
const N = Number(values.n ?? ({ sim1: 300, sim10: 100, 'swap-call': 300, 'swap-sim': 200, 'multicall-call': 150, 'multicall-sim': 150 } as Record<string, number>)[MODE] ?? 1000)
const ROUNDS = Number(values.rounds)
const HOLDERS = 100_000
/** Funded EOAs of the bench chain; the keyless holders (funded) are the other HOLDERS - ACCOUNTS (bench/genesis.ts). */
const ACCOUNTS = 64
const KEYLESS = HOLDERS - ACCOUNTS

interface Side {
  readonly name: string
  answer(body: string): Promise<string | null>
  close(): Promise<void>
}

async function open(name: string, checkout: string, chain: string, work: string): Promise<Side> {
  const src = join(resolve(checkout), 'src')
  const { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } = await import(join(src, 'node/create-node.ts'))
  const { createEthMethods } = await import(join(src, 'rpc/methods/index.ts'))
  const { handleRpcPayload } = await import(join(src, 'rpc/transport/envelope.ts'))
  const dataDir = join(work, name)
  cpSync(chain, dataDir, { recursive: true })
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir,
    executionWorkers: 0,
    metrics: false,
    callCacheEntries: 0,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' },
  })
  await node.start()
  const methods = createEthMethods(node.api)
  return { name, answer: (body) => handleRpcPayload(body, methods, { endpoint: 'bench' }), close: () => node.close() }
}

let next = 0
let contractChain: BenchChain | undefined
function body(): string {
  const i = next++
  if (CONTRACT !== undefined) return contractRequestBody(contractChain!, CONTRACT, i)
  // keyless holders past KEYLESS hold nothing: a transfer from one reverts (the 9,086th request did)
  const holder = (k: number) => keylessHolder(k % KEYLESS)
  if (MODE === 'call') return JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_call', params: [{ to: TOKEN_ADDRESS, data: balanceOfData(holder(i)) }, 'latest'] })
  if (MODE === 'storage') return JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_getStorageAt', params: [TOKEN_ADDRESS, balanceSlot(holder(i)), 'latest'] })
  const calls = MODE === 'sim10' ? 10 : MODE === 'sim1' ? 1 : NaN
  if (Number.isNaN(calls)) throw new Error(`unknown mode ${MODE}`)
  const first = (i * (calls + 1)) % (KEYLESS - calls - 1)
  return JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_simulateV1', params: transferChainParams(TOKEN_ADDRESS, (k: number) => holder(first + k), calls, 'latest') })
}

/** CPU µs per request over `n` requests. */
async function round(side: Side, n: number): Promise<number> {
  const bodies = Array.from({ length: n }, body)
  const before = process.cpuUsage()
  for (const b of bodies) {
    const out = await side.answer(b)
    if (out === null || out.includes('"error"')) throw new Error(`${side.name}: ${String(out).slice(0, 300)}`)
  }
  const used = process.cpuUsage(before)
  return (used.user + used.system) / n
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
const quantile = (xs: readonly number[], q: number): number => [...xs].sort((x, y) => x - y)[Math.floor(q * (xs.length - 1))]!

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'flashnode-paired-'))
  try {
    const genesis = join(work, 'genesis.json')
    if (CONTRACT !== undefined) {
      contractChain = writeBenchGenesis(genesis, { accounts: 64, holders: CONTRACT_HOLDERS, swap: true })
    } else {
      for (let i = 0; i < HOLDERS; i++) keylessHolder(i)
      writeBenchGenesis(genesis, { accounts: ACCOUNTS, holders: HOLDERS })
    }
    const chain = join(work, 'chain')
    const init = spawnSync(process.execPath, [join(resolve(values.b!), 'bin/flashnode.js'), 'init', '--genesis', genesis, '--datadir', chain], { encoding: 'utf8' })
    if (init.status !== 0) throw new Error(`init failed: ${init.stdout}${init.stderr}`)
    const a = await open('A', values.a!, chain, work)
    const b = await open('B', values.b!, chain, work)
    await round(a, N)
    await round(b, N)
    const ra: number[] = []
    const rb: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [a, b] : [b, a]
      for (const side of order) (side === a ? ra : rb).push(await round(side, N))
    }
    const ratios = rb.map((x, i) => x / ra[i]!)
    console.log(`$ npx tsx bench/paired-ab.ts ${process.argv.slice(2).join(' ')}`)
    console.log(`A ${resolve(values.a!)}, B ${resolve(values.b!)}; ${MODE}: ${ROUNDS} rounds of ${N} requests each side`)
    console.log(`CPU per request: A median ${median(ra).toFixed(1)} µs, B median ${median(rb).toFixed(1)} µs; B/A per round: median ${median(ratios).toFixed(3)}, quartiles ${quantile(ratios, 0.25).toFixed(3)}-${quantile(ratios, 0.75).toFixed(3)}`)
    await a.close()
    await b.close()
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
