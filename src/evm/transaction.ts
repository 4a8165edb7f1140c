/**
 * One transaction on a WorldState: validation, gas purchase, EIP-7702 authorizations, the message, refunds,
 * fees and the end-of-transaction clean-up (self-destructs, EIP-161).
 *
 * Invariants:
 * - Validation runs first, in geth's order and with geth's words, and reads state only: an
 *   InvalidTransaction leaves the WorldState exactly as it was.
 * - Fees are bigint; the message's gas is a number (at most Number.MAX_SAFE_INTEGER) and the rest its
 *   reserve (types.ts Message.gasReserve), so gas is exact for any gas limit.
 * - An ExecutionTimeout undoes everything the transaction did before it propagates.
 * - The caller owns the block: the chain id of the transaction, the gas and blob gas already used in the block
 *   (TxOptions), block rewards and system calls.
 */

import { createRequire } from 'node:module'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { Rules } from './fork.ts'
import { splitGas } from './frame-state.ts'
import { createAddress, delegationDesignator, parseDelegation, TransactionHost } from './frames.ts'
import { precompileAddressSet } from './precompiles/registry.ts'
import { StateObservingHost } from './state-observing-host.ts'
import {
  InvalidTransaction,
  MessageKind,
  Status,
  type AccessListEntry,
  type Authorization,
  type BlockEnv,
  type ExecutionContext,
  type FrameResult,
  type TxInput,
  type TxOptions,
  type TxResult,
} from './types.ts'
import type { WorldState } from './world-state.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

export const TX_GAS = 21000n
export const TX_CREATE_GAS = 53000n
export const TX_DATA_ZERO_GAS = 4n
export const TX_DATA_NONZERO_GAS_FRONTIER = 68n
export const TX_DATA_NONZERO_GAS_ISTANBUL = 16n
export const ACCESS_LIST_ADDRESS_GAS = 2400n
export const ACCESS_LIST_SLOT_GAS = 1900n
export const INITCODE_WORD_GAS = 2n
/** EIP-7702: intrinsic cost of one authorization, and what is refunded when the authority already existed. */
export const AUTHORIZATION_GAS = 25000n
export const AUTHORIZATION_EXISTING_REFUND = 12500
/** EIP-7623: the floor's cost per token (a zero byte is one token, any other byte four). */
export const FLOOR_TOKEN_GAS = 10n
/** EIP-3860. */
export const MAX_INITCODE_SIZE = 49152
/** EIP-7825. */
export const MAX_TX_GAS = 1n << 24n
/** EIP-4844: blob gas per blob; EIP-7594 caps a transaction's blobs from Osaka. */
export const GAS_PER_BLOB = 1n << 17n
export const MAX_BLOBS_PER_TX_OSAKA = 6
const MAX_NONCE = 2n ** 64n - 1n
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const EMPTY = new Uint8Array(0)

/** Gas charged before execution: base, call data, initcode words, access list, authorizations. */
export function intrinsicGas(
  data: Uint8Array,
  isCreate: boolean,
  accessList: readonly AccessListEntry[] | undefined,
  authorizationCount: number,
  rules: Rules,
  nonZeroBytes: number = countNonZero(data),
): bigint {
  let gas = isCreate && rules.homestead ? TX_CREATE_GAS : TX_GAS
  const nonZero = BigInt(nonZeroBytes)
  const zero = BigInt(data.length) - nonZero
  gas += zero * TX_DATA_ZERO_GAS + nonZero * (rules.istanbul ? TX_DATA_NONZERO_GAS_ISTANBUL : TX_DATA_NONZERO_GAS_FRONTIER)
  if (isCreate && rules.shanghai) gas += BigInt(Math.ceil(data.length / 32)) * INITCODE_WORD_GAS
  if (accessList !== undefined) {
    for (const entry of accessList) gas += ACCESS_LIST_ADDRESS_GAS + BigInt(entry.storageKeys.length) * ACCESS_LIST_SLOT_GAS
  }
  return gas + BigInt(authorizationCount) * AUTHORIZATION_GAS
}

/** EIP-7623: the least gas a transaction pays for its call data. */
export function floorDataGas(data: Uint8Array, nonZeroBytes: number = countNonZero(data)): bigint {
  const nonZero = BigInt(nonZeroBytes)
  const tokens = BigInt(data.length) - nonZero + nonZero * 4n
  return TX_GAS + tokens * FLOOR_TOKEN_GAS
}

/**
 * The non-zero bytes of `data`, four at a time where the bytes are 4-aligned: a zero byte of a 32-bit word
 * is the one whose high bit survives ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f), and a multiply
 * sums those bits. A multicall's 13 KB of call data took ~18 µs byte by byte and ~6 µs so.
 */
export function countNonZero(data: Uint8Array): number {
  const length = data.length
  let zeros = 0
  let i = 0
  const head = Math.min(length, (4 - (data.byteOffset & 3)) & 3)
  for (; i < head; i++) if (data[i] === 0) zeros++
  const words = (length - i) >>> 2
  if (words > 0) {
    const view = new Uint32Array(data.buffer, data.byteOffset + i, words)
    for (let k = 0; k < words; k++) {
      const x = view[k]!
      const highBits = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f)
      zeros += Math.imul(highBits >>> 7, 0x01010101) >>> 24
    }
    i += words * 4
  }
  for (; i < length; i++) if (data[i] === 0) zeros++
  return length - zeros
}

function typeSupported(type: number, rules: Rules): boolean {
  switch (type) {
    case 0:
      return true
    case 1:
      return rules.berlin
    case 2:
      return rules.london
    case 3:
      return rules.cancun
    case 4:
      return rules.prague
    default:
      return false
  }
}

function hexAddress(address: bigint): string {
  return '0x' + address.toString(16).padStart(40, '0')
}

function invalid(reason: string): InvalidTransaction {
  return new InvalidTransaction(reason)
}

/** What validation works out for execution. */
interface Prepared {
  readonly effectiveGasPrice: bigint
  /** Taken from the sender before execution: gas limit × effective price + blob gas × blob base fee. */
  readonly upfront: bigint
  readonly intrinsic: bigint
  readonly floor: bigint
  readonly blobGas: bigint
}

/** geth's checks, in geth's order (state_transition.go preCheck, buyGas, then the intrinsic checks). */
function validate(world: WorldState, block: BlockEnv, rules: Rules, tx: TxInput, options: TxOptions): Prepared {
  const sender = tx.from
  // Formatted only for an error message: most transactions never need it.
  const from = (): string => hexAddress(sender)
  const isCreate = tx.to === undefined
  if (!typeSupported(tx.type, rules)) throw invalid('transaction type not supported')

  if (options.skipNonceCheck !== true) {
    const stateNonce = world.getNonce(sender)
    if (stateNonce < tx.nonce) throw invalid(`nonce too high: address ${from()}, tx: ${tx.nonce} state: ${stateNonce}`)
    if (stateNonce > tx.nonce) throw invalid(`nonce too low: address ${from()}, tx: ${tx.nonce} state: ${stateNonce}`)
    if (stateNonce >= MAX_NONCE) throw invalid(`nonce has max value: address ${from()}, nonce: ${stateNonce}`)
  }

  if (options.skipSenderCodeCheck !== true) {
    const code = world.getCode(sender)
    if (code.length > 0 && parseDelegation(code) === undefined) {
      throw invalid(`sender not an eoa: address ${from()}, codehash: 0x${world.getCodeHash(sender).toString(16).padStart(64, '0')}`)
    }
  }

  const dynamicFee = tx.type >= 2
  const feeCap = (dynamicFee ? tx.maxFeePerGas : tx.gasPrice) ?? 0n
  const tipCap = (dynamicFee ? tx.maxPriorityFeePerGas : tx.gasPrice) ?? 0n
  if (rules.london) {
    if (feeCap < tipCap) {
      throw invalid(`max priority fee per gas higher than max fee per gas: address ${from()}, maxPriorityFeePerGas: ${tipCap}, maxFeePerGas: ${feeCap}`)
    }
    if (options.skipBaseFeeCheck !== true && feeCap < block.baseFee) {
      throw invalid(`max fee per gas less than block base fee: address ${from()}, maxFeePerGas: ${feeCap}, baseFee: ${block.baseFee}`)
    }
  }

  const blobHashes = tx.type === 3 ? (tx.blobVersionedHashes ?? []) : undefined
  if (blobHashes !== undefined) {
    if (isCreate) throw invalid('blob transaction of type create')
    if (blobHashes.length === 0) throw invalid('blob transaction missing blob hashes')
    if (rules.osaka && blobHashes.length > MAX_BLOBS_PER_TX_OSAKA) {
      throw invalid(`blob transaction has too many blobs: have ${blobHashes.length}, max ${MAX_BLOBS_PER_TX_OSAKA}`)
    }
    for (let i = 0; i < blobHashes.length; i++) if (blobHashes[i]! >> 248n !== 1n) throw invalid(`blob ${i} has invalid hash version`)
  }
  const blobGas = BigInt(blobHashes?.length ?? 0) * GAS_PER_BLOB
  const maxFeePerBlobGas = tx.maxFeePerBlobGas ?? 0n
  if (rules.cancun && blobGas > 0n) {
    if (options.skipBaseFeeCheck !== true && maxFeePerBlobGas < block.blobBaseFee) {
      throw invalid(`max fee per blob gas less than block blob gas fee: address ${from()} blobGasFeeCap: ${maxFeePerBlobGas}, blobBaseFee: ${block.blobBaseFee}`)
    }
    if (blobGas + (options.blockBlobGasUsed ?? 0n) > block.maxBlobGasPerBlock) {
      throw invalid(`blob gas limit reached: have ${block.maxBlobGasPerBlock - (options.blockBlobGasUsed ?? 0n)}, want ${blobGas}`)
    }
  }

  if (tx.type === 4) {
    if (isCreate) throw invalid(`EIP-7702 transaction cannot be used to create contract (sender ${from()})`)
    if ((tx.authorizationList ?? []).length === 0) throw invalid(`EIP-7702 transaction with empty auth list (sender ${from()})`)
  }

  if (rules.osaka && options.skipTxGasCap !== true && tx.gasLimit > MAX_TX_GAS) throw invalid(`transaction gas limit too high (cap: ${MAX_TX_GAS}, tx: ${tx.gasLimit})`)

  // buyGas
  const effectiveGasPrice = rules.london && dynamicFee ? min(feeCap, block.baseFee + tipCap) : feeCap
  const skipFees = options.skipFeeCharge === true
  const extraFee = skipFees ? 0n : (options.extraUpfrontFee ?? 0n)
  let upfront = skipFees ? 0n : tx.gasLimit * effectiveGasPrice + extraFee
  let balanceNeeded = (skipFees ? 0n : tx.gasLimit * feeCap + extraFee) + tx.value
  if (rules.cancun && blobGas > 0n && !skipFees) {
    balanceNeeded += blobGas * maxFeePerBlobGas
    upfront += blobGas * block.blobBaseFee
  }
  const balance = world.getBalance(sender)
  if (balance < balanceNeeded) throw invalid(`insufficient funds for gas * price + value: address ${from()} have ${balance} want ${balanceNeeded}`)
  if (options.skipBlockGasLimit !== true && tx.gasLimit > block.gasLimit - (options.blockGasUsed ?? 0n)) throw invalid('gas limit reached')

  const nonZeroBytes = countNonZero(tx.data) // once for both charges on call data
  const intrinsic = intrinsicGas(tx.data, isCreate, tx.accessList, tx.authorizationList?.length ?? 0, rules, nonZeroBytes)
  if (tx.gasLimit < intrinsic) throw invalid(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`)
  const floor = rules.prague ? floorDataGas(tx.data, nonZeroBytes) : 0n
  if (tx.gasLimit < floor) throw invalid(`insufficient gas for floor data gas cost: have ${tx.gasLimit}, want ${floor}`)
  if (tx.value > 0n && balance - upfront < tx.value) throw invalid(`insufficient funds for transfer: address ${from()}`)
  if (rules.shanghai && isCreate && tx.data.length > MAX_INITCODE_SIZE) {
    throw invalid(`max initcode size exceeded: code size ${tx.data.length} limit ${MAX_INITCODE_SIZE}`)
  }
  return { effectiveGasPrice, upfront, intrinsic, floor, blobGas }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

/** The authority that signed an EIP-7702 authorization, or undefined when the signature is not valid. */
export function recoverAuthority(auth: Authorization): bigint | undefined {
  if (auth.yParity > 1n || auth.r === 0n || auth.s === 0n || auth.r >= SECP256K1_N || auth.s > SECP256K1_N / 2n) return undefined
  if (auth.address >> 160n !== 0n) return undefined
  const message = authorizationSigningHash(auth.chainId, auth.address, auth.nonce)
  const signature = new Uint8Array(64)
  signature.set(bigIntToFixedBytes(auth.r, 32), 0)
  signature.set(bigIntToFixedBytes(auth.s, 32), 32)
  try {
    const publicKey = secp256k1.ecdsaRecover(signature, Number(auth.yParity), message, false)
    return bytesToBigInt(keccak256(publicKey.subarray(1)).subarray(12))
  } catch {
    return undefined
  }
}

/** EIP-7702: keccak(0x05 ‖ rlp([chain_id, address, nonce])). */
export function authorizationSigningHash(chainId: bigint, address: bigint, nonce: bigint): Uint8Array {
  const body = encodeRlp([bigIntToMinimalBytes(chainId), bigIntToFixedBytes(address, 20), bigIntToMinimalBytes(nonce)])
  const preimage = new Uint8Array(body.length + 1)
  preimage[0] = 0x05
  preimage.set(body, 1)
  return keccak256(preimage)
}

/** Applies one authorization; an invalid one is skipped (EIP-7702). */
function applyAuthorization(world: WorldState, chainId: bigint, auth: Authorization): void {
  if (auth.chainId !== 0n && auth.chainId !== chainId) return
  if (auth.nonce >= MAX_NONCE) return
  const authority = recoverAuthority(auth)
  if (authority === undefined) return
  world.warmAccount(authority)
  const code = world.getCode(authority)
  if (code.length !== 0 && parseDelegation(code) === undefined) return
  if (world.getNonce(authority) !== auth.nonce) return
  if (world.exists(authority)) world.addRefund(AUTHORIZATION_EXISTING_REFUND)
  world.setNonce(authority, auth.nonce + 1n)
  world.setCode(authority, auth.address === 0n ? EMPTY : delegationDesignator(auth.address))
}

/**
 * Runs `tx` on `world` in `block` under `rules`. Throws InvalidTransaction (state untouched) when the
 * transaction may not be included, ExecutionTimeout (state untouched) past options.deadline.
 */
export function executeTransaction(world: WorldState, block: BlockEnv, rules: Rules, tx: TxInput, options: TxOptions = {}): TxResult {
  const prepared = validate(world, block, rules, tx, options)
  const sender = tx.from
  const to = tx.to
  world.beginTransaction()
  try {
    if (prepared.upfront !== 0n) world.subBalance(sender, prepared.upfront)
    if (rules.berlin) {
      world.warmAccount(sender)
      if (to !== undefined) world.warmAccount(to)
      world.prewarmAccounts(precompileAddressSet(rules))
      if (tx.accessList !== undefined) {
        for (const entry of tx.accessList) {
          world.warmAccount(entry.address)
          for (const slot of entry.storageKeys) world.warmSlot(entry.address, slot)
        }
      }
      if (rules.shanghai) world.warmAccount(block.coinbase)
    }
    const ctx: ExecutionContext = {
      rules,
      block,
      tx: { origin: sender, gasPrice: prepared.effectiveGasPrice, blobHashes: tx.blobVersionedHashes ?? [] },
      deadline: options.deadline,
      observer: options.observer,
      precompiles: options.precompiles,
      steps: options.steps,
    }
    const reads = options.observer?.state
    const host = reads === undefined ? new TransactionHost(world, ctx) : new StateObservingHost(world, ctx, reads)
    const available = tx.gasLimit - prepared.intrinsic
    const frameGas = splitGas(available)
    let result: FrameResult
    // A creation's receipt names the address whether or not the creation succeeded (as geth's does).
    let createdAddress: bigint | undefined
    if (to === undefined) {
      createdAddress = createAddress(sender, world.getNonce(sender))
      result = host.create({
        kind: MessageKind.Create,
        caller: sender,
        recipient: 0n,
        codeAddress: 0n,
        value: tx.value,
        transfersValue: true,
        input: tx.data,
        gas: frameGas.gas,
        ...(frameGas.reserve === undefined ? {} : { gasReserve: frameGas.reserve }),
        depth: 0,
        isStatic: false,
      })
    } else {
      world.setNonce(sender, world.getNonce(sender) + 1n)
      if (tx.authorizationList !== undefined) for (const auth of tx.authorizationList) applyAuthorization(world, block.chainId, auth)
      if (rules.prague) {
        const delegate = parseDelegation(world.getCode(to))
        if (delegate !== undefined) world.warmAccount(delegate)
      }
      result = host.call({
        kind: MessageKind.Call,
        caller: sender,
        recipient: to,
        codeAddress: to,
        value: tx.value,
        transfersValue: true,
        input: tx.data,
        gas: frameGas.gas,
        ...(frameGas.reserve === undefined ? {} : { gasReserve: frameGas.reserve }),
        depth: 0,
        isStatic: false,
      })
    }

    // Before Homestead a creation that could not pay its code deposit succeeds for CREATE but, as the
    // transaction itself, ends in that error (state and gas kept), as geth's ErrCodeStoreOutOfGas does.
    if (to === undefined && result.status === Status.Success && result.haltReason !== undefined) {
      result = { status: Status.Halt, gasLeft: result.gasLeft, output: EMPTY, haltReason: result.haltReason, createdAddress: result.createdAddress }
    }
    let gasLeft = BigInt(result.gasLeft) + (result.gasReserve ?? 0n)
    let gasUsedBeforeRefund = tx.gasLimit - gasLeft
    const counter = world.refund > 0 ? BigInt(world.refund) : 0n
    let refund = min(counter, gasUsedBeforeRefund / (rules.london ? 5n : 2n))
    gasLeft += refund
    if (rules.prague) {
      if (tx.gasLimit - gasLeft < prepared.floor) {
        gasLeft = tx.gasLimit - prepared.floor
        refund = 0n
      }
      if (gasUsedBeforeRefund < prepared.floor) gasUsedBeforeRefund = prepared.floor
    }
    const gasUsed = tx.gasLimit - gasLeft
    if (options.skipFeeCharge !== true) {
      world.addBalance(sender, gasLeft * prepared.effectiveGasPrice)
      const tip = rules.london ? prepared.effectiveGasPrice - block.baseFee : prepared.effectiveGasPrice
      world.addBalance(block.coinbase, tip > 0n ? gasUsed * tip : 0n)
      options.settleFees?.(gasUsed)
    }
    // geth's return data of a successful creation is the code it deployed (a frame's output is empty then).
    const output = createdAddress !== undefined && result.status === Status.Success ? world.getCode(createdAddress) : result.output
    const logs = world.endTransaction(rules.spuriousDragon)
    return {
      status: result.status,
      gasUsed,
      gasUsedBeforeRefund,
      refund,
      output,
      logs,
      haltReason: result.haltReason,
      createdAddress,
      blobGasUsed: prepared.blobGas,
    }
  } catch (e) {
    // ExecutionTimeout (or a bug): the transaction leaves no trace.
    world.discardTransaction()
    throw e
  }
}
