/**
 * The six programs of the EVM benchmark (bench/evm-programs.ts) run straight through our EVM: each one as a
 * whole transaction (executeTransaction) on a fresh WorldState over an in-memory base, without RPC or the
 * node around it. Prints Mgas/s of CPU time per program (gas used before refunds / CPU seconds) and checks
 * each answer against the program's own expected word.
 * Run: `nice node --import tsx bench/evm-programs-direct.ts` (ROUNDS, WARMUP to change the counts; PROGRAM=<part
 * of a name> for some only).
 */

import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { rulesFor } from '../src/evm/fork.ts'
import { executeTransaction } from '../src/evm/transaction.ts'
import { Status, type BlockEnv, type TxInput } from '../src/evm/types.ts'
import { WorldState } from '../src/evm/world-state.ts'
import { bytesToBigInt, bytesToHex, hexToBytes } from '../src/primitives/hex.ts'
import { keccak256 } from '../src/primitives/keccak.ts'
import type { StateReader } from '../src/state/state-reader.ts'
import { PROGRAMS, programInput } from './evm-programs.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 5)
const SENDER = 0x5e7d00n
const CONTRACT = 0xc0de00n
const GAS_LIMIT = 30_000_000n

function baseWith(code: Uint8Array): StateReader {
  const hash = keccak256(code)
  return {
    getAccount(address) {
      const a = bytesToBigInt(address)
      if (a === SENDER) return new Account(0n, 10n ** 30n, undefined, KECCAK256_NULL)
      return a === CONTRACT ? new Account(1n, 0n, undefined, hash) : undefined
    },
    getStorage: () => new Uint8Array(0),
    getCode: (h) => (bytesToHex(h) === bytesToHex(hash) ? code : new Uint8Array(0)),
  }
}

const rules = rulesFor('prague')
const block: BlockEnv = {
  number: 1n, timestamp: 1n, coinbase: 0xc0b0n, gasLimit: GAS_LIMIT, baseFee: 7n, difficulty: 0n, prevRandao: 0n,
  blobBaseFee: 1n, maxBlobGasPerBlock: 786432n, chainId: 1n, blockHash: () => 0n,
}

const only = process.env.PROGRAM // a substring of the names to run only those

for (const program of PROGRAMS) {
  if (only !== undefined && !program.name.includes(only)) continue
  const base = baseWith(hexToBytes(program.code))
  const tx: TxInput = {
    type: 2, from: SENDER, nonce: 0n, gasLimit: GAS_LIMIT, to: CONTRACT, value: 0n,
    data: hexToBytes(programInput(program.count, 1)), maxFeePerGas: 7n, maxPriorityFeePerGas: 0n,
  }
  const expected = program.expected(program.count)
  const run = (): bigint => {
    const result = executeTransaction(new WorldState(base), block, rules, tx)
    if (result.status !== Status.Success) throw new Error(`${program.name}: ${result.haltReason ?? 'reverted'}`)
    if (bytesToHex(result.output) !== expected) throw new Error(`${program.name}: returned ${bytesToHex(result.output)}, expected ${expected}`)
    return result.gasUsedBeforeRefund
  }
  for (let i = 0; i < WARMUP; i++) run()
  let gas = 0n
  const started = process.cpuUsage()
  for (let i = 0; i < ROUNDS; i++) gas += run()
  const cpu = process.cpuUsage(started)
  const seconds = (cpu.user + cpu.system) / 1e6
  const mgas = Number(gas) / 1e6 / seconds
  console.log(`${mgas.toFixed(1).padStart(7)} Mgas/s  ${(seconds / ROUNDS * 1000).toFixed(2).padStart(7)} ms/tx  ${program.name}`)
}
