/**
 * Wires one simulated block's EVM to what geth's simulator observes and changes, without touching the
 * library's code paths for anything else:
 *
 * - the frame events (beforeMessage / afterMessage) and the value-moving and logging opcodes feed the
 *   TransferTracer, so a call's logs come out in execution order with transfer logs interleaved;
 * - BASEFEE and BLOBBASEFEE read the simulated block's values even while a zero-fee call runs against a
 *   zero-fee environment block (geth's NoBaseFee: the call pays nothing, the opcodes still see the block).
 *
 * Opcode hooks replace entries of this EVM instance's own opcode table (the library builds one per EVM;
 * the handler signature and the table's field name are pinned to @ethereumjs/evm 10.1.3, like
 * execution/block-builder.ts). Each wrapper calls the library's handler unchanged. Hooks are inert while no
 * call is running (system calls of the block builder are not traced, as in geth). They are installed once
 * per VM and bound to each block's state and tracer (sim-vms.ts lends one VM to many blocks in turn).
 */

import type { Common } from '@ethereumjs/common'
import type { EVMResult, Message } from '@ethereumjs/evm'
import { Address, generateAddress, generateAddress2, bigIntToBytes } from '@ethereumjs/util'
import type { JournaledState } from '../state/journaled-state.ts'
import { leftPad } from '../primitives/hex.ts'
import type { TransferTracer } from './transfer-tracer.ts'

interface RunStateLike {
  readonly stack: { peek(n?: number): bigint[]; push(v: bigint): void }
  readonly memory: { read(offset: number, size: number): Uint8Array }
  readonly interpreter: { getAddress(): Address; isStatic(): boolean }
  readonly opCode: number
}

type OpHandler = (runState: RunStateLike, common: Common) => void | Promise<void>

interface OpEntry {
  readonly opcodeInfo: { readonly isAsync: boolean }
  readonly opHandler: OpHandler
  readonly gasHandler: unknown
}

interface EvmInternals {
  readonly _opcodeMap: OpEntry[]
  readonly events: { on(event: string, listener: (data: never) => void): void }
}

const STACK_LIMIT = 1024
const MAX_UINT64 = (1n << 64n) - 1n
const OP = { BASEFEE: 0x48, BLOBBASEFEE: 0x4a, LOG0: 0xa0, CREATE: 0xf0, CALL: 0xf1, CALLCODE: 0xf2, CREATE2: 0xf5, SELFDESTRUCT: 0xff }

/** What BASEFEE / BLOBBASEFEE answer while the current call runs; undefined = the environment block's. */
export interface OpcodeEnvironment {
  baseFee: bigint | undefined
  blobBaseFee: bigint | undefined
}

export class EvmHooks {
  /** True while a simulated call runs. */
  active = false
  readonly env: OpcodeEnvironment = { baseFee: undefined, blobBaseFee: undefined }
  private messages = 0
  private callcodePending = false
  private state!: JournaledState
  private tracer!: TransferTracer

  constructor(
    evm: unknown,
    private readonly homestead: boolean,
  ) {
    const internals = evm as EvmInternals
    internals.events.on('beforeMessage', (m: never) => this.beforeMessage(m as Message))
    internals.events.on('afterMessage', (r: never) => this.afterMessage(r as EVMResult))
    const table = internals._opcodeMap
    const wrap = (op: number, make: (orig: OpHandler, isAsync: boolean) => OpHandler): void => {
      const entry = table[op]
      if (entry === undefined || table[op] === table[0xfe]) return
      table[op] = { ...entry, opHandler: make(entry.opHandler, entry.opcodeInfo.isAsync) }
    }
    wrap(OP.BASEFEE, (orig) => (rs, c) => (this.env.baseFee === undefined ? orig(rs, c) : rs.stack.push(this.env.baseFee)))
    wrap(OP.BLOBBASEFEE, (orig) => (rs, c) => (this.env.blobBaseFee === undefined ? orig(rs, c) : rs.stack.push(this.env.blobBaseFee)))
    for (let n = 0; n <= 4; n++) wrap(OP.LOG0 + n, (orig) => (rs, c) => this.onLog(orig, rs, c, n))
    wrap(OP.CALL, (orig) => (rs, c) => this.onValueFrame(orig, rs, c, rs.stack.peek(3)[2]!, false))
    wrap(OP.CREATE, (orig) => (rs, c) => this.onValueFrame(orig, rs, c, rs.stack.peek(1)[0]!, true))
    wrap(OP.CREATE2, (orig) => (rs, c) => this.onValueFrame(orig, rs, c, rs.stack.peek(1)[0]!, true))
    wrap(OP.CALLCODE, (orig) => (rs, c) => this.onCallcode(orig, rs, c))
    wrap(OP.SELFDESTRUCT, (orig) => (rs, c) => this.onSelfdestruct(orig, rs, c))
  }

  /** Binds the hooks to a block's state and tracer. */
  bind(state: JournaledState, tracer: TransferTracer): void {
    this.state = state
    this.tracer = tracer
    this.active = false
    this.callcodePending = false
    this.env.baseFee = this.env.blobBaseFee = undefined
  }

  private beforeMessage(m: Message): void {
    if (!this.active) return
    this.messages++
    const callcode = this.callcodePending
    this.callcodePending = false
    const moves = !m.delegatecall && !callcode
    const to = m.to ?? (moves && m.value > 0n && this.tracer.traceTransfers ? this.createdAddress(m) : new Address(new Uint8Array(20)))
    this.tracer.enter(m.caller.bytes, to.bytes, m.value, moves)
  }

  /** The address a CREATE message deploys to (the caller's nonce is already incremented by now). */
  private createdAddress(m: Message): Address {
    if (m.salt !== undefined) return new Address(generateAddress2(m.caller.bytes, m.salt, m.data))
    const nonce = this.state.readAccount(m.caller.toString(), m.caller.bytes)?.nonce ?? 1n
    return new Address(generateAddress(m.caller.bytes, bigIntToBytes(nonce - 1n)))
  }

  private afterMessage(r: EVMResult): void {
    if (!this.active) return
    const err = r.execResult.exceptionError
    const kept = err !== undefined && !this.homestead && err.error === 'code store out of gas'
    this.tracer.exit(err !== undefined && !kept)
  }

  private onLog(orig: OpHandler, rs: RunStateLike, c: Common, topicCount: number): void {
    const [offset, size, ...topics] = rs.stack.peek(2 + topicCount)
    void orig(rs, c)
    if (!this.active) return
    const data = size === 0n ? new Uint8Array(0) : rs.memory.read(Number(offset), Number(size))
    this.tracer.log({ address: rs.interpreter.getAddress().bytes, topics: topics.map((t) => leftPad(bigIntToBytes(t), 32)), data })
  }

  /** CALL / CREATE / CREATE2: geth enters the frame (recording the transfer) before its depth and balance checks. */
  private async onValueFrame(orig: OpHandler, rs: RunStateLike, c: Common, value: bigint, create: boolean): Promise<void> {
    const before = this.messages
    await orig(rs, c)
    if (!this.active || this.messages !== before || value === 0n) return
    const self = rs.interpreter.getAddress()
    const account = this.state.readAccount(self.toString(), self.bytes)
    const failedEarly =
      this.tracer.depth >= STACK_LIMIT || (account?.balance ?? 0n) < value || (create && (account?.nonce ?? 0n) >= MAX_UINT64)
    if (failedEarly) this.tracer.abortedTransfer(value)
  }

  private async onCallcode(orig: OpHandler, rs: RunStateLike, c: Common): Promise<void> {
    this.callcodePending = true
    try {
      await orig(rs, c)
    } finally {
      this.callcodePending = false
    }
  }

  private async onSelfdestruct(orig: OpHandler, rs: RunStateLike, c: Common): Promise<void> {
    if (this.active && this.tracer.traceTransfers && !rs.interpreter.isStatic()) {
      const self = rs.interpreter.getAddress()
      const beneficiary = leftPad(bigIntToBytes(rs.stack.peek(1)[0]!), 20).subarray(-20)
      const balance = this.state.readAccount(self.toString(), self.bytes)?.balance ?? 0n
      if (balance > 0n) this.tracer.transfer(self.bytes, beneficiary, balance)
    }
    await orig(rs, c)
  }
}
