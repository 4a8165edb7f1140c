/**
 * Scenario "distinct": the cost of one EVM read when no request repeats an earlier one. The read, pending-reads
 * and simulate rows cycle 64 holders (16 simulations), so after warm-up Flashnode answers their eth_call from
 * its result cache; here every request names holders of a 100,000-holder genesis in order, and each row
 * starts at its own place in the set (rows share the node's caches):
 *   - eth_call balanceOf @latest;
 *   - eth_getStorageAt of the holders' balance slots @latest (the token's genesis storage);
 *   - eth_simulateV1 at latest of 1 ERC-20 transfer (2 holders a request) and of 10 chained transfers
 *     (holder k to k + 1: 11 holders a request);
 *   - eth_call balanceOf @pending with the pool idle, then with 1,000 ERC-20 transfers waiting (the
 *     pending-reads preparation; last, since the pool stays full for the rest of the peer start).
 * A list recurs only after 100,000 requests (50,000 and 9,090 for the simulations), past every bound of
 * Flashnode's input-keyed caches, so no answer comes from a remembered result. As in pending-reads, Flashnode
 * runs `--sealing manual` and Anvil `--no-mining` (latest stays the genesis block; pending is Anvil's pool
 * executed, Flashnode's newest pre-confirmed snapshot). Each row's answers are checked first on sampled holders.
 */

import type { Address, Hex } from 'viem'
import { balanceSlot } from '../test/fixtures/erc20/index.ts'
import { balanceOfBodies, balanceOfData, distinctBodies, simulateBodies, transferChainParams } from './distinct-bodies.ts'
import type { BenchChain } from './genesis.ts'
import { POOLED, poolFiller, SENDERS } from './pending-reads-bench.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import { checkSimulatedTransfers } from './simulate-bench.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'

export const DISTINCT_HOLDERS = 100_000
/** A 100,000-holder genesis: 256 keyed accounts (the pool's senders among them), the rest keyless. */
export const DISTINCT_GENESIS = { accounts: 256, holders: DISTINCT_HOLDERS, gasLimit: 200_000_000n } as const
/** Flashnode's start on this genesis takes ~30 s on the shared 2-core machine (init as long). */
export const DISTINCT_READY_TIMEOUT_MS = 180_000

const STRANGER: Address = '0x000000000000000000000000000000000000dEaD'
const SUFFIX = '(distinct inputs, no result-cache hits)'

function expectWord(got: unknown, want: bigint, what: string): void {
  if (typeof got !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(got)) throw new Error(`${what}: not a 32-byte word: ${String(got)}`)
  if (BigInt(got) !== want) throw new Error(`${what}: ${BigInt(got)} instead of ${want}`)
}

/** Holders every check reads: the first keyed one, one keyless holder in the middle and the last. */
function samples(chain: BenchChain): Address[] {
  return [chain.holders[0]!, chain.holders[chain.holders.length >> 1]!, chain.holders[chain.holders.length - 1]!]
}

function balanceOfCase(chain: BenchChain, tag: 'latest' | 'pending', label: string, start: number, holder0: (run: CaseRun) => bigint, extra: Partial<BenchCase> = {}): BenchCase {
  const balanceOf = (run: CaseRun, h: Address): Promise<unknown> => rpcCall(run.node.url, 'eth_call', [{ to: chain.token, data: balanceOfData(h) }, tag])
  return {
    ...extra,
    name: `eth_call balanceOf @${tag}${label} ${SUFFIX}`,
    bodies: () => balanceOfBodies(chain.token, chain.holders, tag, start),
    check: async (run) => {
      await extra.prepare?.(run) // the state must be in place before its answer is checked
      const [first, ...others] = samples(chain)
      expectWord(await balanceOf(run, first!), holder0(run), `balanceOf(holder 0) @${tag}`)
      for (const h of others) expectWord(await balanceOf(run, h), chain.tokenBalance, `balanceOf(${h}) @${tag}`)
      expectWord(await balanceOf(run, STRANGER), 0n, `balanceOf(stranger) @${tag}`)
    },
  }
}

function storageCase(chain: BenchChain, start: number): BenchCase {
  const storage = chain.genesis.alloc[chain.token]?.storage ?? {}
  const balance = `0x${chain.tokenBalance.toString(16).padStart(64, '0')}`
  return {
    name: `eth_getStorageAt balance slot @latest (distinct inputs)`,
    bodies: () => {
      const slots = Object.keys(storage).filter((k) => storage[k as Hex] === balance) // the holders' balances, not the supply
      if (slots.length !== chain.holders.length) throw new Error(`${slots.length} balance slots in the genesis for ${chain.holders.length} holders`)
      return distinctBodies(slots, 1, start, (id, s) => rpcBody(id, 'eth_getStorageAt', [chain.token, s(0), 'latest']))
    },
    check: async (run) => {
      for (const h of samples(chain)) {
        expectWord(await rpcCall(run.node.url, 'eth_getStorageAt', [chain.token, balanceSlot(h), 'latest']), chain.tokenBalance, `balance slot of ${h}`)
      }
    },
  }
}


/**
 * The simulation rows' warm-up, whatever the run's. Flashnode's simulation path is cold when its row starts: the
 * extra execution worker that takes simulations loads at the first one, and both workers' V8 then compiles the
 * simulation, EVM and state-read code while the row runs. From a fresh start, one transfer simulated cost
 * ~1,200 µs of CPU a simulation in its first 2 s of load, ~780 in the next 2 s and 220-300 from about 6 s on
 * (.scratch measurement of 29 Nov 2026, docs/performance.md): a 1 s warm-up measured the JIT, not the path.
 */
export const SIMULATION_WARMUP_MS = 8_000

function simulateCase(chain: BenchChain, calls: number, start: number): BenchCase {
  return {
    name: `eth_simulateV1 ${calls === 1 ? '1 ERC-20 transfer' : `${calls} chained ERC-20 transfers`} @latest (distinct inputs)`,
    unit: 'sim/s',
    warmupMs: SIMULATION_WARMUP_MS,
    bodies: () => simulateBodies(chain.token, chain.holders, calls, 'latest', start),
    check: async (run) => {
      const last = chain.holders.length - calls - 1 // keyless holders, as most requests name
      const params = transferChainParams(chain.token, (k) => chain.holders[last + k]!, calls, 'latest')
      await checkSimulatedTransfers(run.node.url, params, calls)
    },
  }
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  const spacing = Math.floor(chain.holders.length / 6) // each row starts at its own place in the holder set
  const fill = poolFiller(chain)
  const spent = chain.tokenBalance - BigInt(POOLED / SENDERS) // holder 0 in Anvil's pending, its pool executed
  return [
    balanceOfCase(chain, 'latest', '', 0, () => chain.tokenBalance),
    storageCase(chain, spacing),
    simulateCase(chain, 1, 2 * spacing),
    simulateCase(chain, 10, 3 * spacing),
    balanceOfCase(chain, 'pending', ', pool idle', 4 * spacing, () => chain.tokenBalance),
    balanceOfCase(chain, 'pending', `, ${POOLED.toLocaleString('en-US')} txs in the pool`, 5 * spacing, (run) => (run.node.peer === 'anvil' ? spent : chain.tokenBalance), {
      prepare: fill,
    }),
  ]
}

export const distinctReadsBench: Scenario = {
  name: 'distinct',
  title: `reads with distinct inputs (a different holder every request), ${DISTINCT_HOLDERS.toLocaleString('en-US')} holders in genesis`,
  genesis: DISTINCT_GENESIS,
  anvilArgs: ['--no-mining'],
  flashnodeArgs: ['--sealing', 'manual'],
  mutatesState: true,
  readyTimeoutMs: DISTINCT_READY_TIMEOUT_MS,
  notes: () => [
    `every request names holders of the ${DISTINCT_HOLDERS.toLocaleString('en-US')} in order (each row from its own place), so an input recurs ` +
      `only after ${DISTINCT_HOLDERS.toLocaleString('en-US')} requests (simulations: 50,000 and 9,090): beyond Flashnode's call-result cache ` +
      `(10,000 entries), its state-history cache (65,536 slots, 32,768 accounts, least recently used first) and a simulation base's ` +
      `remembered reads (its first 50,000). The eth_call rows of read and pending-reads (64 holders repeating) are mostly Flashnode ` +
      `result-cache hits; these rows never are`,
    `simulation rows: warm-up ${SIMULATION_WARMUP_MS / 1000} s whatever the run's (Flashnode's simulation path tiers up in V8 over its first ` +
      `~6 s of load: its first seconds cost it 3-5x the CPU a simulation of its steady state)`,
    `pool row: Anvil's pending executes its pool (holder 0 reads 4 tokens less); Flashnode's pending is the newest pre-confirmed ` +
      `snapshot, which in manual sealing does not hold the pooled transfers yet`,
  ],
  cases,
}
