/**
 * A small in-memory Host for the interpreter's unit tests (not the node's: frames.ts is the real one).
 *
 * Accounts live in a Map; a frame's changes are undone by restoring a deep copy taken when the frame started
 * (simple, slow, enough for tests). Sub-calls and creates run `interpret` recursively: depth limit, balance
 * check, value transfer, CREATE/CREATE2 addresses (keccak of rlp(sender, nonce), and EIP-1014's), collision
 * check, code deposit (200 per byte). No precompiles, no EIP-7702 delegation following beyond
 * `delegationTarget` (the designator is parsed so that gas of delegated calls can be tested).
 * `assemble` turns a readable program ("PUSH1 0x01 PUSH1 0x02 ADD") into bytes.
 */

import { rulesFor, type ForkName, type Rules } from './fork.ts'
import { interpret } from './interpreter.ts'
import { opcodeName } from './opcode-names.ts'
import { MessageKind, Status, type BlockEnv, type ExecutionContext, type FrameResult, type Host, type Log, type Message } from './types.ts'
import { keccak256 } from '../primitives/keccak.ts'
// The address rules are the real host's (frames.ts): one definition, which the EIP-1014 vectors test.
import { createAddress, create2Address } from './frames.ts'
import { bigIntToFixedBytes, bytesToBigInt, hexToBytes } from '../primitives/hex.ts'

export interface TestAccount {
  nonce: bigint
  balance: bigint
  code: Uint8Array
  storage: Map<bigint, bigint>
}

interface Snapshot {
  accounts: Map<bigint, TestAccount>
  transient: Map<string, bigint>
  warmAccounts: Set<bigint>
  warmSlots: Set<string>
  refund: number
  logs: Log[]
  destructed: Set<bigint>
}

export const TEST_BLOCK: BlockEnv = {
  number: 1000n,
  timestamp: 1_700_000_000n,
  coinbase: 0xc0ffeen,
  gasLimit: 30_000_000n,
  baseFee: 7n,
  difficulty: 131072n,
  prevRandao: 0x1234n,
  blobBaseFee: 1n,
  maxBlobGasPerBlock: 786432n,
  chainId: 1n,
  blockHash: (n: bigint) => 0xb10c0000n + n,
}

/**
 * A plain block environment for tests and micro-benchmarks: block 1 at time 1, coinbase 0, 30M gas limit, no
 * base fee or difficulty, blob base fee 1, chain 1, every block hash 0; `fields` override what a test needs.
 */
export function blockEnvWith(fields: Partial<BlockEnv> = {}): BlockEnv {
  return {
    number: 1n,
    timestamp: 1n,
    coinbase: 0n,
    gasLimit: 30_000_000n,
    baseFee: 0n,
    difficulty: 0n,
    prevRandao: 0n,
    blobBaseFee: 1n,
    maxBlobGasPerBlock: 786432n,
    chainId: 1n,
    blockHash: () => 0n,
    ...fields,
  }
}

function cloneAccounts(accounts: Map<bigint, TestAccount>): Map<bigint, TestAccount> {
  const copy = new Map<bigint, TestAccount>()
  for (const [address, a] of accounts) copy.set(address, { nonce: a.nonce, balance: a.balance, code: a.code, storage: new Map(a.storage) })
  return copy
}

export class TestHost implements Host {
  readonly ctx: ExecutionContext
  accounts = new Map<bigint, TestAccount>()
  original = new Map<bigint, Map<bigint, bigint>>()
  transient = new Map<string, bigint>()
  warmAccounts = new Set<bigint>()
  warmSlots = new Set<string>()
  refund = 0
  logs: Log[] = []
  destructed = new Set<bigint>()
  calls: Message[] = []

  constructor(fork: ForkName | Rules, options: { blobHashes?: bigint[]; origin?: bigint; gasPrice?: bigint; deadline?: number } = {}) {
    const rules = typeof fork === 'string' ? rulesFor(fork) : fork
    this.ctx = {
      rules,
      block: TEST_BLOCK,
      tx: { origin: options.origin ?? 0x0a11cen, gasPrice: options.gasPrice ?? 10n, blobHashes: options.blobHashes ?? [] },
      deadline: options.deadline,
    }
  }

  setAccount(address: bigint, fields: Partial<TestAccount>): void {
    const a: TestAccount = { nonce: 0n, balance: 0n, code: new Uint8Array(0), storage: new Map(), ...fields }
    this.accounts.set(address, a)
    this.original.set(address, new Map(a.storage))
  }

  exists(address: bigint): boolean {
    return this.accounts.has(address)
  }
  isEmpty(address: bigint): boolean {
    const a = this.accounts.get(address)
    return a === undefined || (a.nonce === 0n && a.balance === 0n && a.code.length === 0)
  }
  balance(address: bigint): bigint {
    return this.accounts.get(address)?.balance ?? 0n
  }
  code(address: bigint): Uint8Array {
    return this.accounts.get(address)?.code ?? new Uint8Array(0)
  }
  codeHash(address: bigint): bigint {
    const a = this.accounts.get(address)
    if (a === undefined || (this.ctx.rules.spuriousDragon && this.isEmpty(address))) return 0n
    return bytesToBigInt(keccak256(a.code))
  }
  delegationTarget(address: bigint): bigint | undefined {
    const code = this.code(address)
    if (code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00) return bytesToBigInt(code.subarray(3))
    return undefined
  }
  sload(address: bigint, slot: bigint): bigint {
    return this.accounts.get(address)?.storage.get(slot) ?? 0n
  }
  originalStorage(address: bigint, slot: bigint): bigint {
    return this.original.get(address)?.get(slot) ?? 0n
  }
  sstore(address: bigint, slot: bigint, value: bigint): void {
    let a = this.accounts.get(address)
    if (a === undefined) {
      a = { nonce: 0n, balance: 0n, code: new Uint8Array(0), storage: new Map() }
      this.accounts.set(address, a)
    }
    a.storage.set(slot, value)
  }
  tload(address: bigint, slot: bigint): bigint {
    return this.transient.get(`${address}:${slot}`) ?? 0n
  }
  tstore(address: bigint, slot: bigint, value: bigint): void {
    this.transient.set(`${address}:${slot}`, value)
  }
  accessAccount(address: bigint): boolean {
    if (this.warmAccounts.has(address)) return false
    this.warmAccounts.add(address)
    return true
  }
  accessSlot(address: bigint, slot: bigint): boolean {
    const key = `${address}:${slot}`
    if (this.warmSlots.has(key)) return false
    this.warmSlots.add(key)
    return true
  }
  addRefund(delta: number): void {
    this.refund += delta
  }
  log(address: bigint, topics: bigint[], data: Uint8Array): void {
    this.logs.push({ address, topics, data })
  }
  selfDestruct(address: bigint, beneficiary: bigint): boolean {
    const already = this.destructed.has(address)
    const balance = this.balance(address)
    const a = this.accounts.get(address)
    if (a !== undefined) a.balance = 0n
    if (beneficiary !== address) this.credit(beneficiary, balance)
    this.destructed.add(address)
    return already
  }
  blockHash(number: bigint): bigint {
    return this.ctx.block.blockHash(number)
  }

  private credit(address: bigint, value: bigint): void {
    const a = this.accounts.get(address)
    if (a === undefined) this.setAccount(address, { balance: value })
    else a.balance += value
  }

  private snapshot(): Snapshot {
    return {
      accounts: cloneAccounts(this.accounts),
      transient: new Map(this.transient),
      warmAccounts: new Set(this.warmAccounts),
      warmSlots: new Set(this.warmSlots),
      refund: this.refund,
      logs: [...this.logs],
      destructed: new Set(this.destructed),
    }
  }

  private restore(s: Snapshot): void {
    this.accounts = s.accounts
    this.transient = s.transient
    this.warmAccounts = s.warmAccounts
    this.warmSlots = s.warmSlots
    this.refund = s.refund
    this.logs = s.logs
    this.destructed = s.destructed
  }

  /** Runs a top-level frame (or a sub-call): journaled like a sub-call. */
  call(msg: Message): FrameResult {
    this.calls.push(msg)
    if (msg.depth > 1024) return { status: Status.Revert, gasLeft: msg.gas, output: new Uint8Array(0) }
    if (msg.transfersValue && this.balance(msg.caller) < msg.value) return { status: Status.Revert, gasLeft: msg.gas, output: new Uint8Array(0) }
    const snapshot = this.snapshot()
    if (msg.transfersValue && msg.value > 0n) {
      this.accounts.get(msg.caller)!.balance -= msg.value
      this.credit(msg.recipient, msg.value)
    }
    let codeAddress = msg.codeAddress
    if (this.ctx.rules.prague) codeAddress = this.delegationTarget(codeAddress) ?? codeAddress
    const result = interpret(this, msg, this.code(codeAddress))
    if (result.status !== Status.Success) this.restore(snapshot)
    return result
  }

  create(msg: Message): FrameResult {
    this.calls.push(msg)
    const fail = { status: Status.Revert, gasLeft: msg.gas, output: new Uint8Array(0), createdAddress: 0n }
    if (msg.depth > 1024 || this.balance(msg.caller) < msg.value) return fail
    const creator = this.accounts.get(msg.caller)!
    const address = msg.kind === MessageKind.Create2 ? create2Address(msg.caller, msg.salt ?? 0n, msg.input) : createAddress(msg.caller, creator.nonce)
    creator.nonce += 1n
    const existing = this.accounts.get(address)
    if (existing !== undefined && (existing.nonce !== 0n || existing.code.length > 0)) {
      return { status: Status.Halt, gasLeft: 0, output: new Uint8Array(0), createdAddress: 0n, haltReason: 'contract address collision' }
    }
    const snapshot = this.snapshot()
    this.warmAccounts.add(address)
    this.accounts.get(msg.caller)!.balance -= msg.value
    this.setAccount(address, { nonce: this.ctx.rules.spuriousDragon ? 1n : 0n, balance: (existing?.balance ?? 0n) + msg.value })
    const result = interpret(this, { ...msg, recipient: address, codeAddress: address }, msg.input)
    if (result.status !== Status.Success) {
      this.restore(snapshot)
      return { ...result, createdAddress: 0n, output: result.status === Status.Revert ? result.output : new Uint8Array(0) }
    }
    const depositCost = 200 * result.output.length
    if (depositCost > result.gasLeft) {
      this.restore(snapshot)
      return { status: Status.Halt, gasLeft: 0, output: new Uint8Array(0), createdAddress: 0n, haltReason: 'out of gas' }
    }
    this.accounts.get(address)!.code = result.output
    return { status: Status.Success, gasLeft: result.gasLeft - depositCost, output: new Uint8Array(0), createdAddress: address }
  }
}


const OPCODES = new Map<string, number>()
for (let op = 0; op < 256; op++) {
  const name = opcodeName(op)
  if (!name.startsWith('opcode')) OPCODES.set(name, op)
}
OPCODES.set('SHA3', 0x20)

/** Assembles "PUSH1 0x01 PUSH2 0x0203 ADD" (immediates in hex, padded to the PUSH's width) or raw "0x.." bytes. */
export function assemble(source: string): Uint8Array {
  const out: number[] = []
  const tokens = source.trim().split(/\s+/).filter((t) => t.length > 0)
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    const op = OPCODES.get(token.toUpperCase())
    if (op === undefined) {
      if (!token.startsWith('0x')) throw new Error(`unknown token ${token}`)
      out.push(...hexToBytes(token))
      continue
    }
    out.push(op)
    if (op >= 0x60 && op <= 0x7f) {
      const width = op - 0x5f
      const immediate = tokens[++i]
      if (immediate === undefined) throw new Error(`${token} needs an immediate`)
      out.push(...bigIntToFixedBytes(BigInt(immediate), width))
    }
  }
  return Uint8Array.from(out)
}

export const CONTRACT = 0xc0de00n
export const SENDER = 0x5e7d00n

/**
 * Runs `code` as CONTRACT called by SENDER with `gas` (the caller and contract warm, as a transaction's
 * would be from Berlin); returns the result with the host to inspect.
 */
export function runCode(
  fork: ForkName,
  code: Uint8Array | string,
  options: { gas?: number; input?: Uint8Array; value?: bigint; isStatic?: boolean; host?: TestHost; storage?: Map<bigint, bigint> } = {},
): { result: FrameResult; host: TestHost } {
  const host = options.host ?? new TestHost(fork)
  const bytes = typeof code === 'string' ? assemble(code) : code
  if (!host.exists(SENDER)) host.setAccount(SENDER, { balance: 10n ** 20n })
  host.setAccount(CONTRACT, { code: bytes, balance: 10n ** 18n, storage: options.storage ?? new Map() })
  host.warmAccounts.add(SENDER)
  host.warmAccounts.add(CONTRACT)
  const msg: Message = {
    kind: MessageKind.Call,
    caller: SENDER,
    recipient: CONTRACT,
    codeAddress: CONTRACT,
    value: options.value ?? 0n,
    transfersValue: true,
    input: options.input ?? new Uint8Array(0),
    gas: options.gas ?? 1_000_000,
    depth: 0,
    isStatic: options.isStatic ?? false,
  }
  return { result: host.call(msg), host }
}

export { createAddress, create2Address }
