/**
 * A simulated call's missing fields filled in, as geth's simulator fills them (sanitizeCall, CallDefaults,
 * ToMessage, ToTransaction), and the unsigned transaction it becomes in the block.
 *
 * Defaults: nonce from the state; gas = what is left of the block (more than is left is -38015), then cut to
 * what is left of the request's gas budget; value 0; chain id the node's (another one is refused); fees 0.
 * The transaction type follows the fields: `gasPrice` (or a block before London) makes a legacy transaction,
 * else an authorization list a set-code one, else blob hashes a blob one, else EIP-1559. The call runs with
 * the message view of those fees: a call that gives no fee pays nothing.
 *
 * The transaction is unsigned (v = r = s = 0): its hash is the keccak of its encoding, as geth's.
 */

import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import type { Common } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import type { AccessListEntry, AuthorizationView } from '../chain/types.ts'
import { bytesToHex, ZERO_ADDRESS } from '../primitives/hex.ts'
import { SIM_CODES, simError } from './errors.ts'
import type { SimCall } from './types.ts'

/** The library refuses to construct a transaction above EIP-7825's cap; geth lifts it for calls. */
const TX_GAS_CAP = 1n << 24n
/** ...and a nonce of 2^64 - 1, which geth's uint64 allows. */
const TX_NONCE_MAX = (1n << 64n) - 2n

export interface CallLimits {
  /** The block's gas still unused. */
  readonly blockGasLeft: bigint
  /** The request's gas budget still unused. */
  readonly budgetLeft: bigint
  /** The block's base fee (undefined before London). */
  readonly baseFee: bigint | undefined
  readonly chainId: bigint
}

/** A call with every field decided: what goes into the transaction and what the EVM sees. */
export interface ResolvedCall {
  readonly type: 0 | 2 | 3 | 4
  readonly from: Uint8Array
  readonly to: Uint8Array | undefined
  readonly nonce: bigint
  readonly gas: bigint
  /** The budget cut the requested gas. */
  readonly gasCapped: boolean
  readonly value: bigint
  readonly data: Uint8Array
  readonly chainId: bigint
  /** Legacy only. */
  readonly gasPrice: bigint | undefined
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
  readonly maxFeePerBlobGas: bigint | undefined
  readonly accessList: readonly AccessListEntry[] | undefined
  readonly blobVersionedHashes: readonly Uint8Array[] | undefined
  readonly authorizationList: readonly AuthorizationView[] | undefined
  /** The price the message pays per gas (0 when no fee was given). */
  readonly msgGasPrice: bigint
  readonly msgFeeCap: bigint
  readonly msgTipCap: bigint
}

export function resolveCall(call: SimCall, stateNonce: bigint, limits: CallLimits): ResolvedCall {
  const requested = call.gas ?? limits.blockGasLeft
  if (limits.blockGasLeft < requested) {
    throw simError(SIM_CODES.blockGasLimitReached, `block gas limit reached: remaining: ${limits.blockGasLeft}, required: ${requested}`)
  }
  const gas = requested > limits.budgetLeft ? limits.budgetLeft : requested
  if (call.conflictingFees === true) {
    throw simError(SIM_CODES.generic, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  if (call.chainId !== undefined && call.chainId !== limits.chainId) {
    throw simError(SIM_CODES.generic, `chainId does not match node's (have=${call.chainId}, want=${limits.chainId})`)
  }
  const london = limits.baseFee !== undefined
  const gasPrice = london ? call.gasPrice : (call.gasPrice ?? 0n)
  const maxFeePerGas = call.maxFeePerGas ?? 0n
  const maxPriorityFeePerGas = call.maxPriorityFeePerGas ?? 0n
  const type: ResolvedCall['type'] =
    gasPrice !== undefined ? 0 : call.authorizationList !== undefined ? 4 : call.blobVersionedHashes !== undefined ? 3 : 2
  let msgGasPrice: bigint
  let msgFeeCap: bigint
  let msgTipCap: bigint
  if (gasPrice !== undefined) {
    msgGasPrice = msgFeeCap = msgTipCap = gasPrice
  } else {
    msgFeeCap = maxFeePerGas
    msgTipCap = maxPriorityFeePerGas
    const price = maxPriorityFeePerGas + limits.baseFee!
    msgGasPrice = maxFeePerGas === 0n && maxPriorityFeePerGas === 0n ? 0n : price > maxFeePerGas ? maxFeePerGas : price
  }
  return {
    type,
    from: call.from ?? ZERO_ADDRESS,
    to: call.to ?? undefined,
    nonce: call.nonce ?? stateNonce,
    gas,
    gasCapped: gas < requested,
    value: call.value ?? 0n,
    data: call.data ?? new Uint8Array(0),
    chainId: limits.chainId,
    gasPrice,
    maxFeePerGas,
    maxPriorityFeePerGas,
    maxFeePerBlobGas: call.maxFeePerBlobGas ?? (call.blobVersionedHashes !== undefined ? 0n : undefined),
    accessList: call.accessList,
    blobVersionedHashes: call.blobVersionedHashes,
    authorizationList: call.authorizationList,
    msgGasPrice,
    msgFeeCap,
    msgTipCap,
  }
}

const hex = (v: bigint): string => `0x${v.toString(16)}`

export interface BuiltTransaction {
  /** The transaction as geth builds it (sender attached, gas and nonce as resolved). */
  readonly tx: TypedTransaction
  /** Its serialization (what the hash, the transaction root and the block size are made of). */
  readonly serialized: Uint8Array
  readonly hash: Uint8Array
}

/** The unsigned transaction of a resolved call, and its hash. */
export function buildTransaction(c: ResolvedCall, common: Common): BuiltTransaction {
  const accessList = (c.accessList ?? []).map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map(bytesToHex) }))
  // One object, the type's fields assigned onto it (on this runtime `{ ...base, more }` costs microseconds).
  const data: Record<string, unknown> = {
    type: c.type,
    nonce: c.nonce > TX_NONCE_MAX ? TX_NONCE_MAX : c.nonce,
    gasLimit: c.gas > TX_GAS_CAP ? TX_GAS_CAP : c.gas,
    to: c.to,
    value: c.value,
    data: c.data,
  }
  if (c.type === 0) data.gasPrice = c.gasPrice
  else {
    data.chainId = c.chainId
    data.maxFeePerGas = c.maxFeePerGas
    data.maxPriorityFeePerGas = c.maxPriorityFeePerGas
    data.accessList = accessList
  }
  switch (c.type) {
    case 3:
      data.maxFeePerBlobGas = c.maxFeePerBlobGas
      data.blobVersionedHashes = (c.blobVersionedHashes ?? []).map(bytesToHex)
      break
    case 4:
      data.authorizationList = (c.authorizationList ?? []).map((a) => ({
        chainId: hex(a.chainId),
        address: bytesToHex(a.address),
        nonce: hex(a.nonce),
        yParity: hex(a.yParity),
        r: hex(a.r),
        s: hex(a.s),
      }))
      break
  }
  const tx = createTx(data as never, { common, freeze: false }) as TypedTransaction
  const from = new Address(c.from)
  // Constructed within the library's limits, then given geth's values: the library reads these through
  // the instance (the call is unsigned; its gas may exceed the EIP-7825 cap, its nonce be 2^64 - 1).
  Object.assign(tx, { gasLimit: c.gas, nonce: c.nonce, getSenderAddress: () => from })
  const serialized = tx.serialize()
  return { tx, serialized, hash: keccak256(serialized) }
}
