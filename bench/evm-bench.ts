/**
 * Scenario "evm": the cost of the EVM itself. Each row is one program of bench/evm-programs.ts run by
 * eth_call at `latest` with its code as a state override and 3,000,000 gas; every request carries a distinct
 * second calldata word, so no result cache answers it (the work is the same each time). Each peer's answer is
 * checked first against the value recomputed here. Concurrency 2 (the machine's cores): a row is CPU-bound.
 * The last row is random programs calling each other: 12 calls into a web of random contracts as one
 * eth_simulateV1 request (bench/evm-web-case.ts), checked against our EVM run in-process.
 */

import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, Scenario } from './scenario.ts'
import { PROGRAMS, programInput, type EvmProgram } from './evm-programs.ts'
import { contractWebCase, contractWebNotes } from './evm-web-case.ts'

const TARGET = '0x00000000000000000000000000000000000e7a11'
const GAS = '0x2dc6c0'
const DISTINCT = 20_000

function params(p: EvmProgram, distinct: number): unknown[] {
  return [{ to: TARGET, data: programInput(p.count, distinct), gas: GAS }, 'latest', { [TARGET]: { code: p.code } }]
}

function programCase(p: EvmProgram): BenchCase {
  return {
    name: `EVM: ${p.name}, ~${(p.approxGas / 1e6).toFixed(1)} Mgas, eth_call with code override (distinct calldata)`,
    unit: 'calls/s',
    concurrency: 2,
    bodies: () => Array.from({ length: DISTINCT }, (_, i) => rpcBody(i + 1, 'eth_call', params(p, i + 1))),
    check: async (run) => {
      const got = await rpcCall<string>(run.node.url, 'eth_call', params(p, 0), 60_000)
      const want = p.expected(p.count)
      if (got !== want) throw new Error(`returned ${got.slice(0, 80)}, expected ${want.slice(0, 80)}`)
    },
  }
}

export const evmBench: Scenario = {
  name: 'evm',
  title: 'the EVM: programs through eth_call with a code override, 3,000,000 gas, distinct calldata (calls per second); a web of random contracts through eth_simulateV1',
  genesis: { accounts: 8 },
  cases: () => [...PROGRAMS.map(programCase), contractWebCase()],
  notes: () => [
    ...PROGRAMS.map((p) => `${p.name}: ${p.count.toLocaleString('en')} iterations, ~${p.approxGas.toLocaleString('en')} gas a call; Mgas/s = calls/s × ${(p.approxGas / 1e6).toFixed(2)}`),
    ...contractWebNotes(),
  ],
}
