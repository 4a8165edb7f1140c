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
 *     untimed) so every sample starts in a fresh block. Build time = round trip − the empty round trip's p50
 *     (measured on the same start, just before): p50 and p99 of that difference.
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
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
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

function cases({ chain, quick }: ScenarioContext): BenchCase[] {
  const swap = chain.swap
  if (swap === undefined) throw new Error('the flashblock-build scenario needs a chain built with swap: true')
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const swaps = new SwapTxFactory(chain.chainId, swap, SENDERS)
  const nonces = new NonceBook()
  const samplesFor = (n: number): number => (n <= 100 ? (quick ? 4 : 12) : quick ? 2 : 5)
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

  const build = (kind: PooledKind, n: number): BenchCase => ({
    name: `flashblock build, ${n.toLocaleString('en-US')} ${KIND_NAMES[kind]} (round trip − empty p50)`,
    unit: '',
    peers: ['flashnode'],
    measure: async ({ node }: CaseRun) => {
      const c = new TimedClient(node.url)
      try {
        await c.call('evm_mine', []) // a fresh block: every sample starts the same way
        const empty = quantile(await emptyRoundTrips(c, 'flashnode_flashblock'), 0.5)
        const trips: number[] = []
        for (let i = 0; i < samplesFor(n); i++) {
          await fill(node, kind, n)
          const before = await txCount(node.url, 'pending')
          const succeeded = await swapsSucceeded(node, kind, 'pending')
          trips.push((await c.call('flashnode_flashblock', [])).ms)
          const added = (await txCount(node.url, 'pending')) - before
          if (added !== n) throw new Error(`flashnode_flashblock with ${n} transactions pooled pre-confirmed ${added}`)
          await succeeded(n)
          await c.call('evm_mine', [])
        }
        return figures(trips.map((t) => t - empty), { 'round trip p50': quantile(trips, 0.5), 'empty round trip p50': empty })
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
  cases,
}
