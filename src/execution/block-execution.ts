/**
 * One block on our EVM (src/evm/), shared by the sequencer's OpenBlock (block-builder.ts) and import
 * (block-runner.ts), so a block built and the same block imported run the same code:
 *
 * - open: the EIP-4788 beacon-root (Cancun) and EIP-2935 parent-hash (Prague) system calls (a missing
 *   contract is a no-op);
 * - each transaction: executeTransaction with the gas and blob gas the block has used so far; the running
 *   totals, the block's bloom and, from Prague, every log (for EIP-6110 deposits) are kept here, and each
 *   receipt's trie encoding is made at once;
 * - finish: withdrawals (Shanghai, credited in gwei × 10^9), the EIP-7685 requests (Prague: deposits from
 *   the logs of the chain's deposit contract, the EIP-7002 and EIP-7251 system calls, whose failure or
 *   missing code invalidates the block), and before the merge the miner's and uncles' rewards.
 * Roots and the header are the callers' (they differ in where the roots are computed and what is checked).
 *
 * On an OP Stack chain (an OP fork given) two hooks more, and nothing else changes: `runDeposit` runs a
 * deposit (op-deposit.ts) and its receipt is hashed in its deposit form; `run` of any other transaction
 * takes its canonical bytes and charges and settles the OP fees (op-fees.ts). Without an OP fork neither
 * hook is reached. The EVM's own OP rules (op-geth's precompile sets) come with the rules (rulesOf with the
 * OP fork). A blob transaction is refused on an OP chain (`refusal`): the OP specs (exec-engine.md, "Ecotone:
 * disable Blob-transactions") make a block holding one invalid, and a builder never selects one. And `finish`
 * makes no EIP-7685 requests on an OP chain (Isthmus's "Block Sealing": the requests hash of none).
 * Given the OP chain's configuration, `open` sets the create2Deployer's code in Canyon's activation block
 * (opstack/create2-deployer.ts). From Jovian each non-deposit transaction adds its DA footprint
 * (opstack/da-footprint.ts) to `blobGasUsed`, the header's field for it, and one that would take the block's
 * total over its gas limit may not be included (jovian/exec-engine.md "DA Footprint Block Limit").
 */

import { createHash } from 'node:crypto'
import type { BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { StateReader } from '../state/state-reader.ts'
import type { Rules } from '../evm/fork.ts'
import {
  BEACON_ROOTS_ADDRESS,
  CONSOLIDATION_QUEUE_ADDRESS,
  HISTORY_STORAGE_ADDRESS,
  runSystemCall,
  WITHDRAWAL_QUEUE_ADDRESS,
} from '../evm/system-call.ts'
import type { SystemCallMemo } from '../evm/system-call-memo.ts'
import { executeTransaction } from '../evm/transaction.ts'
import { InvalidTransaction, Status, type BlockEnv, type Log, type TxInput, type TxOptions, type TxResult } from '../evm/types.ts'
import { WorldState } from '../evm/world-state.ts'
import { blockEnvOf, rulesOf } from './evm-env.ts'
import { encodeReceiptFast } from './receipt-records.ts'
import { LogItems } from './log-items.ts'
import { BLOOM_BYTES, orBloom } from '../primitives/bloom.ts'
import { depositRequests, withType } from './deposit-requests.ts'
import { OpFees, type ChargedRollupCosts } from './op-fees.ts'
import { runDeposit, type DepositOutcome } from './op-deposit.ts'
import { opForkActive, type OpForkName } from '../opstack/forks.ts'
import type { OpChainConfig } from '../opstack/chain-config.ts'
import { CREATE2_DEPLOYER_ADDRESS, CREATE2_DEPLOYER_CODE, installsCreate2Deployer } from '../opstack/create2-deployer.ts'
import { DEPOSIT_TX_TYPE, type DepositTransaction } from '../opstack/deposit-tx.ts'
import { encodeDepositReceiptForRoot } from '../opstack/receipt-fields.ts'

const GWEI = 1_000_000_000n
const ETHER = 10n ** 18n
const EMPTY = new Uint8Array(0)
/** The bloom of a receipt without logs: shared, never written. */
const EMPTY_BLOOM = new Uint8Array(BLOOM_BYTES)

/** A receipt as receipt-records.ts and the receipts trie read it (the library's receipt shape). */
export interface BlockReceipt {
  readonly cumulativeBlockGasUsed: bigint
  readonly status?: 0 | 1
  /** Before Byzantium: the state root after the transaction (instead of a status). */
  readonly stateRoot?: Uint8Array
  readonly bitvector: Uint8Array
  readonly logs: [Uint8Array, Uint8Array[], Uint8Array][]
  readonly blobGasUsed?: bigint
  /** A deposit's receipt (OP Stack): the nonce before execution (Regolith on) and the receipt version (Canyon on). */
  readonly depositNonce?: bigint
  readonly depositReceiptVersion?: bigint
}

export interface Withdrawal {
  readonly address: bigint
  /** In gwei. */
  readonly amount: bigint
}

export interface Uncle {
  readonly number: bigint
  readonly coinbase: bigint
}

/** A block to run on the EVM. Not reusable: one instance per block. */
export class BlockExecution {
  readonly world: WorldState
  readonly env: BlockEnv
  readonly rules: Rules
  gasUsed = 0n
  blobGasUsed = 0n
  readonly bloom = new Uint8Array(BLOOM_BYTES)
  /** This block's log addresses and topics, as bytes and bloom bits (log-items.ts). */
  private readonly logItems = new LogItems()
  /** Each receipt's receipts-trie encoding, in order. */
  readonly receiptEncodings: Uint8Array[] = []
  /** Every log of the block, kept from Prague only (EIP-6110 deposits). */
  private readonly logs: Log[] = []
  /** The OP fees of the block; undefined on an Ethereum chain. */
  private readonly opFees: OpFees | undefined
  /** What the transaction `run` last ran paid beyond L2 gas (OP Stack). */
  private lastCosts: ChargedRollupCosts | undefined

  /** Jovian: the DA footprint limit applies (blobGasUsed sums the transactions' DA footprints). */
  private readonly daFootprintLimit: boolean

  constructor(
    base: StateReader,
    /** The block's header (at least its environment: number, time, coinbase, limits, fees). */
    readonly header: BlockHeader,
    blockHash: (n: bigint) => bigint,
    /** The block's OP fork on an OP Stack chain (ChainRules.opFork); undefined on Ethereum. */
    readonly opFork?: OpForkName,
    /** The OP chain's configuration (ChainRules.op), for the irregular state changes of fork activations. */
    private readonly opChain?: OpChainConfig,
  ) {
    this.world = new WorldState(base)
    this.rules = rulesOf(header.common, opFork)
    this.env = blockEnvOf(header, { blockHash })
    this.opFees = opFork === undefined ? undefined : new OpFees(opFork, this.world, this.env.baseFee)
    this.daFootprintLimit = opFork !== undefined && opForkActive(opFork, 'jovian')
  }

  /** The opening work: Canyon's create2Deployer in its activation block (OP Stack), the system calls. */
  open(parentHash: Uint8Array, beaconRoot: Uint8Array | undefined): void {
    if (this.opChain !== undefined && installsCreate2Deployer(this.opChain, this.env.timestamp)) {
      this.world.beginTransaction()
      this.world.setCode(BigInt(CREATE2_DEPLOYER_ADDRESS), CREATE2_DEPLOYER_CODE)
      this.world.endTransaction(false)
    }
    openBlock(this.world, this.env, this.rules, beaconRoot, parentHash)
  }

  /**
   * Why this block may hold no transaction of `type` whatever its fields (geth's words), or undefined: a blob
   * transaction on an OP Stack chain.
   */
  refusal(type: number): string | undefined {
    return type === 3 && this.opFork !== undefined ? TX_TYPE_NOT_SUPPORTED : undefined
  }

  /**
   * Runs one transaction into the block; throws the EVM's InvalidTransaction (state untouched) when it may not
   * be included. `extra`: a deadline, or a tracer's observers (a traced replay, execution/tracing.ts).
   */
  run(input: TxInput, extra?: Pick<TxOptions, 'deadline' | 'observer' | 'steps'>, transactionBytes?: Uint8Array): TxResult {
    const refused = this.refusal(input.type)
    if (refused !== undefined) throw new InvalidTransaction(refused)
    let options: TxOptions = { blockGasUsed: this.gasUsed, blockBlobGasUsed: this.blobGasUsed }
    let daFootprint = 0n
    if (this.opFees !== undefined) {
      // OP Stack: the L1 data fee and the operator fee, from the transaction's canonical bytes.
      if (transactionBytes === undefined) throw new Error('an OP Stack block runs a transaction with its canonical bytes')
      if (this.daFootprintLimit) {
        daFootprint = this.opFees.daFootprint(transactionBytes)
        const available = this.header.gasLimit - this.blobGasUsed
        if (daFootprint > available) throw new InvalidTransaction(`${DA_FOOTPRINT_LIMIT_REACHED}: have ${available}, want ${daFootprint}`)
      }
      this.lastCosts = undefined
      options = { ...options, ...this.opFees.forTransaction(input.from, input.gasLimit, transactionBytes, (costs) => (this.lastCosts = costs)) }
    }
    const result = executeTransaction(this.world, this.env, this.rules, input, extra === undefined ? options : { ...options, ...extra })
    this.gasUsed += result.gasUsed
    this.blobGasUsed += result.blobGasUsed + daFootprint
    if (this.rules.prague) for (const log of result.logs) this.logs.push(log)
    return result
  }

  /** What the transaction `run` just ran paid beyond L2 gas on an OP Stack chain (undefined on Ethereum). */
  get rollupCosts(): ChargedRollupCosts | undefined {
    return this.lastCosts
  }

  /**
   * Runs a deposit (OP Stack, op-deposit.ts) into the block; throws the EVM's InvalidTransaction (state
   * untouched) when the block has not the gas left for it. Its receipt comes from `depositReceipt`.
   */
  runDeposit(deposit: DepositTransaction, extra?: Pick<TxOptions, 'deadline' | 'observer' | 'steps'>): DepositOutcome {
    if (this.opFork === undefined) throw new Error('a deposit transaction outside an OP Stack chain')
    const outcome = runDeposit(this.world, this.env, this.rules, this.opFork, deposit, this.gasUsed, extra)
    this.gasUsed += outcome.result.gasUsed
    if (this.rules.prague) for (const log of outcome.result.logs) this.logs.push(log)
    return outcome
  }

  /** The receipt of the deposit `runDeposit` just ran, hashed into the receipts trie in its deposit form. */
  depositReceipt(outcome: DepositOutcome): BlockReceipt {
    const receipt = this.receipt(outcome.result, DEPOSIT_TX_TYPE, undefined, outcome.receiptExtras)
    const { depositNonce, depositReceiptVersion } = outcome.receiptExtras
    this.receiptEncodings[this.receiptEncodings.length - 1] = encodeDepositReceiptForRoot({
      status: receipt.status!,
      cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
      logsBloom: receipt.bitvector,
      logs: receipt.logs.map(([address, topics, data]) => ({ address, topics, data })),
      ...(depositNonce === undefined ? {} : { depositNonce }),
      ...(depositReceiptVersion === undefined ? {} : { depositReceiptVersion }),
    })
    return receipt
  }

  /** The receipt of the transaction `run` just ran (`stateRoot`: before Byzantium, the state root after it). */
  receipt(result: TxResult, type: number, stateRoot?: Uint8Array, deposit?: { readonly depositNonce?: bigint; readonly depositReceiptVersion?: bigint }): BlockReceipt {
    // Without logs (every plain transfer) the bloom is the shared empty one and the block's stays as it is.
    const hasLogs = result.logs.length > 0
    const bitvector = hasLogs ? new Uint8Array(BLOOM_BYTES) : EMPTY_BLOOM
    const items = this.logItems
    const logs: BlockReceipt['logs'] = hasLogs ? result.logs.map((l) => [items.address(l.address, bitvector), l.topics.map((t) => items.topic(t, bitvector)), l.data]) : []
    if (hasLogs) orBloom(this.bloom, bitvector)
    const receipt: { -readonly [K in keyof BlockReceipt]: BlockReceipt[K] } = { cumulativeBlockGasUsed: this.gasUsed, bitvector, logs }
    if (stateRoot !== undefined) receipt.stateRoot = stateRoot
    else receipt.status = result.status === Status.Success ? 1 : 0
    if (type === 3) receipt.blobGasUsed = result.blobGasUsed
    if (deposit?.depositNonce !== undefined) receipt.depositNonce = deposit.depositNonce
    if (deposit?.depositReceiptVersion !== undefined) receipt.depositReceiptVersion = deposit.depositReceiptVersion
    this.receiptEncodings.push(encodeReceiptFast(receipt, type))
    return receipt
  }

  /**
   * The closing work: withdrawals, rewards before the merge, and from Prague the EIP-7685 requests (returned:
   * type byte ‖ data each, empty ones included). Throws when a request system call fails.
   */
  finish(common: Common, withdrawals: readonly Withdrawal[], uncles: readonly Uncle[]): Uint8Array[] | undefined {
    const { world, env, rules } = this
    if (withdrawals.length > 0 || (!rules.paris && this.header.difficulty > 0n && common.consensusType() === 'pow')) {
      // Outside any transaction: one bracket, so an empty account a zero withdrawal touched is cleaned up (EIP-161).
      world.beginTransaction()
      for (const w of withdrawals) world.addBalance(w.address, w.amount * GWEI)
      if (!rules.paris && this.header.difficulty > 0n && common.consensusType() === 'pow') {
        const reward = rules.constantinople ? 2n * ETHER : rules.byzantium ? 3n * ETHER : 5n * ETHER
        for (const u of uncles) world.addBalance(u.coinbase, ((u.number + 8n - env.number) * reward) / 8n)
        world.addBalance(env.coinbase, reward + (reward / 32n) * BigInt(uncles.length))
      }
      world.endTransaction(rules.spuriousDragon)
    }
    if (!rules.prague) return undefined
    // OP Stack: EIP-7685 is no-op'd (specs isthmus/exec-engine.md, "Block Sealing"): no EIP-6110 deposit logs,
    // no EIP-7002/7251 system calls, the requests hash of no requests.
    if (this.opFork !== undefined) return []
    return [depositRequests(common, this.logs), withType(1, this.queue(WITHDRAWAL_QUEUE_ADDRESS)), withType(2, this.queue(CONSOLIDATION_QUEUE_ADDRESS))]
  }

  private queue(address: bigint): Uint8Array {
    const r = runSystemCall(this.world, this.env, this.rules, address, EMPTY)
    if (!r.hasCode) throw new Error(`system contract ${hex(address)} has no code`)
    if (!r.ok) throw new Error(`system call to ${hex(address)} failed`)
    return r.output
  }
}

/** Why a transaction stays out of a Jovian block whose DA footprint it would take over the gas limit (retryable). */
export const DA_FOOTPRINT_LIMIT_REACHED = 'DA footprint limit reached'

/** geth's ErrTxTypeNotSupported, the text op-geth's pool refuses a blob transaction with on an OP chain. */
export const TX_TYPE_NOT_SUPPORTED = 'transaction type not supported'

const hex = (a: bigint): string => '0x' + a.toString(16).padStart(40, '0')

/** A block's opening system calls (a block built, imported or simulated): beacon root (Cancun), parent hash (Prague). */
export function openBlock(world: WorldState, block: BlockEnv, rules: Rules, beaconRoot: Uint8Array | undefined, parentHash: Uint8Array, memo?: SystemCallMemo): void {
  if (rules.cancun && beaconRoot !== undefined) runSystemCall(world, block, rules, BEACON_ROOTS_ADDRESS, beaconRoot, memo)
  if (rules.prague) runSystemCall(world, block, rules, HISTORY_STORAGE_ADDRESS, parentHash, memo)
}

/** sha256 of nothing: the requests hash of a block whose requests are all empty (most blocks). */
const NO_REQUESTS_HASH = new Uint8Array(createHash('sha256').digest())

/** EIP-7685: sha256 of the sha256 of each non-empty request. */
export function requestsHash(requests: readonly Uint8Array[]): Uint8Array {
  if (requests.every((r) => r.length <= 1)) return NO_REQUESTS_HASH.slice()
  const outer = createHash('sha256')
  for (const r of requests) if (r.length > 1) outer.update(createHash('sha256').update(r).digest())
  return new Uint8Array(outer.digest())
}

/** The chain's EIP-6110 deposit contract (the genesis config's depositContractAddress; mainnet's otherwise). */
