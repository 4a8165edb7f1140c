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

import { keccak256 } from '../primitives/keccak.ts'
import type { AccessListEntry, AuthorizationView, TransactionView } from '../chain/types.ts'
import { bigIntToMinimalBytes, ZERO_ADDRESS } from '../primitives/hex.ts'
import { encodeRlp, type RlpItem } from '../primitives/rlp-encode.ts'
import { SIM_CODES, simError } from './errors.ts'
import type { SimCall } from './types.ts'

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

const EMPTY = new Uint8Array(0)

export interface BuiltTransaction {
  /** Its EIP-2718 encoding (what the hash, the transaction root and the block size are made of). */
  readonly serialized: Uint8Array
  readonly hash: Uint8Array
}

/**
 * The unsigned transaction of a resolved call, encoded as geth builds it: gas and nonce as resolved (the gas
 * may exceed EIP-7825's cap, the nonce be 2^64 - 1), v = r = s = empty. Written with our RLP encoder
 * rather than through the library's transaction object, whose construction and checks cost ~30 µs a call
 * (call-args.test.ts holds the bytes equal to the library's for every type).
 */
export function buildTransaction(c: ResolvedCall): BuiltTransaction {
  const q = bigIntToMinimalBytes
  const to = c.to ?? EMPTY
  let fields: RlpItem[]
  if (c.type === 0) {
    fields = [q(c.nonce), q(c.gasPrice ?? 0n), q(c.gas), to, q(c.value), c.data, EMPTY, EMPTY, EMPTY]
  } else {
    const accessList = (c.accessList ?? []).map((e) => [e.address, e.storageKeys])
    fields = [q(c.chainId), q(c.nonce), q(c.maxPriorityFeePerGas), q(c.maxFeePerGas), q(c.gas), to, q(c.value), c.data, accessList]
    if (c.type === 3) fields.push(q(c.maxFeePerBlobGas ?? 0n), c.blobVersionedHashes ?? [])
    if (c.type === 4) fields.push((c.authorizationList ?? []).map((a) => [q(a.chainId), a.address, q(a.nonce), q(a.yParity), q(a.r), q(a.s)]))
    fields.push(EMPTY, EMPTY, EMPTY)
  }
  const body = encodeRlp(fields)
  let serialized = body
  if (c.type !== 0) {
    serialized = new Uint8Array(body.length + 1)
    serialized[0] = c.type
    serialized.set(body, 1)
  }
  return { serialized, hash: keccak256(serialized) }
}

/** The block's view of a simulated call's transaction (eth_simulateV1's `transactions` with full objects). */
export function callTransactionView(c: ResolvedCall, sender: Uint8Array, built: BuiltTransaction): TransactionView {
  const view: { -readonly [K in keyof TransactionView]: TransactionView[K] } = {
    hash: built.hash,
    type: c.type,
    from: sender,
    to: c.to ?? null,
    nonce: c.nonce,
    gasLimit: c.gas,
    value: c.value,
    data: c.data,
    v: 0n,
    r: 0n,
    s: 0n,
    serialized: built.serialized,
  }
  // an unsigned legacy transaction names no chain
  if (c.type === 0) {
    view.gasPrice = c.gasPrice ?? 0n
    return view
  }
  view.chainId = c.chainId
  view.accessList = c.accessList ?? []
  view.maxFeePerGas = c.maxFeePerGas
  view.maxPriorityFeePerGas = c.maxPriorityFeePerGas
  if (c.type === 3) {
    view.maxFeePerBlobGas = c.maxFeePerBlobGas ?? 0n
    view.blobVersionedHashes = c.blobVersionedHashes ?? []
  }
  if (c.type === 4) view.authorizationList = c.authorizationList ?? []
  return view
}
