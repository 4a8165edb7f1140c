/**
 * Micro-benchmark of call frames in our EVM (src/evm/): the cost of one CALL frame end to end (the
 * interpreter's CALL, the Host's checks, journal mark, value transfer, the callee's run, the return).
 * - recursion: a contract calling itself to depth DEPTH (400; one frame per level), as one transaction;
 * - loop:      a contract CALLing a small contract (it returns one word) LOOP times in a loop, as one transaction.
 * Prints CPU µs per call frame (goal ≤ 10 µs; the library takes ~200). The world is an in-memory base under
 * a fresh WorldState per run, so every run starts cold (account loads included), as a transaction does.
 * Run: `nice node --import tsx bench/evm-calls.ts` (CPU time is the measure on a shared machine).
 */

import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { rulesFor } from '../src/evm/fork.ts'
import { assemble, blockEnvWith } from '../src/evm/test-kit.ts'
import { executeTransaction } from '../src/evm/transaction.ts'
import { Status, type BlockEnv, type TxInput } from '../src/evm/types.ts'
import { WorldState } from '../src/evm/world-state.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex } from '../src/primitives/hex.ts'
import { keccak256 } from '../src/primitives/keccak.ts'
import type { StateReader } from '../src/state/state-reader.ts'

const WARMUP = Number(process.env.WARMUP ?? 30)
const DEPTH = Number(process.env.DEPTH ?? 400)
const LOOP = Number(process.env.LOOP ?? 20_000)
const SENDER = 0x5e7d00n
const RECURSIVE = 0xaaaa00n
const LOOPER = 0xbbbb00n
const CALLEE = 0xcccc00n

// n = calldata[0]; if n == 0 stop; mem[0] = n - 1; CALL(gas, self, 0, mem[0..32], no output); stop.
const recursive = assemble(`
  PUSH1 0x00 CALLDATALOAD DUP1 ISZERO PUSH1 0x1e JUMPI
  PUSH1 0x01 SWAP1 SUB PUSH1 0x00 MSTORE
  PUSH1 0x00 PUSH1 0x00 PUSH1 0x20 PUSH1 0x00 PUSH1 0x00 ADDRESS GAS CALL POP STOP
  JUMPDEST STOP`)
// i = calldata[0]; while (i != 0) { CALL(gas, CALLEE, 0, no input, mem[0..32]); i-- }
const looper = assemble(`
  PUSH1 0x00 CALLDATALOAD
  JUMPDEST DUP1 ISZERO PUSH1 0x21 JUMPI
  PUSH1 0x20 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH3 0xcccc00 GAS CALL POP
  PUSH1 0x01 SWAP1 SUB PUSH1 0x03 JUMP
  JUMPDEST STOP`)
const callee = assemble('PUSH1 0x2a PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN')

function baseOf(codes: Map<bigint, Uint8Array>): StateReader {
  const byHash = new Map<string, Uint8Array>()
  for (const code of codes.values()) byHash.set(bytesToHex(keccak256(code)), code)
  return {
    getAccount(address) {
      const a = bytesToBigInt(address)
      if (a === SENDER) return new Account(0n, 10n ** 30n, undefined, KECCAK256_NULL)
      const code = codes.get(a)
      return code === undefined ? undefined : new Account(1n, 0n, undefined, keccak256(code))
    },
    getStorage: () => new Uint8Array(0),
    getCode: (hash) => byHash.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
}

const base = baseOf(new Map([[RECURSIVE, recursive], [LOOPER, looper], [CALLEE, callee]]))
const rules = rulesFor('cancun')
const block: BlockEnv = blockEnvWith({ coinbase: 0xc0b0n, gasLimit: 2n ** 62n, baseFee: 7n })

function txTo(to: bigint, arg: number, gasLimit: bigint): TxInput {
  return { type: 2, from: SENDER, nonce: 0n, gasLimit, to, value: 0n, data: bigIntToFixedBytes(BigInt(arg), 32), maxFeePerGas: 7n, maxPriorityFeePerGas: 0n }
}

/** CPU µs per frame of one run of `tx` (frames = call frames the transaction runs, its own included). */
function measure(name: string, tx: TxInput, frames: number, rounds: number): void {
  for (let i = 0; i < WARMUP; i++) run(tx)
  const started = process.cpuUsage()
  for (let i = 0; i < rounds; i++) run(tx)
  const cpu = process.cpuUsage(started)
  const micros = (cpu.user + cpu.system) / rounds
  console.log(`${name.padEnd(10)} ${frames} frames: ${(micros / frames).toFixed(2)} µs per call frame (${(micros / 1000).toFixed(1)} ms per transaction)`)
}

function run(tx: TxInput): void {
  const result = executeTransaction(new WorldState(base), block, rules, tx)
  if (result.status !== Status.Success) throw new Error(`transaction failed: ${result.haltReason}`)
}

// 63/64 of the gas goes down each level: enough at the top for DEPTH levels.
measure('recursion', txTo(RECURSIVE, DEPTH, BigInt(Math.ceil(200_000 * (64 / 63) ** DEPTH))), DEPTH + 1, 20)
measure('loop', txTo(LOOPER, LOOP, BigInt(LOOP) * 3_000n + 100_000n), LOOP + 1, 5)
