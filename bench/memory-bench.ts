/**
 * Scenario "memory": each peer's resident memory and start time, on its own dev chain (Anvil's defaults; a
 * plain `flashnode start` on a new datadir) and on the 100,000-holder genesis of the distinct scenario, both
 * peers with their default settings. Per peer start:
 *   - start to listening: from spawn to the first eth_chainId answer. On the genesis, Flashnode opens a chain
 *     `flashnode init` made (an existing datadir); Anvil keeps no chain and builds it from the file every start;
 *   - idle RSS: VmRSS of the server process 3 s after that, nothing asked;
 *   - peak RSS: its VmHWM after a load of distinct reads (eth_call balanceOf and eth_getBalance of the 100,000
 *     holders in turn, one holder a request, concurrency 8, the run's duration). VmHWM is the peak since the
 *     process began, so a start that needs more than the load shows as the peak; the RSS at the end of the load
 *     is in the notes. On the dev chains neither the token nor the holders exist (the calls return nothing,
 *     the balances are 0): the same requests, the smallest state.
 * Memory rows compare Anvil's figure over Flashnode's (> 1: Flashnode uses less), start rows Anvil's time over
 * Flashnode's, as the other time rows do.
 */

import type { Address } from 'viem'
import { balanceOfData, distinctBodies } from './distinct-bodies.ts'
import { DISTINCT_GENESIS, DISTINCT_HOLDERS, DISTINCT_READY_TIMEOUT_MS } from './distinct-reads-bench.ts'
import type { BenchChain } from './genesis.ts'
import { runLoad } from './load.ts'
import { rpcBody } from './rpc.ts'
import type { BenchCase, Measured, Scenario, ScenarioContext } from './scenario.ts'

const SETTLE_MS = 3000
const CONCURRENCY = 8
const MB = 2 ** 20

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A figure that is one value in the rate column (MB), or one time in p50. */
function one(value: { rate?: number; ms?: number }, extras?: Record<string, number>): Measured {
  return {
    ...(value.rate === undefined ? {} : { rate: value.rate }),
    p50Ms: value.ms ?? Number.NaN,
    p99Ms: Number.NaN,
    count: 1,
    errors: 0,
    errorSamples: [],
    ...(extras === undefined ? {} : { extras }),
  }
}

/** eth_call balanceOf and eth_getBalance in turn, one holder a request, each holder once. */
function loadBodies(token: Address, holders: readonly Address[]): string[] {
  return distinctBodies(holders, 1, 0, (id, h) =>
    id % 2 === 1 ? rpcBody(id, 'eth_call', [{ to: token, data: balanceOfData(h(0)) }, 'latest']) : rpcBody(id, 'eth_getBalance', [h(0), 'latest']),
  )
}

function cases(chain: BenchChain, on: 'dev' | 'genesis', label: string, startNote: string): BenchCase[] {
  const where = { chain: on } as const
  return [
    {
      ...where,
      name: `start to listening, ${label} (${startNote})`,
      unit: '',
      compare: 'p50',
      measure: async (run) => one({ ms: run.node.readyMs }),
    },
    {
      ...where,
      name: `idle RSS, ${label} (${SETTLE_MS / 1000} s after the start)`,
      unit: 'MB',
      compare: 'lower',
      measure: async (run) => {
        await sleep(SETTLE_MS)
        const rss = run.node.rssBytes()
        if (rss === undefined) throw new Error('no VmRSS for the server process')
        return one({ rate: rss / MB })
      },
    },
    {
      ...where,
      name: `peak RSS, ${label} (VmHWM after distinct reads)`,
      unit: 'MB',
      compare: 'lower',
      concurrency: CONCURRENCY,
      measure: async (run) => {
        const load = await runLoad({
          url: run.node.url,
          bodies: loadBodies(chain.token, chain.holders),
          concurrency: CONCURRENCY,
          durationMs: run.durationMs,
          warmupMs: run.warmupMs,
        })
        const peak = run.node.peakRssBytes()
        const after = run.node.rssBytes()
        if (peak === undefined || after === undefined) throw new Error('no VmHWM or VmRSS for the server process')
        return {
          ...one({ rate: peak / MB }, { 'RSS after the load (MB)': after / MB, 'distinct reads answered (count)': load.requests - load.errors }),
          errors: load.errors,
          errorSamples: load.errorSamples,
          generatorCpuPct: load.generatorCpuPct,
          generatorCpuSeconds: load.generatorCpuSeconds,
        }
      },
    },
  ]
}

export const memoryBench: Scenario = {
  name: 'memory',
  title: `resident memory and start time, dev chain and ${DISTINCT_HOLDERS.toLocaleString('en-US')}-holder genesis, default settings`,
  genesis: DISTINCT_GENESIS,
  mutatesState: true,
  readyTimeoutMs: DISTINCT_READY_TIMEOUT_MS,
  notes: () => [
    `MB = 2^20 bytes, of the server process (Anvil's binary; Flashnode's node process, its worker threads included)`,
    `peak RSS is VmHWM, the peak since the process began (start included); "RSS after the load" is VmRSS when the load ended`,
    `the load: eth_call balanceOf and eth_getBalance of the ${DISTINCT_HOLDERS.toLocaleString('en-US')} holders in turn, one holder a request, ` +
      `concurrency ${CONCURRENCY}; on the dev chains these accounts and the token do not exist`,
  ],
  cases: ({ chain }: ScenarioContext) => [
    ...cases(chain, 'dev', 'dev chain', 'Flashnode: creates it in a new datadir'),
    ...cases(chain, 'genesis', `${DISTINCT_HOLDERS.toLocaleString('en-US')}-holder genesis`, 'Flashnode: an existing datadir; Anvil: loads the file'),
  ],
}
