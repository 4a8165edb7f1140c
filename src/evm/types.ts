/**
 * The shared vocabulary of the EVM (src/evm/): the environment a transaction runs in, a message (one call or
 * create frame), what a frame returns, the Host the interpreter reaches state and sub-calls through, and what a
 * transaction returns.
 *
 * Representation, chosen for speed in V8 and used everywhere inside src/evm/:
 * - 256-bit words, addresses (160-bit) and storage slots and values are `bigint` (an address is the number
 *   whose 20 big-endian bytes are the address; a Map keyed by bigint compares by value).
 * - Gas inside frames is a JS `number` (integral, at most 2^53 - 1); the transaction layer keeps fees and the
 *   transaction's gas limit in bigint. Gas beyond 2^53 - 1 (a gas limit above it) travels as an optional
 *   bigint reserve beside the number (Message.gasReserve, FrameResult.gasReserve), so gas stays exact.
 * - Byte strings (code, call data, return data, log data) are Uint8Array.
 * The boundary with the rest of the node (StateReader's bytes and the library's Account in, StateDiff out)
 * is crossed once, in world-state.ts.
 */

import type { Rules } from './fork.ts'
import type { FrameObserver, PrecompileTable } from './observer.ts'
import type { StepObserver } from './step-observer.ts'

/** The block a transaction runs in. Block-level system work (withdrawals, beacon root, history) is the caller's. */
export interface BlockEnv {
  readonly number: bigint
  readonly timestamp: bigint
  readonly coinbase: bigint
  readonly gasLimit: bigint
  /** EIP-1559 base fee (0n before London). */
  readonly baseFee: bigint
  /** DIFFICULTY before Paris. */
  readonly difficulty: bigint
  /** PREVRANDAO from Paris on (the header's mixHash as a number). */
  readonly prevRandao: bigint
  /** EIP-7516 BLOBBASEFEE, the blob gas price of this block (0n before Cancun). */
  readonly blobBaseFee: bigint
  /** The most blob gas a block may hold (EIP-4844/7691 and the blob schedule); 0n before Cancun. */
  readonly maxBlobGasPerBlock: bigint
  readonly chainId: bigint
  /** BLOCKHASH: the hash of block `number`, asked only for the 256 blocks before this one; 0n when unknown. */
  blockHash(number: bigint): bigint
}

/** What every frame of one transaction shares. */
export interface TxContext {
  readonly origin: bigint
  /** The effective gas price (GASPRICE). */
  readonly gasPrice: bigint
  /** EIP-4844 versioned hashes (BLOBHASH). */
  readonly blobHashes: readonly bigint[]
}

export interface ExecutionContext {
  readonly rules: Rules
  readonly block: BlockEnv
  readonly tx: TxContext
  /** Date.now() after which execution stops with ExecutionTimeout (checked every few thousand jumps and calls). */
  readonly deadline?: number
  /** Sees every frame, value move and log (observer.ts); absent on the ordinary path. */
  readonly observer?: FrameObserver
  /** Replaces the fork's precompiles for calls (observer.ts); absent on the ordinary path. */
  readonly precompiles?: PrecompileTable
  /** Sees every opcode before it runs (step-observer.ts); absent on the ordinary path. */
  readonly steps?: StepObserver
}

export const enum MessageKind {
  Call = 0,
  CallCode = 1,
  DelegateCall = 2,
  StaticCall = 3,
  Create = 4,
  Create2 = 5,
}

/** One frame to run: a call (code at codeAddress, run in recipient's context) or a create (input is initcode). */
export interface Message {
  readonly kind: MessageKind
  /** CALLER as the callee sees it. */
  readonly caller: bigint
  /** ADDRESS as the callee sees it (the storage context); for a create, filled in by the host. */
  readonly recipient: bigint
  /** Where the code comes from (differs from recipient for CALLCODE and DELEGATECALL). */
  readonly codeAddress: bigint
  /** CALLVALUE as the callee sees it. */
  readonly value: bigint
  /** Whether `value` moves from caller to recipient (false for DELEGATECALL, and for CALLCODE it moves to itself). */
  readonly transfersValue: boolean
  /** Call data, or initcode for a create. */
  readonly input: Uint8Array
  readonly gas: number
  /**
   * Gas beyond `gas` when the frame's gas exceeds Number.MAX_SAFE_INTEGER (a transaction gas limit above 2^53):
   * the frame's exact gas is gas + gasReserve. Absent (almost always) means 0n.
   */
  readonly gasReserve?: bigint
  /** 0 for the transaction's own frame. */
  readonly depth: number
  readonly isStatic: boolean
  /** CREATE2's salt. */
  readonly salt?: bigint
}

export const enum Status {
  Success = 0,
  Revert = 1,
  /** Any exceptional halt: all gas of the frame is consumed. */
  Halt = 2,
}

export interface FrameResult {
  readonly status: Status
  readonly gasLeft: number
  /** Gas left beyond `gasLeft` (a frame given more than 2^53 gas, Message.gasReserve); absent means 0n. */
  readonly gasReserve?: bigint
  /**
   * RETURN/REVERT data; empty on a halt. For a successful create: empty (the deployed code is in state), except
   * before Homestead when the deposit could not be paid (haltReason set): the code that was not deployed.
   */
  readonly output: Uint8Array
  /**
   * Why a frame halted, in geth's words ('out of gas', 'invalid opcode: opcode 0xfe not defined', 'stack underflow', ...).
   * On a successful create only before Homestead: 'contract creation code storage out of gas', the deposit it
   * could not pay (the account stays without code and the gas is kept; CREATE pushes the address, but a
   * creating transaction ends in that error, as geth's).
   */
  readonly haltReason?: string
  /** A create's new address (0n when the create failed). */
  readonly createdAddress?: bigint
}

export interface Log {
  readonly address: bigint
  readonly topics: readonly bigint[]
  readonly data: Uint8Array
}

/**
 * What the interpreter needs from the world: state reads and writes of the current transaction (all
 * journaled: a frame's revert undoes them, warm sets, refunds and logs included), and sub-frames. Gas is the
 * interpreter's business (it reads what it needs to price an operation, then asks for the operation); the
 * host never charges gas except inside the frames it runs.
 */
export interface Host {
  readonly ctx: ExecutionContext

  /** EIP-161 'exists': present in state (not necessarily non-empty). */
  exists(address: bigint): boolean
  /** EIP-161 'empty': nonce 0, balance 0, no code (true for an absent account). */
  isEmpty(address: bigint): boolean
  balance(address: bigint): bigint
  /** The account's code as stored (a 7702 delegation designator is returned as its 23 bytes). */
  code(address: bigint): Uint8Array
  /** EXTCODEHASH: 0n for an absent (or, from Spurious Dragon, empty) account, else keccak of the code. */
  codeHash(address: bigint): bigint
  /** The EIP-7702 delegate of an account whose code is a designator (0xef0100 ‖ address), else undefined. */
  delegationTarget(address: bigint): bigint | undefined

  /** Current value of a slot in this transaction. */
  sload(address: bigint, slot: bigint): bigint
  /** The slot's value at the start of the transaction (EIP-2200's original value). */
  originalStorage(address: bigint, slot: bigint): bigint
  sstore(address: bigint, slot: bigint, value: bigint): void
  tload(address: bigint, slot: bigint): bigint
  tstore(address: bigint, slot: bigint, value: bigint): void

  /** EIP-2929: warm the account; returns true when it was cold. */
  accessAccount(address: bigint): boolean
  /** EIP-2929: warm the slot; returns true when it was cold. */
  accessSlot(address: bigint, slot: bigint): boolean

  /** The refund counter (EIP-2200/3529 arithmetic is the interpreter's; it may go down). */
  addRefund(delta: number): void

  log(address: bigint, topics: bigint[], data: Uint8Array): void

  /**
   * SELFDESTRUCT of `address` in favour of `beneficiary`: moves the balance and marks or deletes per the fork
   * (EIP-6780 from Cancun). Returns true when `address` was already marked in this transaction (no second
   * pre-London refund).
   */
  selfDestruct(address: bigint, beneficiary: bigint): boolean

  /** BLOCKHASH (the interpreter checks the 256-block window; the host asks BlockEnv). */
  blockHash(number: bigint): bigint

  /**
   * Run a sub-call (kind Call, CallCode, DelegateCall, StaticCall) at msg.depth. The interpreter has charged
   * for it and passes msg.gas (stipend included). The host checks depth and the caller's balance (a failure
   * returns status Revert with gasLeft = msg.gas and empty output), transfers value, runs a precompile or the
   * code (following one EIP-7702 delegation), and reverts its journal on failure.
   */
  call(msg: Message): FrameResult
  /**
   * Run CREATE/CREATE2: the host checks depth and balance, bumps the creator's nonce, derives the address,
   * checks for a collision, runs the initcode and deposits the code (size limit, 0xEF rule, deposit cost).
   * createdAddress is 0n on failure; output is the revert data of a reverted initcode only.
   */
  create(msg: Message): FrameResult
}

/** A precompile at one address for one fork: `ok` false means failure, all gas consumed. */
/**
 * A precompiled contract. `deadline` (ExecutionContext.deadline, epoch ms) is for the few whose time is not
 * bounded well by their gas (BLAKE2F: one gas per round): they look at the clock while they run and throw
 * ExecutionTimeout past it.
 */
export type Precompile = (input: Uint8Array, gas: number, rules: Rules, deadline?: number) => { readonly ok: boolean; readonly gasUsed: number; readonly output: Uint8Array }

export interface AccessListEntry {
  readonly address: bigint
  readonly storageKeys: readonly bigint[]
}

/** An EIP-7702 authorization as signed (the transaction layer recovers its authority). */
export interface Authorization {
  readonly chainId: bigint
  readonly address: bigint
  readonly nonce: bigint
  readonly yParity: bigint
  readonly r: bigint
  readonly s: bigint
}

/** A transaction to run, its sender already recovered. Fields absent for a type are undefined. */
export interface TxInput {
  readonly type: 0 | 1 | 2 | 3 | 4
  readonly from: bigint
  readonly nonce: bigint
  readonly gasLimit: bigint
  /** undefined for a contract creation. */
  readonly to: bigint | undefined
  readonly value: bigint
  readonly data: Uint8Array
  /** Types 0 and 1. */
  readonly gasPrice?: bigint
  /** Types 2, 3 and 4. */
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  /** Type 3. */
  readonly maxFeePerBlobGas?: bigint
  readonly blobVersionedHashes?: readonly bigint[]
  readonly accessList?: readonly AccessListEntry[]
  /** Type 4. */
  readonly authorizationList?: readonly Authorization[]
}

/** Checks an eth_call or a simulation may skip (geth's rules for calls decide which: simulate/call-checks.ts). */
export interface TxOptions {
  /** Skip the sender's nonce check (the nonce is still bumped). */
  readonly skipNonceCheck?: boolean
  /** Charge nothing for gas and skip the balance check for it (the value must still be affordable). */
  readonly skipFeeCharge?: boolean
  /** Skip the fee cap vs base fee check (and the blob fee cap vs blob base fee). */
  readonly skipBaseFeeCheck?: boolean
  /** Skip EIP-3607 (a sender with code other than a delegation may not send). */
  readonly skipSenderCodeCheck?: boolean
  /** Skip EIP-7825's per-transaction gas cap (geth's eth_call and simulations do not apply it). */
  readonly skipTxGasCap?: boolean
  /** Gas already used in the block: the transaction must fit in gasLimit - blockGasUsed (default 0n). */
  readonly blockGasUsed?: bigint
  /** Skip the block gas limit check (geth's calls run in a gas pool of the gas cap, not the block's). */
  readonly skipBlockGasLimit?: boolean
  /** Blob gas already used in the block (default 0n). */
  readonly blockBlobGasUsed?: bigint
  /** Date.now() after which execution stops with ExecutionTimeout. */
  readonly deadline?: number
  /** ExecutionContext.observer for this transaction. */
  readonly observer?: FrameObserver
  /** ExecutionContext.precompiles for this transaction. */
  readonly precompiles?: PrecompileTable
  /** ExecutionContext.steps for this transaction. */
  readonly steps?: StepObserver
  /**
   * A fee charged with the gas purchase beyond gas limit × price and counted in the balance check (an L2's
   * charges for data and operation, which the caller computes: src/opstack/). Ignored with skipFeeCharge.
   */
  readonly extraUpfrontFee?: bigint
  /**
   * Called inside the transaction once the sender's gas refund and the tip are paid, with the gas used: an
   * L2's settlement of the rest of its fees (vaults, refunds of the extra fee). Not called with skipFeeCharge.
   */
  readonly settleFees?: (gasUsed: bigint) => void
}

export interface TxResult {
  readonly status: Status
  /** Gas used after refunds (and the EIP-7623 floor): what the receipt's cumulative gas adds. */
  readonly gasUsed: bigint
  /** Gas used before refunds. */
  readonly gasUsedBeforeRefund: bigint
  /** The refund given back: the counter, capped; 0 when the EIP-7623 floor decides the gas used (none is given back then). */
  readonly refund: bigint
  readonly output: Uint8Array
  readonly logs: readonly Log[]
  readonly haltReason?: string
  readonly createdAddress?: bigint
  /** Blob gas the transaction used (EIP-4844). */
  readonly blobGasUsed: bigint
}

/** A transaction that may not be included (state untouched). `reason` in geth's words ('nonce too low', ...). */
export class InvalidTransaction extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'InvalidTransaction'
  }
}

/** Execution passed its deadline (ExecutionContext.deadline); the transaction's state changes are dropped. */
export class ExecutionTimeout extends Error {
  constructor() {
    super('execution timeout')
    this.name = 'ExecutionTimeout'
  }
}
