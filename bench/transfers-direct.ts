/**
 * Micro-benchmark: CPU per plain ETH transfer through one block's execution (execution/block-execution.ts:
 * executeTransaction, the block's running totals, the receipt and its trie encoding), the path every
 * sequencer flashblock takes for a transfer. Senders and recipients are all distinct, read cold from an
 * in-memory base (decoded from RLP, as the database answers), so no cache is what a row measures.
 * Run: `nice node --import tsx bench/transfers-direct.ts` (CPU time is the measure on a shared machine).
 */
import { Account, KECCAK256_NULL, createAccountFromRLP } from '@ethereumjs/util'
import { rulesFor } from '../src/evm/fork.ts'
import { blockEnvWith } from '../src/evm/test-kit.ts'
import { executeTransaction } from '../src/evm/transaction.ts'
import { Status, type BlockEnv, type TxInput } from '../src/evm/types.ts'
import { WorldState } from '../src/evm/world-state.ts'
import { bytesToBigInt } from '../src/primitives/hex.ts'
import type { StateReader } from '../src/state/state-reader.ts'

const N = 1000
const ROUNDS = Number(process.env.ROUNDS ?? 30)
const funded = new Account(0n, 10n ** 24n, undefined, KECCAK256_NULL).serialize()
const base: StateReader = {
  getAccount: (address) => (address[0] === 0x11 ? createAccountFromRLP(funded) : undefined),
  getStorage: () => new Uint8Array(0),
  getCode: () => new Uint8Array(0),
}
const rules = rulesFor('prague')
const block: BlockEnv = blockEnvWith({ coinbase: 0xc0b0n, gasLimit: 2n ** 40n, baseFee: 7n })
const txs: TxInput[] = Array.from({ length: N }, (_, i) => ({
  type: 2, from: (0x11n << 152n) | BigInt(i + 1), nonce: 0n, gasLimit: 21000n, to: (0x22n << 152n) | BigInt(i + 1), value: 1000n,
  data: new Uint8Array(0), maxFeePerGas: 100n, maxPriorityFeePerGas: 1n, accessList: [],
}))
function once(): void {
  const world = new WorldState(base)
  let used = 0n
  for (const tx of txs) {
    const r = executeTransaction(world, block, rules, tx, { blockGasUsed: used, blockBlobGasUsed: 0n })
    if (r.status !== Status.Success) throw new Error('failed')
    used += r.gasUsed
  }
  world.diff()
}
for (let i = 0; i < 5; i++) once()
const started = process.cpuUsage()
for (let i = 0; i < ROUNDS; i++) once()
const cpu = process.cpuUsage(started)
console.log(`executeTransaction, plain transfer: ${((cpu.user + cpu.system) / ROUNDS / N).toFixed(2)} µs CPU each (${N} per block, ${ROUNDS} blocks)`)
void bytesToBigInt
