/**
 * Scenario "contracts": real contracts compiled with solc (test/fixtures/erc20 and test/fixtures/swap), each
 * request as eth_call and as eth_simulateV1 at `latest`, with inputs that never repeat within a run:
 *   - an ERC-20 transfer, holder i to holder i + 1;
 *   - a swap of token A for token B through the router and the pair (swapExactTokensForTokens from holder i,
 *     paid to holder i, a different amount every request): the router reads the reserves, transferFrom moves
 *     the input to the pair, the pair pays out, reads both balances and checks the constant-product invariant;
 *   - a multicall of 50 balanceOf, of 50 distinct holders.
 * These are the per-request figures of issue 20 (its own EVM must reach ≥ 0.3× Anvil on each); today's are the
 * library EVM's.
 *
 * Inputs: the chain has HOLDERS holders (64 keyed, the rest keyless; every one holds tokens A and B and lets
 * the router spend its A). Request r of a row takes the next holders of the set from the row's own starting
 * place (2 for a transfer, 1 for a swap, 50 for a multicall: no holder in two requests in a row); when the walk
 * has gone round the set it goes round again shifted by one holder, and the transfer's and swap's amounts grow
 * with r, so no request repeats an earlier one of its row (nothing answers from a result cache). A row holds as
 * many distinct bodies as it can send in its window at RATE_CEILING (several times what Anvil answered on this
 * machine), bounded by MAX_BODY_BYTES of bodies: 5,160 multicall bodies of ~19 KB, which a fast peer may go
 * round, but Flashnode's call-result cache holds only ~700 of them (its 16 MiB weighs the 19 KB key), so even
 * a recurring multicall finds none. The notes give each row's bound.
 * Calldata is written here word by word (viem's encoder costs tens of µs a body), checked once against viem's.
 *
 * Each peer's answer is checked first, on the row's first, middle and last bodies' inputs: the transfer returns
 * true; the swap returns the amount the constant-product formula gives from the genesis reserves (computed
 * here); the multicall returns the 50 balances; a simulation's one call succeeded and returned the same.
 * Nothing is sent, so state never changes: Flashnode runs `--sealing manual`, latest stays the genesis.
 */

import { encodeAbiParameters, encodeFunctionData, numberToHex, type Address, type Hex } from 'viem'
import { ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { amountOut, MULTICALL_ABI, SWAP_ROUTER_ABI } from '../test/fixtures/swap/index.ts'
import type { BenchChain } from './genesis.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'

export const HOLDERS = 20_000
const MULTICALL_SIZE = 50
/** Requests a second a row's bodies are sized for (Anvil answered ~1,200 transfers, ~1,250 swaps, ~860 multicalls a second here, under load). */
const RATE_CEILING = { transfer: 20_000, swap: 15_000, multicall: 3_000 } as const
/** The most bytes of bodies one row holds (the load generator keeps them, and a copy as prebuilt requests). */
const MAX_BODY_BYTES = 96 * 1024 * 1024
const SUFFIX = '(distinct inputs)'
const TRUE_WORD: Hex = `0x${'0'.repeat(63)}1`
const SWAP_AMOUNT = 10n ** 18n
const SWAP_STEP = 10n ** 12n

type Kind = keyof typeof RATE_CEILING
type Method = 'eth_call' | 'eth_simulateV1'

const pad = (v: bigint): string => v.toString(16).padStart(64, '0')
const padAddress = (a: Address): string => a.slice(2).toLowerCase().padStart(64, '0')
const selector = (data: Hex): string => data.slice(0, 10)

const TRANSFER = selector(encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: ['0x0000000000000000000000000000000000000000', 0n] }))
const BALANCE_OF = selector(encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: ['0x0000000000000000000000000000000000000000'] }))
const zero = '0x0000000000000000000000000000000000000000' as const
const SWAP = selector(encodeFunctionData({ abi: SWAP_ROUTER_ABI, functionName: 'swapExactTokensForTokens', args: [0n, 0n, zero, zero, zero] }))
const AGGREGATE = selector(encodeFunctionData({ abi: MULTICALL_ABI, functionName: 'aggregate', args: [[]] }))

/** One call of a row: who calls what with which calldata. */
interface Call {
  from?: Address
  to: Address
  data: Hex
}

interface Row {
  readonly kind: Kind
  readonly label: string
  /** Holders one request names. */
  readonly per: number
  /** Request r's call, given holder k of its walk. */
  call(r: number, holder: (k: number) => Address): Call
  /** What the call returns (hex) for request r. */
  expected(r: number): Hex
}

/** Request r's walk: holders from start + r·per, shifted by one for each time round the set. */
function walk(holders: readonly Address[], per: number, start: number, r: number): (k: number) => Address {
  const n = holders.length
  const base = start + r * per + Math.floor((r * per) / n)
  return (k) => holders[(base + k) % n]!
}

function transferRow(chain: BenchChain): Row {
  return {
    kind: 'transfer',
    label: 'ERC-20 transfer',
    per: 2,
    // amount 1 + r: with the walk's shift, the (from, to, amount) never recurs
    call: (r, h) => ({ from: h(0), to: chain.token, data: `${TRANSFER}${padAddress(h(1))}${pad(1n + BigInt(r))}` as Hex }),
    expected: () => TRUE_WORD,
  }
}

function swapRow(chain: BenchChain): Row {
  const s = chain.swap!
  const amountIn = (r: number): bigint => SWAP_AMOUNT + BigInt(r) * SWAP_STEP
  return {
    kind: 'swap',
    label: 'swap A→B through the router and the pair',
    per: 1,
    call: (r, h) => ({
      from: h(0),
      to: s.router,
      data: `${SWAP}${pad(amountIn(r))}${pad(0n)}${padAddress(s.tokenA)}${padAddress(s.pair)}${padAddress(h(0))}` as Hex,
    }),
    expected: (r) => numberToHex(amountOut(amountIn(r), s.reserveA, s.reserveB), { size: 32 }),
  }
}

/** aggregate((target, balanceOf(holder))[]) for MULTICALL_SIZE holders, encoded word by word. */
function multicallData(token: Address, holders: readonly Address[]): Hex {
  const n = holders.length
  const TUPLE = 5 // words: target, offset of data, length, two words of data (36 bytes padded)
  let out = `${AGGREGATE}${pad(32n)}${pad(BigInt(n))}`
  for (let i = 0; i < n; i++) out += pad(BigInt(32 * (n + i * TUPLE)))
  const target = padAddress(token)
  for (const h of holders) out += `${target}${pad(64n)}${pad(36n)}${BALANCE_OF.slice(2)}${padAddress(h)}${'0'.repeat(56)}`
  return out as Hex
}

function multicallRow(chain: BenchChain): Row {
  const s = chain.swap!
  const answer = encodeAbiParameters([{ type: 'bytes[]' }], [Array.from({ length: MULTICALL_SIZE }, () => numberToHex(chain.tokenBalance, { size: 32 }))])
  return {
    kind: 'multicall',
    label: `multicall of ${MULTICALL_SIZE} balanceOf`,
    per: MULTICALL_SIZE,
    call: (_, h) => ({ to: s.multicall, data: multicallData(chain.token, Array.from({ length: MULTICALL_SIZE }, (_, k) => h(k))) }),
    expected: () => answer,
  }
}

function params(method: Method, c: Call): unknown[] {
  if (method === 'eth_call') return [c.from === undefined ? { to: c.to, data: c.data } : { from: c.from, to: c.to, data: c.data }, 'latest']
  const call = c.from === undefined ? { to: c.to, input: c.data } : { from: c.from, to: c.to, input: c.data }
  return [{ blockStateCalls: [{ calls: [call] }] }, 'latest']
}

/** How many distinct bodies a run of this row needs: its window at the ceiling rate, within the byte budget. */
function bodyCount(row: Row, method: Method, run: CaseRun, chain: BenchChain): number {
  const seconds = (run.durationMs + run.warmupMs) / 1000
  const bytes = rpcBody(1, method, params(method, row.call(0, walk(chain.holders, row.per, 0, 0)))).length
  return Math.max(1, Math.min(Math.ceil(RATE_CEILING[row.kind] * seconds * 1.1), Math.floor(MAX_BODY_BYTES / bytes)))
}

interface SimBlock {
  calls: { status: Hex; returnData: Hex; error?: unknown }[]
}

async function checkAnswer(url: string, method: Method, c: Call, want: Hex): Promise<void> {
  if (method === 'eth_call') {
    const got = await rpcCall<Hex>(url, method, params(method, c), 60_000)
    if (got !== want) throw new Error(`eth_call returned ${String(got).slice(0, 140)}, expected ${want.slice(0, 140)}`)
    return
  }
  const blocks = await rpcCall<SimBlock[]>(url, method, params(method, c), 60_000)
  if (!Array.isArray(blocks) || blocks.length !== 1 || blocks[0]!.calls.length !== 1) {
    throw new Error(`expected one simulated block of one call, got ${JSON.stringify(blocks).slice(0, 140)}`)
  }
  const r = blocks[0]!.calls[0]!
  if (r.status !== '0x1' || r.returnData !== want) throw new Error(`simulated call: ${JSON.stringify(r).slice(0, 200)}, expected returnData ${want.slice(0, 140)}`)
}

function rowCase(chain: BenchChain, row: Row, method: Method, start: number): BenchCase {
  const name = `${row.label}, ${method} @latest ${SUFFIX}`
  const callOf = (r: number): Call => row.call(r, walk(chain.holders, row.per, start, r))
  return {
    name,
    unit: method === 'eth_call' ? 'calls/s' : 'sim/s',
    bodies: (run) => {
      const count = bodyCount(row, method, run, chain)
      return Array.from({ length: count }, (_, r) => rpcBody(r + 1, method, params(method, callOf(r))))
    },
    check: async (run) => {
      const last = bodyCount(row, method, run, chain) - 1
      for (const r of [0, last >> 1, last]) await checkAnswer(run.node.url, method, callOf(r), row.expected(r))
    },
  }
}

/** The calldata written here is viem's, for one input of each row. */
function checkEncodings(chain: BenchChain): void {
  const s = chain.swap!
  const [a, b] = [chain.holders[0]!, chain.holders[chain.holders.length - 1]!]
  const same = (mine: Hex, viem: Hex, what: string): void => {
    if (mine !== viem) throw new Error(`contracts bench: the ${what} calldata differs from viem's`)
  }
  same(transferRow(chain).call(6, (k) => [a, b][k]!).data, encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [b, 7n] }), 'transfer')
  const amount = SWAP_AMOUNT + 6n * SWAP_STEP
  const viemSwap = encodeFunctionData({ abi: SWAP_ROUTER_ABI, functionName: 'swapExactTokensForTokens', args: [amount, 0n, s.tokenA, s.pair, b] })
  same(swapRow(chain).call(6, () => b).data, viemSwap, 'swap')
  const who = chain.holders.slice(0, MULTICALL_SIZE)
  const calls = who.map((h) => ({ target: chain.token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [h] }) }))
  same(multicallData(chain.token, who), encodeFunctionData({ abi: MULTICALL_ABI, functionName: 'aggregate', args: [calls] }), 'multicall')
}

/** One of this scenario's rows as the A/B tools name it: `swap-sim` is the swap through eth_simulateV1. */
export interface ContractRow {
  readonly kind: Kind
  readonly method: Method
}

/** The row a name like `transfer-call` or `multicall-sim` stands for; undefined for any other name. */
export function contractRow(name: string): ContractRow | undefined {
  const m = /^(transfer|swap|multicall)-(call|sim)$/.exec(name)
  return m === null ? undefined : { kind: m[1] as Kind, method: m[2] === 'call' ? 'eth_call' : 'eth_simulateV1' }
}

const rowsMade = new WeakMap<BenchChain, Map<Kind, Row>>()

/** A chain's row of a kind, made once (the multicall's expected answer is an ABI encoding of 50 words). */
function rowOf(chain: BenchChain, kind: Kind): Row {
  let rows = rowsMade.get(chain)
  if (rows === undefined) rowsMade.set(chain, (rows = new Map()))
  let row = rows.get(kind)
  if (row === undefined) rows.set(kind, (row = { transfer: transferRow, swap: swapRow, multicall: multicallRow }[kind](chain)))
  return row
}

/**
 * Request r of a row as a JSON-RPC body, its holders walked from the set's start: what `bench/paired-ab.ts`
 * and `bench/alternating-ab.ts` compare two checkouts with, the same calls this scenario sends.
 */
export function contractRequestBody(chain: BenchChain, row: ContractRow, r: number): string {
  if (chain.swap === undefined) throw new Error('contract requests need a chain built with swap: true')
  const made = rowOf(chain, row.kind)
  return rpcBody(r + 1, row.method, params(row.method, made.call(r, walk(chain.holders, made.per, 0, r))))
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  if (chain.swap === undefined) throw new Error('the contracts scenario needs a chain built with swap: true')
  checkEncodings(chain)
  const rows = [transferRow(chain), swapRow(chain), multicallRow(chain)]
  const spacing = Math.floor(chain.holders.length / 6) // each row starts at its own place in the holder set
  return rows.flatMap((row, i) => [
    rowCase(chain, row, 'eth_call', 2 * i * spacing),
    rowCase(chain, row, 'eth_simulateV1', (2 * i + 1) * spacing),
  ])
}

export const contractsBench: Scenario = {
  name: 'contracts',
  title: `real contracts (solc): ERC-20 transfer, swap through a router and a pair, multicall of ${MULTICALL_SIZE} balanceOf; eth_call and eth_simulateV1 @latest, ${HOLDERS.toLocaleString('en-US')} holders, distinct inputs`,
  genesis: { accounts: 64, holders: HOLDERS, swap: true },
  flashnodeArgs: ['--sealing', 'manual'],
  readyTimeoutMs: 120_000,
  notes: ({ chain }) => {
    const perRow = [transferRow(chain), swapRow(chain), multicallRow(chain)].map((row) => {
      const bytes = rpcBody(1, 'eth_simulateV1', params('eth_simulateV1', row.call(0, walk(chain.holders, row.per, 0, 0)))).length
      return `${row.label} ${RATE_CEILING[row.kind].toLocaleString('en-US')}/s (bodies ~${(bytes / 1024).toFixed(1)} KB: at most ${Math.floor(MAX_BODY_BYTES / bytes).toLocaleString('en-US')})`
    })
    return [
      `contracts: BenchToken (test/fixtures/erc20) as tokens A and B, SwapPair, SwapRouter and Multicall (test/fixtures/swap), solc 0.8.37 ` +
        `from npm with the optimizer (200 runs); a swap makes 7 external calls (router → pair.getReserves, pair.token0, A.transferFrom, ` +
        `pair.swap → B.transfer, A.balanceOf, B.balanceOf), a multicall ${MULTICALL_SIZE} (to token A)`,
      `every request names holders the requests just before it did not (2 a transfer, 1 a swap, ${MULTICALL_SIZE} a multicall), and no ` +
        `input recurs within a row's bodies, which are as many as its window (warm-up + duration) holds at ${perRow.join(', ')}: ` +
        `no answer is a remembered result (a multicall row recurs after its few thousand bodies at the most, but Flashnode's call-result ` +
        `cache, 16 MiB at ~23 KB a multicall entry, holds only ~700 of them). The ${HOLDERS.toLocaleString('en-US')} holders' state does ` +
        `stay in Flashnode's state caches (warm reads)`,
    ]
  },
  cases,
}
