/**
 * The Host of one transaction: the interpreter's way to the world state (a WorldState) and to sub-frames.
 *
 * It owns the rules of running a frame, not its gas arithmetic (that is the interpreter's):
 * - call: depth limit (1024), the caller's balance for the value, account creation and value transfer (the
 *   EIP-161 touches that come with it), precompiles, the code to run (following one EIP-7702 delegation);
 * - create: depth, balance, the creator's nonce, the new address (CREATE / CREATE2), collisions (nonce, code,
 *   EIP-7610 storage), the initcode run and the code deposit (EIP-170 size, EIP-3541 0xEF, 200 gas a byte);
 * - SELFDESTRUCT per fork (EIP-6780 from Cancun).
 * Each frame takes a journal mark before its changes, keeps them on success and undoes them on a revert or a
 * halt (a halt also consumes all the frame's gas, its reserve beyond 2^53 - 1 included; a frame that does not
 * run gives its gas back, reserve included). Nothing here allocates per opcode.
 *
 * Two optional additions (observer.ts): an observer of frames, logs and self-destructs, and a precompile table
 * replacing the fork's. Without them the cost is one field check per frame, log or self-destruct; the observing
 * wrappers (observedCall, observedCreate) repeat the refusal checks for the observer's sake only.
 */

import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { Rules } from './fork.ts'
import { splitGas } from './frame-state.ts'
import { interpret } from './interpreter.ts'
import { EXECUTION_REVERTED, REFUSED_BALANCE, REFUSED_DEPTH, REFUSED_NONCE, type FrameObserver, type PrecompileTable } from './observer.ts'
import { precompileAt } from './precompiles/registry.ts'
import {
  ExecutionTimeout,
  MessageKind,
  Status,
  type ExecutionContext,
  type FrameResult,
  type Host,
  type Message,
} from './types.ts'
import { EMPTY_CODE_HASH, type WorldState } from './world-state.ts'

export const MAX_CALL_DEPTH = 1024
/** EIP-170. */
export const MAX_CODE_SIZE = 24576
export const CODE_DEPOSIT_GAS_PER_BYTE = 200
const MAX_NONCE = 2n ** 64n - 1n
const EMPTY = new Uint8Array(0)
/** How many frames run between two looks at the clock (ExecutionContext.deadline). */
const FRAMES_PER_CLOCK_CHECK = 64

export const HALT_COLLISION = 'contract address collision'
export const HALT_MAX_CODE_SIZE = 'max code size exceeded'
export const HALT_INVALID_CODE = 'invalid code: must not begin with 0xef'
export const HALT_CODE_STORE_OOG = 'contract creation code storage out of gas'
export const HALT_PRECOMPILE = 'out of gas'

/** The EIP-7702 delegate named by a designator (0xef0100 ‖ address), else undefined. */
export function parseDelegation(code: Uint8Array): bigint | undefined {
  if (code.length !== 23 || code[0] !== 0xef || code[1] !== 0x01 || code[2] !== 0x00) return undefined
  let target = 0n
  for (let i = 3; i < 23; i++) target = (target << 8n) | BigInt(code[i]!)
  return target
}

/** The designator 0xef0100 ‖ address. */
export function delegationDesignator(address: bigint): Uint8Array {
  const out = new Uint8Array(23)
  out[0] = 0xef
  out[1] = 0x01
  out.set(bigIntToFixedBytes(address, 20), 3)
  return out
}

/** CREATE: keccak(rlp([sender, nonce]))[12:]. */
export function createAddress(sender: bigint, nonce: bigint): bigint {
  const hash = keccak256(encodeRlp([bigIntToFixedBytes(sender, 20), bigIntToMinimalBytes(nonce)]))
  return bytesToBigInt(hash.subarray(12))
}

/** CREATE2 (EIP-1014): keccak(0xff ‖ sender ‖ salt ‖ keccak(initcode))[12:]. */
export function create2Address(sender: bigint, salt: bigint, initcode: Uint8Array): bigint {
  const preimage = new Uint8Array(85)
  preimage[0] = 0xff
  preimage.set(bigIntToFixedBytes(sender, 20), 1)
  preimage.set(bigIntToFixedBytes(salt, 32), 21)
  preimage.set(keccak256(initcode), 53)
  return bytesToBigInt(keccak256(preimage).subarray(12))
}

/** geth's word for why a frame's changes were undone (undefined when they were kept): observer.ts. */
function frameError(result: FrameResult): string | undefined {
  if (result.status === Status.Success) return undefined
  return result.status === Status.Revert ? EXECUTION_REVERTED : result.haltReason
}

/** A frame that did not run: all of the message's gas comes back (its reserve too). */
function failed(msg: Message): FrameResult {
  const reserve = msg.gasReserve
  return reserve === undefined ? { status: Status.Revert, gasLeft: msg.gas, output: EMPTY } : { status: Status.Revert, gasLeft: msg.gas, output: EMPTY, gasReserve: reserve }
}

function failedCreate(msg: Message): FrameResult {
  const reserve = msg.gasReserve
  return reserve === undefined
    ? { status: Status.Revert, gasLeft: msg.gas, output: EMPTY, createdAddress: 0n }
    : { status: Status.Revert, gasLeft: msg.gas, output: EMPTY, createdAddress: 0n, gasReserve: reserve }
}

/** A call that ran no code: success with all of the message's gas back. */
function untouched(msg: Message): FrameResult {
  const reserve = msg.gasReserve
  return reserve === undefined ? { status: Status.Success, gasLeft: msg.gas, output: EMPTY } : { status: Status.Success, gasLeft: msg.gas, output: EMPTY, gasReserve: reserve }
}

export class TransactionHost implements Host {
  private readonly rules: Rules
  private readonly observer: FrameObserver | undefined
  private readonly precompiles: PrecompileTable | undefined
  private framesRun = 0

  constructor(
    readonly world: WorldState,
    readonly ctx: ExecutionContext,
  ) {
    this.rules = ctx.rules
    this.observer = ctx.observer
    this.precompiles = ctx.precompiles
  }

  // --- state ------------------------------------------------------------------------------------

  exists(address: bigint): boolean {
    return this.world.exists(address)
  }

  isEmpty(address: bigint): boolean {
    return this.world.isEmpty(address)
  }

  balance(address: bigint): bigint {
    return this.world.getBalance(address)
  }

  code(address: bigint): Uint8Array {
    return this.world.getCode(address)
  }

  codeHash(address: bigint): bigint {
    const world = this.world
    if (this.rules.spuriousDragon ? world.isEmpty(address) : !world.exists(address)) return 0n
    return world.getCodeHash(address)
  }

  delegationTarget(address: bigint): bigint | undefined {
    if (!this.rules.prague) return undefined
    return parseDelegation(this.world.getCode(address))
  }

  sload(address: bigint, slot: bigint): bigint {
    return this.world.getStorage(address, slot)
  }

  originalStorage(address: bigint, slot: bigint): bigint {
    return this.world.getOriginalStorage(address, slot)
  }

  sstore(address: bigint, slot: bigint, value: bigint): void {
    this.world.setStorage(address, slot, value)
  }

  tload(address: bigint, slot: bigint): bigint {
    return this.world.getTransient(address, slot)
  }

  tstore(address: bigint, slot: bigint, value: bigint): void {
    this.world.setTransient(address, slot, value)
  }

  accessAccount(address: bigint): boolean {
    return this.world.warmAccount(address)
  }

  accessSlot(address: bigint, slot: bigint): boolean {
    return this.world.warmSlot(address, slot)
  }

  addRefund(delta: number): void {
    this.world.addRefund(delta)
  }

  log(address: bigint, topics: bigint[], data: Uint8Array): void {
    this.world.addLog({ address, topics, data })
    if (this.observer !== undefined) this.observer.log(address, topics, data)
  }

  selfDestruct(address: bigint, beneficiary: bigint): boolean {
    const world = this.world
    const already = world.isSelfDestructed(address)
    const balance = world.getBalance(address)
    if (this.observer !== undefined) this.observer.selfDestruct(address, beneficiary, balance)
    if (this.rules.cancun) {
      // EIP-6780: the balance always moves; the account goes only when created in this transaction.
      world.subBalance(address, balance)
      world.addBalance(beneficiary, balance)
      if (world.isCreatedInTx(address)) {
        world.markSelfDestructed(address)
        world.setBalance(address, 0n)
      }
    } else {
      world.addBalance(beneficiary, balance)
      world.markSelfDestructed(address)
      world.setBalance(address, 0n)
    }
    return already
  }

  blockHash(number: bigint): bigint {
    return this.ctx.block.blockHash(number)
  }

  // --- frames -----------------------------------------------------------------------------------

  private checkClock(): void {
    const deadline = this.ctx.deadline
    if (deadline !== undefined && ++this.framesRun % FRAMES_PER_CLOCK_CHECK === 0 && Date.now() > deadline) throw new ExecutionTimeout()
  }

  /** With an observer: the message being entered (the frame's own run skips the observing wrapper). */
  private entering: Message | undefined

  private observedCall(msg: Message, observer: FrameObserver): FrameResult {
    observer.enter(msg)
    // The refusals geth names (call's own checks, repeated here so the unobserved path stays as it is).
    let refusal: string | undefined
    if (msg.depth > MAX_CALL_DEPTH) refusal = REFUSED_DEPTH
    else if (msg.value !== 0n && (msg.kind === MessageKind.Call || msg.kind === MessageKind.CallCode) && this.world.getBalance(msg.caller) < msg.value) refusal = REFUSED_BALANCE
    this.entering = msg
    const result = this.call(msg)
    observer.exit(result, refusal ?? frameError(result), result.output)
    return result
  }

  private observedCreate(msg: Message, observer: FrameObserver): FrameResult {
    const world = this.world
    const nonce = world.getNonce(msg.caller)
    const address = msg.kind === MessageKind.Create2 ? create2Address(msg.caller, msg.salt ?? 0n, msg.input) : createAddress(msg.caller, nonce)
    observer.enter({ ...msg, recipient: address, codeAddress: address })
    let refusal: string | undefined
    if (msg.depth > MAX_CALL_DEPTH) refusal = REFUSED_DEPTH
    else if (msg.value !== 0n && world.getBalance(msg.caller) < msg.value) refusal = REFUSED_BALANCE
    else if (nonce >= MAX_NONCE) refusal = REFUSED_NONCE
    this.entering = msg
    const result = this.create(msg)
    // geth's return data of a create is the code it deployed (our frame's output is empty then).
    const deployed = result.status === Status.Success && result.haltReason === undefined && result.createdAddress !== undefined
    const output = deployed ? world.getCode(result.createdAddress!) : result.output
    observer.exit(result, refusal ?? frameError(result), output)
    return result
  }

  // call and create add no JS frame of their own without an observer: deep call chains (1024 frames) stay
  // within the JS stack.
  call(msg: Message): FrameResult {
    if (this.observer !== undefined && this.entering !== msg) return this.observedCall(msg, this.observer)
    this.entering = undefined
    if (msg.depth > MAX_CALL_DEPTH) return failed(msg)
    const world = this.world
    const rules = this.rules
    const kind = msg.kind
    const value = msg.value
    if (value !== 0n && (kind === MessageKind.Call || kind === MessageKind.CallCode) && world.getBalance(msg.caller) < value) {
      return failed(msg)
    }
    this.checkClock()
    const mark = world.checkpoint()
    const precompile = this.precompiles === undefined ? precompileAt(msg.codeAddress, rules) : this.precompiles.get(msg.codeAddress)
    if (kind === MessageKind.Call) {
      const recipient = msg.recipient
      if (!world.exists(recipient)) {
        // EIP-161: a value-less call to an absent account that is not a precompile creates and touches nothing.
        if (precompile === undefined && value === 0n && rules.spuriousDragon) return untouched(msg)
        world.createAccount(recipient)
      }
      if (value !== 0n) world.subBalance(msg.caller, value)
      world.addBalance(recipient, value)
    } else if (kind === MessageKind.StaticCall) {
      // A touch, as geth does (it matters only for empty accounts, which EIP-161 then deletes).
      world.addBalance(msg.recipient, 0n)
    }

    if (precompile !== undefined) {
      const r = precompile(msg.input, msg.gas, rules, this.ctx.deadline)
      if (!r.ok || r.gasUsed > msg.gas) {
        world.revertTo(mark)
        return { status: Status.Halt, gasLeft: 0, output: EMPTY, haltReason: HALT_PRECOMPILE }
      }
      const reserve = msg.gasReserve
      const gasLeft = msg.gas - r.gasUsed
      return reserve === undefined ? { status: Status.Success, gasLeft, output: r.output } : { status: Status.Success, gasLeft, output: r.output, gasReserve: reserve }
    }

    let code = world.getCode(msg.codeAddress)
    if (rules.prague && code.length === 23) {
      const delegate = parseDelegation(code)
      if (delegate !== undefined) code = world.getCode(delegate)
    }
    if (code.length === 0) return untouched(msg)

    const result = interpret(this, msg, code)
    if (result.status === Status.Success) return result
    world.revertTo(mark)
    if (result.status === Status.Halt && result.gasLeft !== 0) return { status: Status.Halt, gasLeft: 0, output: EMPTY, haltReason: result.haltReason }
    return result
  }

  create(msg: Message): FrameResult {
    if (this.observer !== undefined && this.entering !== msg) return this.observedCreate(msg, this.observer)
    this.entering = undefined
    if (msg.depth > MAX_CALL_DEPTH) return failedCreate(msg)
    const world = this.world
    const rules = this.rules
    const caller = msg.caller
    const value = msg.value
    if (value !== 0n && world.getBalance(caller) < value) return failedCreate(msg)
    const nonce = world.getNonce(caller)
    if (nonce >= MAX_NONCE) return failedCreate(msg)
    this.checkClock()
    world.setNonce(caller, nonce + 1n)
    const address = msg.kind === MessageKind.Create2 ? create2Address(caller, msg.salt ?? 0n, msg.input) : createAddress(caller, nonce)
    if (rules.berlin) world.warmAccount(address)

    const codeHash = world.getCodeHash(address)
    if (world.getNonce(address) !== 0n || (codeHash !== 0n && codeHash !== EMPTY_CODE_HASH) || world.hasStorage(address)) {
      return { status: Status.Halt, gasLeft: 0, output: EMPTY, haltReason: HALT_COLLISION, createdAddress: 0n }
    }

    const mark = world.checkpoint()
    world.createAccount(address)
    world.markCreated(address)
    if (rules.spuriousDragon) world.setNonce(address, 1n)
    if (value !== 0n) {
      world.subBalance(caller, value)
      world.addBalance(address, value)
    }

    let frame: Message = {
      kind: msg.kind,
      caller,
      recipient: address,
      codeAddress: address,
      value,
      transfersValue: msg.transfersValue,
      // The initcode runs as code; its frame's call data is empty.
      input: EMPTY,
      gas: msg.gas,
      depth: msg.depth,
      isStatic: false,
      salt: msg.salt,
    }
    if (msg.gasReserve !== undefined) frame = { ...frame, gasReserve: msg.gasReserve }
    const result = msg.input.length === 0 ? untouched(frame) : interpret(this, frame, msg.input)
    if (result.status === Status.Revert) {
      world.revertTo(mark)
      const reserve = result.gasReserve
      return reserve === undefined
        ? { status: Status.Revert, gasLeft: result.gasLeft, output: result.output, createdAddress: 0n }
        : { status: Status.Revert, gasLeft: result.gasLeft, output: result.output, createdAddress: 0n, gasReserve: reserve }
    }
    if (result.status === Status.Halt) {
      world.revertTo(mark)
      return { status: Status.Halt, gasLeft: 0, output: EMPTY, haltReason: result.haltReason, createdAddress: 0n }
    }

    const code = result.output
    let halt: string | undefined
    if (rules.spuriousDragon && code.length > MAX_CODE_SIZE) halt = HALT_MAX_CODE_SIZE
    else if (rules.london && code.length > 0 && code[0] === 0xef) halt = HALT_INVALID_CODE
    else {
      const depositCost = code.length * CODE_DEPOSIT_GAS_PER_BYTE
      const reserve = result.gasReserve
      if (reserve === undefined) {
        if (depositCost <= result.gasLeft) {
          if (code.length > 0) world.setCode(address, code)
          return { status: Status.Success, gasLeft: result.gasLeft - depositCost, output: EMPTY, createdAddress: address }
        }
      } else {
        // more than 2^53 - 1 gas left: the exact total pays the deposit
        const total = BigInt(result.gasLeft) + reserve
        if (BigInt(depositCost) <= total) {
          if (code.length > 0) world.setCode(address, code)
          const left = splitGas(total - BigInt(depositCost))
          return left.reserve === undefined
            ? { status: Status.Success, gasLeft: left.gas, output: EMPTY, createdAddress: address }
            : { status: Status.Success, gasLeft: left.gas, output: EMPTY, createdAddress: address, gasReserve: left.reserve }
        }
      }
      // Frontier: a deposit the frame cannot pay leaves the account without code, and the gas is kept; the
      // reason rides along for the transaction, which ends in it (FrameResult.haltReason), and the code not
      // deployed is the output (what geth's tracers see).
      if (!rules.homestead) return { status: Status.Success, gasLeft: result.gasLeft, output: code, createdAddress: address, haltReason: HALT_CODE_STORE_OOG }
      halt = HALT_CODE_STORE_OOG
    }
    world.revertTo(mark)
    return { status: Status.Halt, gasLeft: 0, output: EMPTY, haltReason: halt, createdAddress: 0n }
  }
}
