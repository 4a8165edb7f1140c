/**
 * Raw signed-transaction bytes → a `PooledTx`, in two steps so that admission can check cheap things first:
 *
 * 1. `parseTx(raw)`: one RLP decode; the fields admission needs (as bigints), the hash (keccak of the canonical
 *    bytes, as received), and the blob sidecar's shape. No signature work, no fork rules.
 * 2. `materialize(parsed, common, arrivedAt)`: the library transaction object for the pending block's fork
 *    (built from the already-decoded values; blob network wrappers go through the library's wrapper reader,
 *    which verifies the KZG proofs, 4844 or 7594 cell-proof form) and the sender, recovered ONCE here with the
 *    Common's native ecrecover. The library caches the public key; we also seed its hash cache. The gas
 *    figures admission checks (intrinsic gas, EIP-7623 floor) are computed here too, once.
 *
 * A PooledTx may also be made from a record prepared elsewhere (prepared.ts: a worker ran both steps); its
 * library object is then built only when first asked for (`libraryTx`), from the same bytes and fork.
 *
 * Invariants: `raw` is kept exactly as received (for blob transactions: the network form with the sidecar);
 * `hash` is the hash of the canonical (block-body) encoding; `cost` = gasLimit*feeCap + value +
 * blobGas*blobFeeCap (geth's tx.Cost()). A PooledTx is immutable.
 * Never: re-serialize or re-hash what is already known, touch state, or decide admission (validate.ts does).
 */

import type { NestedUint8Array } from '@ethereumjs/rlp'
import type { Common } from '@ethereumjs/common'
import {
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createBlob4844TxFromBytesArray,
  createBlob4844TxFromSerializedNetworkWrapper,
  createEOACode7702TxFromBytesArray,
  createLegacyTxFromBytesArray,
  getCalldataFloorGas,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { keccak256 } from '../primitives/keccak.ts'
import type { AccessListEntry } from '../evm/types.ts'
import type { Address } from '@ethereumjs/util'
import { bytesToBigInt, bytesToHex, type Hex } from '../primitives/hex.ts'
import { rejections, undecodable } from './messages.ts'
import { decodeRlpView, type RlpItem } from '../chain/rlp-view.ts'

/** Gas per blob (EIP-4844 GAS_PER_BLOB, unchanged by later forks). */
export const BLOB_GAS_PER_BLOB = 131_072n

export interface BlobSidecarShape {
  /** 0: one KZG proof per blob (EIP-4844); 1: 128 cell proofs per blob (EIP-7594). */
  readonly version: number
  readonly blobs: number
  readonly commitments: number
  readonly proofs: number
}

/** What admission needs to know of a transaction, available before any signature work. */
export interface TxFields {
  readonly type: number
  readonly hash: Uint8Array
  readonly hashHex: Hex
  /** The signed chain id; undefined for an unprotected (pre-EIP-155) legacy transaction. */
  readonly chainId: bigint | undefined
  readonly nonce: bigint
  readonly gasLimit: bigint
  /** maxFeePerGas, or gasPrice. */
  readonly feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice. */
  readonly tipCap: bigint
  readonly value: bigint
  readonly isCreate: boolean
  /** The recipient (20 bytes); undefined for a contract creation. */
  readonly to: Uint8Array | undefined
  readonly dataLength: number
  /** Bytes as received (geth's tx.Size(), which counts a blob sidecar). */
  readonly size: number
  readonly blobFeeCap: bigint | undefined
  readonly blobCount: number
  /** The blob sidecar, for a type-3 transaction in network form; undefined otherwise. */
  readonly sidecar: BlobSidecarShape | undefined
  readonly authorizationCount: number
  /**
   * Where the call data starts in `raw` (its `dataLength` bytes follow), for types 0, 1 and 2; -1 where this
   * record does not describe the EVM's input (types 3 and 4, or an access list only the library can judge).
   */
  readonly dataOffset: number
  /** The access list decoded (types 1 and 2); undefined when it is empty or the type has none. */
  readonly accessList: readonly AccessListEntry[] | undefined
}

export interface ParsedTx extends TxFields {
  readonly raw: Uint8Array
  /** The transaction's own RLP list (for blob transactions in network form: the inner list). */
  readonly values: NestedUint8Array
}

export interface PooledTx extends TxFields {
  /** The library object (frozen; sender public key and hash cached). May be built on first access. */
  readonly tx: TypedTransaction
  readonly raw: Uint8Array
  readonly sender: Uint8Array
  readonly senderHex: Hex
  readonly cost: bigint
  /** The library's intrinsic gas for the transaction's fork. */
  readonly intrinsicGas: bigint
  /** The EIP-7623 calldata floor (0 where the fork has no floor). */
  readonly floorDataGas: bigint
  /** The hardfork whose rules built `tx` and computed the gas figures. */
  readonly fork: string
  /** Milliseconds, from the pool's injected clock. */
  readonly arrivedAt: number
  /** Arrival order within this process (breaks ties between equal prices and equal arrival times). */
  readonly seq: number
}

const MAX_UINT64 = (1n << 64n) - 1n
let nextSeq = 0

/** Decodes the envelope and the fields. Throws -32602 `failed to decode signed transaction`, or
 * `transaction type not supported` for an unknown type byte (as geth's decoder does). */
export function parseTx(raw: Uint8Array): ParsedTx {
  if (raw.length === 0) throw undecodable()
  const first = raw[0]!
  if (first >= 0xc0) return parseLegacy(raw)
  if (first >= 0x80) throw undecodable()
  if (first < 1 || first > 4) throw rejections.typeNotSupported()
  const decoded = rlpDecode(raw.subarray(1))
  if (first === 3 && Array.isArray(decoded[0])) return parseBlobWrapper(raw, decoded)
  const hash = keccak256(raw)
  return parseTyped(first, raw, decoded, hash, undefined)
}

/**
 * Builds the library object for `common`'s fork and recovers the sender (from `senderPublicKey` when it was
 * already recovered from these bytes, e.g. on a recovery worker).
 */
export function materialize(parsed: ParsedTx, common: Common, arrivedAt: number, senderPublicKey?: Uint8Array): PooledTx {
  let tx: TypedTransaction
  try {
    tx = construct(parsed, common)
  } catch (e) {
    throw constructionError(parsed, e)
  }
  // The library computes keccak(serialize()) on demand; our hash is that value (the decoder is canonical).
  if (Object.isFrozen(tx) && tx.cache.hash === undefined) tx.cache.hash = parsed.hash
  if (senderPublicKey !== undefined) tx.cache.senderPubKey = senderPublicKey
  let address: Address
  try {
    address = tx.getSenderAddress()
  } catch {
    throw rejections.invalidSignature()
  }
  const sender = address.bytes
  // The fields written out (not spread from `parsed`): on this runtime a spread followed by more properties
  // costs microseconds, once per admitted transaction here.
  return {
    type: parsed.type,
    hash: parsed.hash,
    hashHex: parsed.hashHex,
    chainId: parsed.chainId,
    nonce: parsed.nonce,
    gasLimit: parsed.gasLimit,
    feeCap: parsed.feeCap,
    tipCap: parsed.tipCap,
    value: parsed.value,
    isCreate: parsed.isCreate,
    to: parsed.to,
    dataLength: parsed.dataLength,
    size: parsed.size,
    blobFeeCap: parsed.blobFeeCap,
    blobCount: parsed.blobCount,
    sidecar: parsed.sidecar,
    authorizationCount: parsed.authorizationCount,
    dataOffset: parsed.dataOffset,
    accessList: parsed.accessList,
    tx,
    raw: parsed.raw,
    sender,
    senderHex: bytesToHex(sender),
    cost: costOf(parsed),
    intrinsicGas: tx.getIntrinsicGas(),
    floorDataGas: getCalldataFloorGas(tx, address),
    fork: common.hardfork(),
    arrivedAt,
    seq: nextArrivalSeq(),
  }
}

/** geth's tx.Cost(): gasLimit*feeCap + value + blobGas*blobFeeCap. */
export function costOf(f: TxFields): bigint {
  const blobCost = f.blobFeeCap === undefined ? 0n : BigInt(f.blobCount) * BLOB_GAS_PER_BLOB * f.blobFeeCap
  return f.gasLimit * f.feeCap + f.value + blobCost
}

/** The next arrival number of this process (PooledTx.seq). */
export function nextArrivalSeq(): number {
  return nextSeq++
}

/**
 * The library object of `raw`, a transaction that `materialize` already built successfully for `common`
 * (elsewhere, e.g. on a worker), with its hash and signer's public key seeded. Not for blob transactions
 * in network form (their wrapper is re-verified by the library: materialize them instead).
 */
export function libraryTx(raw: Uint8Array, type: number, common: Common, hash: Uint8Array, senderPublicKey: Uint8Array): TypedTransaction {
  const values = rlpDecode(type === 0 ? raw : raw.subarray(1))
  const tx = construct({ type, raw, values, sidecar: undefined }, common)
  if (Object.isFrozen(tx) && tx.cache.hash === undefined) tx.cache.hash = hash
  tx.cache.senderPubKey = senderPublicKey
  return tx
}

/** parse + materialize, without admission checks (e.g. for tools; the pool runs validate.ts in between). */
export function decodeTx(raw: Uint8Array, common: Common, arrivedAt = 0): PooledTx {
  return materialize(parseTx(raw), common, arrivedAt)
}

function construct(p: Pick<ParsedTx, 'type' | 'raw' | 'values' | 'sidecar'>, common: Common): TypedTransaction {
  const opts = { common }
  const values = p.values as never
  switch (p.type) {
    case 0:
      return createLegacyTxFromBytesArray(values, opts)
    case 1:
      return createAccessList2930TxFromBytesArray(values, opts)
    case 2:
      return create1559FeeMarketTxFromBytesArray(values, opts)
    case 3:
      return p.sidecar === undefined
        ? createBlob4844TxFromBytesArray(values, opts)
        : createBlob4844TxFromSerializedNetworkWrapper(p.raw, opts)
    default:
      return createEOACode7702TxFromBytesArray(values, opts)
  }
}

function constructionError(p: ParsedTx, e: unknown): Error {
  const message = e instanceof Error ? e.message : String(e)
  if (/y-parity|signature|EIP155-based V|v value/i.test(message)) return rejections.invalidSignature()
  if (p.sidecar !== undefined && /KZG|blob|commitment|versionedHash|proof/i.test(message)) {
    return rejections.kzg(message.replace(/ \(tx .*\)$/, ''))
  }
  return undecodable()
}

/**
 * The RLP list of a transaction, its byte strings views of `bytes` (chain/rlp-view.ts: as strict as the
 * library's decoder, which copied every field: ~3 µs of a transfer's decoding). `bytes` is the raw
 * transaction, kept unchanged for as long as the transaction lives, so views of it are safe.
 */
function rlpDecode(bytes: Uint8Array): NestedUint8Array {
  let decoded: RlpItem
  try {
    decoded = decodeRlpView(bytes)
  } catch {
    throw undecodable()
  }
  if (!Array.isArray(decoded)) throw undecodable()
  return decoded as NestedUint8Array
}

function bytesAt(list: NestedUint8Array, i: number): Uint8Array {
  const item = list[i]
  if (!(item instanceof Uint8Array)) throw undecodable()
  return item
}

function listAt(list: NestedUint8Array, i: number): NestedUint8Array {
  const item = list[i]
  if (!Array.isArray(item)) throw undecodable()
  return item
}

/** A canonical unsigned integer of at most `maxBytes` bytes (geth rejects leading zeros and overflow). */
function uintAt(list: NestedUint8Array, i: number, maxBytes: number): bigint {
  const b = bytesAt(list, i)
  if (b.length > maxBytes || (b.length > 0 && b[0] === 0)) throw undecodable()
  return bytesToBigInt(b) // empty is 0
}

/** The recipient, or undefined for a creation (an empty field). */
function toAt(list: NestedUint8Array, i: number): Uint8Array | undefined {
  const to = bytesAt(list, i)
  if (to.length !== 0 && to.length !== 20) throw undecodable()
  return to.length === 0 ? undefined : to
}

function parseLegacy(raw: Uint8Array): ParsedTx {
  const v = rlpDecode(raw)
  if (v.length !== 9) throw undecodable()
  const gasPrice = uintAt(v, 1, 32)
  const sigV = uintAt(v, 6, 32)
  uintAt(v, 7, 32)
  uintAt(v, 8, 32)
  const hash = keccak256(raw)
  const to = toAt(v, 3)
  return {
    type: 0,
    hash,
    hashHex: bytesToHex(hash),
    chainId: legacyChainId(sigV),
    nonce: uintAt(v, 0, 8),
    gasLimit: uintAt(v, 2, 8),
    feeCap: gasPrice,
    tipCap: gasPrice,
    value: uintAt(v, 4, 32),
    isCreate: to === undefined,
    to,
    dataLength: bytesAt(v, 5).length,
    size: raw.length,
    blobFeeCap: undefined,
    blobCount: 0,
    sidecar: undefined,
    authorizationCount: 0,
    dataOffset: offsetIn(raw, bytesAt(v, 5)),
    accessList: undefined,
    raw,
    values: v,
  }
}

/** geth's deriveChainId: v 27/28 (and 0/1) are unprotected; otherwise (v-35)/2 in uint64 arithmetic. */
function legacyChainId(v: bigint): bigint | undefined {
  if (v === 27n || v === 28n || v === 0n || v === 1n) return undefined
  if (v <= MAX_UINT64) return ((v - 35n) & MAX_UINT64) / 2n
  return (v - 35n) / 2n
}

const TYPED_LENGTH: Record<number, number> = { 1: 11, 2: 12, 3: 14, 4: 13 }

function parseTyped(
  type: number,
  raw: Uint8Array,
  v: NestedUint8Array,
  hash: Uint8Array,
  sidecar: BlobSidecarShape | undefined,
): ParsedTx {
  if (v.length !== TYPED_LENGTH[type]) throw undecodable()
  const dynamic = type !== 1
  // Field positions after the fee fields shift by one for the dynamic-fee types.
  const o = dynamic ? 1 : 0
  const tipCap = uintAt(v, 2, 32)
  const feeCap = dynamic ? uintAt(v, 3, 32) : tipCap
  listAt(v, 7 + o) // access list
  // Blob and set-code transactions have a plain address `to` in geth: an empty one does not decode.
  const to = toAt(v, 4 + o)
  const isCreate = to === undefined
  if (isCreate && type >= 3) throw undecodable()
  const ySlot = v.length - 3
  uintAt(v, ySlot, 32)
  uintAt(v, ySlot + 1, 32)
  uintAt(v, ySlot + 2, 32)
  const accessList = type <= 2 ? accessListOf(v[7 + o] as NestedUint8Array) : null
  return {
    type,
    hash,
    hashHex: bytesToHex(hash),
    chainId: uintAt(v, 0, 32),
    nonce: uintAt(v, 1, 8),
    gasLimit: uintAt(v, 3 + o, 8),
    feeCap,
    tipCap,
    value: uintAt(v, 5 + o, 32),
    isCreate,
    to,
    dataLength: bytesAt(v, 6 + o).length,
    size: raw.length,
    blobFeeCap: type === 3 ? uintAt(v, 9, 32) : undefined,
    blobCount: type === 3 ? listAt(v, 10).length : 0,
    sidecar,
    authorizationCount: type === 4 ? listAt(v, 9).length : 0,
    dataOffset: accessList === null ? -1 : offsetIn(raw, bytesAt(v, 6 + o)),
    accessList: accessList ?? undefined,
    raw,
    values: v,
  }
}

/** `0x03 || rlp([tx, version?, blobs, commitments, proofs])`; the hash covers `0x03 || rlp(tx)` only. */
function parseBlobWrapper(raw: Uint8Array, outer: NestedUint8Array): ParsedTx {
  let version = 0
  let rest: NestedUint8Array
  if (outer.length === 5) {
    const vb = bytesAt(outer, 1)
    if (vb.length > 1 || (vb.length === 1 && vb[0] === 0)) throw undecodable()
    version = vb.length === 0 ? 0 : vb[0]!
    rest = outer.slice(2)
  } else if (outer.length === 4) {
    rest = outer.slice(1)
  } else {
    throw undecodable()
  }
  const sidecar: BlobSidecarShape = {
    version,
    blobs: listAt(rest, 0).length,
    commitments: listAt(rest, 1).length,
    proofs: listAt(rest, 2).length,
  }
  const inner = innerListBytes(raw)
  const preimage = new Uint8Array(1 + inner.length)
  preimage[0] = 3
  preimage.set(inner, 1)
  return parseTyped(3, raw, listAt(outer, 0), keccak256(preimage), sidecar)
}

/**
 * The encoded bytes of the first item of the list that starts at raw[1]: both are lists (`RLP.decode` already
 * checked the encoding, and the caller that the first item is a list).
 */
function innerListBytes(raw: Uint8Array): Uint8Array {
  const start = 1 + listHeaderLength(raw, 1)
  return raw.subarray(start, start + listHeaderLength(raw, start) + listPayloadLength(raw, start))
}

/** The header of the RLP list at b[at]: one byte, followed by the payload's length for payloads over 55 bytes. */
function listHeaderLength(b: Uint8Array, at: number): number {
  const p = b[at]!
  return p > 0xf7 ? 1 + (p - 0xf7) : 1
}

function listPayloadLength(b: Uint8Array, at: number): number {
  const p = b[at]!
  if (p <= 0xf7) return p - 0xc0
  let len = 0
  for (let i = 1; i <= p - 0xf7; i++) len = len * 256 + b[at + i]!
  return len
}

/**
 * An access list as the EVM takes it; undefined when empty; null when its shape is not one the library
 * constructs (then the record does not describe the transaction, and the library decides). Never throws:
 * admission's errors stay the library's.
 */
function accessListOf(list: NestedUint8Array): AccessListEntry[] | undefined | null {
  if (list.length === 0) return undefined
  const out: AccessListEntry[] = []
  for (const item of list) {
    if (!Array.isArray(item) || item.length !== 2) return null
    const [address, keys] = item
    if (!(address instanceof Uint8Array) || address.length !== 20 || !Array.isArray(keys)) return null
    const storageKeys: bigint[] = []
    for (const key of keys) {
      if (!(key instanceof Uint8Array) || key.length !== 32) return null
      storageKeys.push(bytesToBigInt(key))
    }
    out.push({ address: bytesToBigInt(address), storageKeys })
  }
  return out
}

/** Where `field`, a view of `raw` (rlpDecode decodes into views), starts in it. */
function offsetIn(raw: Uint8Array, field: Uint8Array): number {
  return field.byteOffset - raw.byteOffset
}
