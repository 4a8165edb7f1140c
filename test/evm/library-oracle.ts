/**
 * The reference our EVM is compared with: one transaction run by the EVM library (@ethereumjs/vm 10.1.3,
 * `runTx`) on a whole pre-state, answering in our own vocabulary.
 *
 *   runWithLibrary(pre: WorldSnapshot, block: BlockEnv, fork: ForkName, tx: TxInput)
 *     -> Promise<{ result: TxResult, post: WorldSnapshot, stateRoot: Uint8Array }>
 *   throws InvalidTransaction(reason) when the library refuses the transaction (reason in the library's words).
 *   An optional fifth argument hears the library's `step` event before every opcode.
 *
 * - pre/post are whole states as plain data (test/state-tests/world.ts: address -> nonce, balance, code,
 *   non-zero storage); `post` is the state after the transaction exactly as the library leaves it (fee paid
 *   to the coinbase, EIP-161 clearing done), and stateRoot its root.
 * - The transaction is not signed: the library is told the sender (tx.from), so no signature is checked.
 * - The library sees the block through a header: coinbase, number, timestamp, gas limit, base fee (from
 *   London), difficulty or, from Paris, prevRandao, and BLOBBASEFEE = block.blobBaseFee as given.
 *   BLOCKHASH asks block.blockHash. The chain id is block.chainId.
 * - TxResult from the library's answer: status Revert for a revert, Halt for any other exceptional halt
 *   (haltReason in geth's words where vm-errors.ts knows them, else the library's); `refund` is the refund
 *   actually subtracted (0 when the EIP-7623 floor decides the gas used); gasUsedBeforeRefund is intrinsic
 *   plus execution gas.
 * The state is the library's SimpleStateManager filled with the pre-state. VMs are reused (building one
 * costs more than most transactions): idle ones are kept per fork and chain id, each lent to one run at a
 * time through a StateForwarder, so concurrent runs are safe.
 */

import { createBlock } from '@ethereumjs/block'
import { Common, Mainnet, createCustomCommon, type Hardfork } from '@ethereumjs/common'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util'
import type { InterpreterStep } from '@ethereumjs/evm'
import { createVM, runTx, type VM } from '@ethereumjs/vm'
import { InvalidTransaction, Status, type BlockEnv, type Log, type TxInput, type TxResult } from '../../src/evm/types.ts'
import type { ForkName } from '../../src/evm/fork.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, bytesToHex, equalBytes } from '../../src/primitives/hex.ts'
import { lazyKzg, nativeEcrecover } from '../../src/execution/crypto.ts'
import { StateForwarder } from '../../src/execution/state-forwarder.ts'
import { stateRootOf, storageRootOf, type AccountState, type WorldSnapshot } from '../state-tests/world.ts'

export interface LibraryRun {
  readonly result: TxResult
  readonly post: WorldSnapshot
  readonly stateRoot: Uint8Array
}

const LIBRARY_FORK: Readonly<Record<ForkName, Hardfork>> = {
  frontier: 'chainstart',
  homestead: 'homestead',
  tangerineWhistle: 'tangerineWhistle',
  spuriousDragon: 'spuriousDragon',
  byzantium: 'byzantium',
  constantinople: 'petersburg',
  istanbul: 'istanbul',
  berlin: 'berlin',
  london: 'london',
  paris: 'paris',
  shanghai: 'shanghai',
  cancun: 'cancun',
  prague: 'prague',
  osaka: 'osaka',
}

interface PooledVm {
  readonly vm: VM
  readonly common: Common
  readonly state: StateForwarder<SimpleStateManager>
  /** The block whose BLOCKHASH answers the VM gives while lent. */
  block: BlockEnv | undefined
}

const idle = new Map<string, PooledVm[]>()

async function borrowVm(fork: ForkName, chainId: bigint): Promise<PooledVm> {
  const key = `${fork}:${chainId}`
  const hit = idle.get(key)?.pop()
  if (hit !== undefined) return hit
  const customCrypto = { keccak256, ecrecover: nativeEcrecover, kzg: lazyKzg }
  const hardfork = LIBRARY_FORK[fork]
  const common =
    chainId === 1n
      ? new Common({ chain: Mainnet, hardfork, customCrypto })
      : createCustomCommon({ chainId: Number(chainId) }, Mainnet, { hardfork, customCrypto })
  const state = new StateForwarder<SimpleStateManager>()
  const pooled: { vm?: VM; common: Common; state: StateForwarder<SimpleStateManager>; block: BlockEnv | undefined } = { common, state, block: undefined }
  const blockchain = {
    async getBlock(n: number) {
      const hash = bigIntToFixedBytes(pooled.block?.blockHash(BigInt(n)) ?? 0n, 32)
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => blockchain,
  }
  pooled.vm = await createVM({ common, stateManager: state, blockchain: blockchain as never })
  return pooled as PooledVm
}

function giveBack(fork: ForkName, chainId: bigint, pooled: PooledVm): void {
  const key = `${fork}:${chainId}`
  let list = idle.get(key)
  if (list === undefined) idle.set(key, (list = []))
  pooled.block = undefined
  list.push(pooled)
}

const address = (a: bigint): Address => new Address(bigIntToFixedBytes(a, 20))
const hex32 = (v: bigint): string => bytesToHex(bigIntToFixedBytes(v, 32))
const quantityOf = (v: bigint): string => `0x${v.toString(16)}`

function libraryTx(tx: TxInput, common: Common): TypedTransaction {
  const base: Record<string, unknown> = {
    type: tx.type,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    to: tx.to === undefined ? undefined : address(tx.to),
    value: tx.value,
    data: tx.data,
  }
  if (tx.type === 0 || tx.type === 1) base.gasPrice = tx.gasPrice ?? 0n
  else {
    base.maxFeePerGas = tx.maxFeePerGas ?? 0n
    base.maxPriorityFeePerGas = tx.maxPriorityFeePerGas ?? 0n
  }
  if (tx.type !== 0) base.accessList = (tx.accessList ?? []).map((e) => ({ address: bytesToHex(bigIntToFixedBytes(e.address, 20)), storageKeys: e.storageKeys.map(hex32) }))
  if (tx.type === 3) {
    base.maxFeePerBlobGas = tx.maxFeePerBlobGas ?? 0n
    base.blobVersionedHashes = (tx.blobVersionedHashes ?? []).map(hex32)
  }
  if (tx.type === 4) {
    base.authorizationList = (tx.authorizationList ?? []).map((a) => ({
      chainId: quantityOf(a.chainId),
      address: bytesToHex(bigIntToFixedBytes(a.address, 20)),
      nonce: quantityOf(a.nonce),
      yParity: quantityOf(a.yParity),
      r: quantityOf(a.r),
      s: quantityOf(a.s),
    }))
  }
  const built = createTx(base as never, { common, freeze: false }) as TypedTransaction
  const from = address(tx.from)
  Object.assign(built, { getSenderAddress: () => from })
  return built
}

function libraryBlock(block: BlockEnv, common: Common) {
  const rules = { london: common.gteHardfork('london'), paris: common.gteHardfork('paris'), cancun: common.gteHardfork('cancun') }
  const header: Record<string, unknown> = {
    coinbase: bytesToHex(bigIntToFixedBytes(block.coinbase, 20)),
    number: block.number,
    timestamp: block.timestamp,
    gasLimit: block.gasLimit,
    difficulty: rules.paris ? 0n : block.difficulty,
    mixHash: hex32(block.prevRandao),
  }
  if (rules.london) header.baseFeePerGas = block.baseFee
  if (rules.cancun) header.excessBlobGas = 0n
  const built = createBlock({ header } as never, { common, skipConsensusFormatValidation: true, freeze: false })
  const price = block.blobBaseFee
  Object.assign(built.header, { getBlobGasPrice: () => price })
  return built
}

/**
 * SimpleStateManager without state roots: pre-Byzantium receipts ask for one (the library's receipt of an
 * intermediate root, which the oracle does not report), so it answers a placeholder instead of throwing.
 */
class RootlessStateManager extends SimpleStateManager {
  override getStateRoot(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(32))
  }
}

async function fill(state: SimpleStateManager, pre: WorldSnapshot): Promise<void> {
  for (const [addr, account] of pre) {
    const a = address(addr)
    // The real storage root: the library's create-collision check (EIP-7610) reads it.
    await state.putAccount(a, new Account(account.nonce, account.balance, storageRootOf(account.storage)))
    if (account.code.length > 0) await state.putCode(a, account.code)
    for (const [slot, value] of account.storage) if (value !== 0n) await state.putStorage(a, bigIntToFixedBytes(slot, 32), bigIntToMinimalBytes(value))
  }
}

/** The state the library left, read from SimpleStateManager's top layer (its only layer after runTx). */
function readPost(state: SimpleStateManager): Map<bigint, AccountState> {
  const internals = state as unknown as {
    accountStack: Map<string, Account | undefined>[]
    codeStack: Map<string, Uint8Array>[]
    storageStack: Map<string, Uint8Array>[]
  }
  const accounts = internals.accountStack[internals.accountStack.length - 1]!
  const codes = internals.codeStack[internals.codeStack.length - 1]!
  const storage = internals.storageStack[internals.storageStack.length - 1]!
  const slotsBy = new Map<string, Map<bigint, bigint>>()
  for (const [key, value] of storage) {
    const cut = key.indexOf('_')
    const owner = key.slice(0, cut)
    const v = bytesToBigInt(value)
    if (v === 0n) continue
    let slots = slotsBy.get(owner)
    if (slots === undefined) slotsBy.set(owner, (slots = new Map()))
    slots.set(BigInt(key.slice(cut + 1)), v)
  }
  const post = new Map<bigint, AccountState>()
  for (const [owner, account] of accounts) {
    if (account === undefined) continue
    const code = equalBytes(account.codeHash, KECCAK256_NULL) ? new Uint8Array(0) : (codes.get(owner) ?? new Uint8Array(0))
    if (code.length > 0 && !equalBytes(keccak256(code), account.codeHash)) throw new Error(`library state: code of ${owner} does not match its code hash`)
    post.set(BigInt(owner), { nonce: account.nonce, balance: account.balance, code, storage: slotsBy.get(owner) ?? new Map() })
  }
  return post
}

/** The library's halt texts in geth's words (what our EVM says), so the two compare. */
const LIBRARY_HALTS: Record<string, string> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024 (1023)',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'value out of range': 'return data out of bounds',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'refund exhausted': 'refund counter below zero',
  'value overflow': 'gas uint64 overflow',
}

function haltReasonOf(error: string): string {
  return LIBRARY_HALTS[error] ?? error
}

/** Runs `tx` on `pre` with the library; see the module comment for the contract. */
export async function runWithLibrary(pre: WorldSnapshot, block: BlockEnv, fork: ForkName, tx: TxInput, onStep?: (step: InterpreterStep) => void): Promise<LibraryRun> {
  const pooled = await borrowVm(fork, block.chainId)
  // the optional listener hears the library's step event before each opcode (the struct logger's oracle)
  const listener = onStep === undefined ? undefined : (step: InterpreterStep, resolve?: () => void): void => {
    onStep(step)
    resolve?.()
  }
  if (listener !== undefined) pooled.vm.evm.events!.on('step', listener)
  try {
    return await runOn(pooled, pre, block, tx)
  } finally {
    if (listener !== undefined) pooled.vm.evm.events!.off('step', listener)
    giveBack(fork, block.chainId, pooled)
  }
}

async function runOn(pooled: PooledVm, pre: WorldSnapshot, block: BlockEnv, tx: TxInput): Promise<LibraryRun> {
  const { common, vm } = pooled
  let libTx: TypedTransaction
  try {
    libTx = libraryTx(tx, common)
  } catch (e) {
    throw new InvalidTransaction(`library refuses to build the transaction: ${(e as Error).message}`)
  }
  const state = new RootlessStateManager({ common })
  await fill(state, pre)
  pooled.state.current = state
  pooled.block = block
  const libBlock = libraryBlock(block, common)
  let run
  try {
    run = await runTx(vm, { tx: libTx, block: libBlock, skipHardForkValidation: true })
  } catch (e) {
    throw new InvalidTransaction((e as Error).message)
  }
  const exec = run.execResult
  const error = exec.exceptionError?.error
  const status = error === undefined ? Status.Success : error === 'revert' ? Status.Revert : Status.Halt
  const gasUsedBeforeRefund = exec.executionGasUsed + libTx.getIntrinsicGas()
  const quotient = common.param('maxRefundQuotient')
  const counter = run.gasRefund ?? 0n
  const cap = gasUsedBeforeRefund / quotient
  const logs: Log[] = (exec.logs ?? []).map(([a, topics, data]: [Uint8Array, Uint8Array[], Uint8Array]) => ({
    address: bytesToBigInt(a),
    topics: topics.map(bytesToBigInt),
    data,
  }))
  const result: TxResult = {
    status,
    gasUsed: run.totalGasSpent,
    gasUsedBeforeRefund,
    refund: counter < cap ? counter : cap,
    output: exec.returnValue,
    logs,
    ...(status === Status.Halt ? { haltReason: haltReasonOf(error!) } : {}),
    ...(run.createdAddress !== undefined ? { createdAddress: bytesToBigInt(run.createdAddress.bytes) } : {}),
    blobGasUsed: run.blobGasUsed ?? 0n,
  }
  const post = readPost(state)
  return { result, post, stateRoot: stateRootOf(post) }
}
