/**
 * Scenario "flashblock-build": how long building a flashblock takes, and how many transactions per second
 * sealing sustains. Both peers mine only when asked (Flashnode `--sealing manual`, Anvil `--no-mining`),
 * so each measurement controls exactly what is pooled.
 *
 * Rows (each a `measure` case: round trips timed over a raw keep-alive socket from this process, one at a
 * time, the pool filled beforehand with JSON-RPC batches, untimed):
 *   - empty flashblock round trip (Flashnode): flashnode_flashblock with nothing pooled; what the RPC
 *     round trip and publishing an empty flashblock cost.
 *   - flashblock build, N ETH transfers / N ERC-20 transfers (Flashnode), N = 100, 1,000, and 100 token swaps
 *     (swapExactTokensForTokens through the swap fixture's router and pair, swap-txs.ts; the chain is built
 *     with `swap: true`): pool N, time flashnode_flashblock, check the pending block grew by N (and, for
 *     swaps, that the pair's reserve of token A grew by N inputs: every swap succeeded), seal (evm_mine,
 *     untimed) so every sample starts in a fresh block. The 100-transaction rows build and seal 3 such blocks
 *     untimed first (--quick: 1), so a row on a fresh start (the OP Stack one) is not timed while its code
 *     is still being compiled. Build time = round trip − the empty round trip's p50
 *     (measured on the same start, just before): p50 and p99 of that difference.
 *   - the same flashblock of 100 ERC-20 transfers on the scenario's chain made an OP Stack chain (`chain: 'op'`:
 *     Base's EIP-1559 parameters, Bedrock to Jovian at genesis, the predeploys; bench/genesis.ts opStackGenesis):
 *     each timed flashblock opens a block, so it holds the L1-attributes deposit, and every transfer pays its L1
 *     data fee (FastLZ over its signed bytes), its DA footprint is metered and the fees go to the vaults. The
 *     pending block must grow by N transactions besides deposits, and every transfer's sealed receipt must carry
 *     an l1Fee > 0. Its Ethereum baseline: the same row on a Flashnode start of its own too (`ownStart`), so
 *     both have the same history before them (a fresh process, the same warm-up); the main start's row runs
 *     after the ETH rows, its code compiled by thousands of executions more. The scenario's derived lines give
 *     OP / Ethereum of the p50 against both (issue 41's goal, at most 1.3×, is of the first), from the
 *     medians and per repetition, and of the peer's CPU per build (its /proc ticks across each timed call).
 *   - evm_mine with N ETH transfers pooled (both): Anvil's closest equivalent of a flashblock build (it
 *     executes and seals in one step); for Flashnode the same call pre-confirms the N and seals the block.
 *     Raw round trips, nothing subtracted; the empty evm_mine p50 is in the notes. The same with 100 token
 *     swaps pooled (both; the swaps checked as above, at latest).
 *   - sealed tx/s sustained (both): pool 4,096 ETH transfers (256 senders × 16: the most Flashnode's
 *     pool keeps without evicting), then evm_mine until all are sealed; rate = sealed / time spent in
 *     evm_mine; p50/p99 are per round (all evm_mines of one pool-full). Rounds per start: 3 (--quick: 1).
 * Samples per start: 100-tx rows 12, 1,000-tx rows 5 (--quick: 4 and 2).
 */

import type { RunningNode } from './nodes.ts'
import { rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext, ScenarioResult } from './scenario.ts'
import { reserveA, SWAP_AMOUNT_IN, SwapTxFactory } from './swap-txs.ts'
import { NonceBook, quantile, sendAll, TimedClient, TxFactory, type TxKind } from './txs.ts'

const SENDERS = 256
const SUSTAINED = 4096
const EMPTY_SAMPLES = 10

/** What a row pools: ETH or ERC-20 transfers (txs.ts), or token swaps (swap-txs.ts). */
type PooledKind = TxKind | 'swap'
const KIND_NAMES: Record<PooledKind, string> = { eth: 'ETH transfers', erc20: 'ERC-20 transfers', swap: 'token swaps' }

interface Block {
  transactions: unknown[]
}

const txCount = async (url: string, tag: string): Promise<number> =>
  (await rpcCall<Block>(url, 'eth_getBlockByNumber', [tag, false])).transactions.length

/** Transactions at `tag` that are not deposits (type 0x7e): on an OP chain, what was pooled. */
const userTxCount = async (url: string, tag: string): Promise<number> =>
  (await rpcCall<{ transactions: { type: string }[] }>(url, 'eth_getBlockByNumber', [tag, true])).transactions.filter((t) => t.type !== '0x7e').length

/** Throws unless every non-deposit receipt of the latest block carries an L1 fee above 0 (the OP chain charged it). */
async function l1FeesCharged(url: string): Promise<void> {
  const receipts = await rpcCall<{ type: string; l1Fee?: string }[]>(url, 'eth_getBlockReceipts', ['latest'])
  const unpaid = receipts.filter((r) => r.type !== '0x7e' && !(BigInt(r.l1Fee ?? '0x0') > 0n))
  if (unpaid.length > 0) throw new Error(`${unpaid.length} of ${receipts.length} receipts of the OP chain's latest block carry no L1 fee`)
}

/** The OP Stack row's chain, and what it is called in the table and the derived ratio. */
const OP_CHAIN = 'OP Stack chain (L1-attributes deposit, L1 data fee with FastLZ, fee vaults)'
const OP_GOAL = 1.3
/**
 * The peer's CPU (all its threads, /proc ticks of 10 ms) across each timed flashnode_flashblock call, mean per
 * build: unlike the round trip it does not grow while other processes hold the cores.
 */
const CPU_PER_BUILD = 'peer CPU ms per build (mean, 10 ms ticks)'

function figures(times: number[], extras: Record<string, number>, rate?: number): Measured {
  return {
    ...(rate === undefined ? {} : { rate }),
    p50Ms: quantile(times, 0.5),
    p99Ms: quantile(times, 0.99),
    count: times.length,
    errors: 0,
    errorSamples: [],
    extras,
  }
}

/** The start of its own the OP row's Ethereum baseline runs on (the OP row has one too: its chain's). */
const FRESH = 'fresh'

const buildName = (kind: PooledKind, n: number, op: boolean, ownStart?: string): string =>
  `flashblock build, ${n.toLocaleString('en-US')} ${KIND_NAMES[kind]}${op ? `, ${OP_CHAIN}` : ''}${ownStart === undefined ? '' : ', on a start of its own as the OP row'} (round trip − empty p50)`

/**
 * OP / Ethereum of the 100 ERC-20 transfer rows' build p50 on Flashnode, of the medians and per repetition:
 * against the Ethereum row on a start of its own (the same history before it as the OP row: the goal's
 * comparison), and against the Ethereum row that follows the other rows on the scenario's main start.
 */
function opRatio(r: ScenarioResult): string[] {
  const op = r.peers.flashnode?.cases[buildName('erc20', 100, true)]
  const cpu = (x: { extras?: Record<string, number> } | undefined): number => x?.extras?.[CPU_PER_BUILD] ?? Number.NaN
  const times = (xs: number[]): string => xs.map((x) => `${x.toFixed(2)}×`).join(', ')
  const against = (ownStart: string | undefined, what: string, goal: boolean): string[] => {
    const eth = r.peers.flashnode?.cases[buildName('erc20', 100, false, ownStart)]
    if (eth?.median === undefined || op?.median === undefined) return [`OP / Ethereum flashblock build (${what}): not measured (a row is missing or invalid; see the notes)`]
    const ratio = op.median.p50Ms / eth.median.p50Ms
    const perRep = op.samples.map((s, i) => (eth.samples[i] === undefined ? Number.NaN : s.p50Ms / eth.samples[i]!.p50Ms))
    const cpuPerRep = op.samples.map((s, i) => cpu(s) / cpu(eth.samples[i]))
    return [
      `OP / Ethereum flashblock build, 100 ERC-20 transfers, ${what} (p50, round trip − empty p50): ${op.median.p50Ms.toFixed(2)} ms / ${eth.median.p50Ms.toFixed(2)} ms = ` +
        `${ratio.toFixed(2)}×${goal ? ` (goal ≤ ${OP_GOAL}×: ${ratio <= OP_GOAL ? 'met' : 'NOT met'})` : ''}; per repetition ${times(perRep)}`,
      `  the peer's CPU per build (mean): ${cpu(op.median).toFixed(1)} ms / ${cpu(eth.median).toFixed(1)} ms = ${(cpu(op.median) / cpu(eth.median)).toFixed(2)}×; per repetition ${times(cpuPerRep)}`,
    ]
  }
  return [
    ...against(FRESH, 'each on a start of its own with the same warm-up', true),
    ...against(undefined, 'against the Ethereum row on the main start (after the 100 and 1,000 ETH rows)', false),
  ]
}

function cases({ chain, quick }: ScenarioContext): BenchCase[] {
  const swap = chain.swap
  if (swap === undefined) throw new Error('the flashblock-build scenario needs a chain built with swap: true')
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const swaps = new SwapTxFactory(chain.chainId, swap, SENDERS)
  const nonces = new NonceBook()
  const samplesFor = (n: number): number => (n <= 100 ? (quick ? 4 : 12) : quick ? 2 : 5)
  /** Untimed builds first (100-transaction rows): the OP row runs on a start of its own, its code not yet compiled. */
  const warmupsFor = (n: number): number => (n <= 100 ? (quick ? 1 : 3) : 0)
  const fill = (node: RunningNode, kind: PooledKind, n: number): Promise<void> =>
    sendAll(node.url, kind === 'swap' ? swaps.batch(n, nonces, node) : factory.batch(kind, n, nonces, node))

  /** For swaps: the pair's reserve of A at `tag` now, and a check that it grew by n inputs since (every swap succeeded). */
  const swapsSucceeded = async (node: RunningNode, kind: PooledKind, tag: string): Promise<(n: number) => Promise<void>> => {
    if (kind !== 'swap') return async () => {}
    const before = await reserveA(node.url, swap, tag)
    return async (n) => {
      const grown = (await reserveA(node.url, swap, tag)) - before
      if (grown !== BigInt(n) * SWAP_AMOUNT_IN) throw new Error(`${n} swaps moved ${grown} of token A into the pair, not ${BigInt(n) * SWAP_AMOUNT_IN}: some failed`)
    }
  }

  /** Round trips of `method` with nothing pooled. */
  const emptyRoundTrips = async (c: TimedClient, method: string): Promise<number[]> => {
    const times: number[] = []
    for (let i = 0; i < EMPTY_SAMPLES; i++) times.push((await c.call(method, [])).ms)
    return times
  }

  const emptyFlashblock: BenchCase = {
    name: 'empty flashblock round trip (flashnode_flashblock, nothing pooled)',
    unit: '',
    peers: ['flashnode'],
    measure: async ({ node }: CaseRun) => {
      const c = new TimedClient(node.url)
      try {
        return figures(await emptyRoundTrips(c, 'flashnode_flashblock'), {})
      } finally {
        c.close()
      }
    },
  }

  const build = (kind: PooledKind, n: number, op = false, ownStart?: string): BenchCase => ({
    name: buildName(kind, n, op, ownStart),
    unit: '',
    peers: ['flashnode'],
    ...(op ? { chain: 'op' as const } : {}),
    ...(ownStart === undefined ? {} : { ownStart }),
    measure: async ({ node }: CaseRun) => {
      const c = new TimedClient(node.url)
      try {
        await c.call('evm_mine', []) // a fresh block: every sample starts the same way
        for (let i = 0; i < warmupsFor(n); i++) {
          await fill(node, kind, n)
          await c.call('flashnode_flashblock', [])
          await c.call('evm_mine', [])
        }
        const empty = quantile(await emptyRoundTrips(c, 'flashnode_flashblock'), 0.5)
        const trips: number[] = []
        let cpuMs = 0
        for (let i = 0; i < samplesFor(n); i++) {
          await fill(node, kind, n)
          const count = op ? userTxCount : txCount
          const before = await count(node.url, 'pending')
          const succeeded = await swapsSucceeded(node, kind, 'pending')
          const cpu0 = node.cpuSeconds()
          trips.push((await c.call('flashnode_flashblock', [])).ms)
          cpuMs += (node.cpuSeconds() - cpu0) * 1000
          const added = (await count(node.url, 'pending')) - before
          if (added !== n) throw new Error(`flashnode_flashblock with ${n} transactions pooled pre-confirmed ${added}`)
          await succeeded(n)
          await c.call('evm_mine', [])
          if (op) await l1FeesCharged(node.url)
        }
        return figures(trips.map((t) => t - empty), { 'round trip p50': quantile(trips, 0.5), 'empty round trip p50': empty, [CPU_PER_BUILD]: cpuMs / trips.length })
      } finally {
        c.close()
      }
    },
  })

  const mine = (n: number, kind: 'eth' | 'swap' = 'eth'): BenchCase => ({
    name: `evm_mine with ${n.toLocaleString('en-US')} ${KIND_NAMES[kind]} pooled (Anvil's closest equivalent)`,
    unit: '',
    compare: 'p50',
    measure: async ({ node }: CaseRun) => {
      const c = new TimedClient(node.url)
      try {
        const empty = quantile(await emptyRoundTrips(c, 'evm_mine'), 0.5)
        const trips: number[] = []
        for (let i = 0; i < samplesFor(n); i++) {
          await fill(node, kind, n)
          const succeeded = await swapsSucceeded(node, kind, 'latest')
          trips.push((await c.call('evm_mine', [])).ms)
          const sealed = await txCount(node.url, 'latest')
          if (sealed !== n) throw new Error(`evm_mine with ${n} transactions pooled sealed a block of ${sealed}`)
          await succeeded(n)
        }
        return figures(trips, { 'empty evm_mine p50': empty })
      } finally {
        c.close()
      }
    },
  })

  const sustained: BenchCase = {
    name: `sealed tx/s sustained (${SUSTAINED.toLocaleString('en-US')} ETH transfers pooled, evm_mine until sealed)`,
    unit: 'tx/s',
    measure: async ({ node }: CaseRun) => {
      const c = new TimedClient(node.url)
      try {
        const rounds: number[] = []
        let sealedTotal = 0
        for (let r = 0; r < (quick ? 1 : 3); r++) {
          await fill(node, 'eth', SUSTAINED)
          let sealed = 0
          let spent = 0
          for (let mines = 0; sealed < SUSTAINED; mines++) {
            if (mines >= 20) throw new Error(`${sealed} of ${SUSTAINED} pooled transactions sealed after 20 evm_mine calls`)
            spent += (await c.call('evm_mine', [])).ms
            sealed += await txCount(node.url, 'latest')
          }
          if (sealed !== SUSTAINED) throw new Error(`evm_mine sealed ${sealed} transactions, ${SUSTAINED} were pooled`)
          rounds.push(spent)
          sealedTotal += sealed
        }
        const seconds = rounds.reduce((a, b) => a + b, 0) / 1000
        return figures(rounds, {}, sealedTotal / seconds)
      } finally {
        c.close()
      }
    },
  }

  return [
    emptyFlashblock,
    build('eth', 100),
    build('eth', 1000),
    build('erc20', 100),
    build('erc20', 100, true),
    build('erc20', 100, false, FRESH),
    build('erc20', 1000),
    build('swap', 100),
    mine(100),
    mine(1000),
    mine(100, 'swap'),
    sustained,
  ]
}

export const flashblockBuildBench: Scenario = {
  name: 'flashblock-build',
  title: 'flashblock build time (Flashnode) and evm_mine / sealed throughput (both), manual mining',
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n, swap: true },
  anvilArgs: ['--no-mining'],
  flashnodeArgs: ['--sealing', 'manual'],
  mutatesState: true,
  notes: () => [
    'flashblock build rows: flashnode_flashblock round trip minus the p50 of an empty flashblock\'s round trip on the same start (so RPC and publishing overhead is not counted twice); n/a for Anvil, which has no flashblocks: its closest equivalent is the evm_mine rows',
    'evm_mine rows: raw round trips; Flashnode\'s evm_mine pre-confirms what is pooled (one flashblock) and seals the block (roots, one write); Anvil executes and seals in one step',
    'sealed tx/s: pooled transactions ÷ time inside evm_mine calls (filling the pool is not timed); p50/p99 are per pool-full of 4,096',
    'token swaps: swapExactTokensForTokens of 1 token A for token B through the swap fixture\'s router and pair (test/fixtures/swap, bench/swap-txs.ts), 100 senders, ~85,000 gas each; every sample checks that the pair\'s reserve of A grew by all 100 inputs (no swap failed)',
  ],
  derived: opRatio,
  cases,
}
