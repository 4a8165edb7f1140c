/**
 * Scenario "simulate": eth_simulateV1 throughput at `latest` (simulations per second).
 *   - 1 block × 1 call: an ERC-20 transfer;
 *   - 1 block × 100 calls: 100 ERC-20 transfers, holder i to holder i + 1, so each call's state is the
 *     previous call's result.
 * Requests cycle through 16 inputs (different senders), so a peer cannot win by caching one answer; Flashnode
 * caches no simulation results, but remembers the reads of a base's state (simulate/read-cache.ts), which the
 * 16 repeating inputs keep meeting (rows named "16 inputs repeat"; the distinct scenario has simulations that
 * never repeat). Each peer's answer is checked first: one block, every call successful and returning `true`,
 * in the order sent.
 */

import { encodeFunctionData, type Hex } from 'viem'
import { ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import type { BenchChain } from './genesis.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'

const HOLDERS = 128
const BUNDLE = 100
const VARIANTS = 16
const TRUE_WORD = `0x${'0'.repeat(63)}1`

interface SimCallResult {
  status: Hex
  returnData: Hex
}

/** Checks a peer's eth_simulateV1 answer to `params`: one block of `calls` transfers, each succeeded and returned true. */
export async function checkSimulatedTransfers(url: string, params: unknown[], calls: number): Promise<void> {
  const blocks = await rpcCall<{ calls: SimCallResult[] }[]>(url, 'eth_simulateV1', params)
  if (!Array.isArray(blocks) || blocks.length !== 1) throw new Error(`expected one simulated block, got ${JSON.stringify(blocks).slice(0, 80)}`)
  const results = blocks[0]!.calls
  if (results.length !== calls) throw new Error(`${results.length} call results for ${calls} calls`)
  const bad = results.findIndex((r) => r.status !== '0x1' || r.returnData !== TRUE_WORD)
  if (bad >= 0) throw new Error(`call ${bad}: ${JSON.stringify(results[bad])}`)
}

function transfer(chain: BenchChain, from: number, to: number): Record<string, Hex> {
  return {
    from: chain.accounts[from]!.address,
    to: chain.token,
    input: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [chain.accounts[to]!.address, 1n] }),
  }
}

/** Params of one simulation of `calls` transfers, starting at holder `first`. */
function params(chain: BenchChain, first: number, calls: number): unknown[] {
  const list = Array.from({ length: calls }, (_, i) => transfer(chain, (first + i) % HOLDERS, (first + i + 1) % HOLDERS))
  return [{ blockStateCalls: [{ calls: list }] }, 'latest']
}

function simulateCase(chain: BenchChain, calls: number, name: string): BenchCase {
  return {
    name,
    unit: 'sim/s',
    bodies: () => Array.from({ length: VARIANTS }, (_, v) => rpcBody(v + 1, 'eth_simulateV1', params(chain, v * 7, calls))),
    check: (run: CaseRun) => checkSimulatedTransfers(run.node.url, params(chain, 0, calls), calls),
  }
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  return [
    simulateCase(chain, 1, `eth_simulateV1 1 block × 1 ERC-20 transfer @latest (${VARIANTS} inputs repeat)`),
    simulateCase(chain, BUNDLE, `eth_simulateV1 1 block × ${BUNDLE} ERC-20 transfers @latest (${VARIANTS} inputs repeat)`),
  ]
}

export const simulateBench: Scenario = {
  name: 'simulate',
  title: `eth_simulateV1 at latest (simulations per second), ${HOLDERS} token holders`,
  genesis: { accounts: HOLDERS },
  cases,
}
