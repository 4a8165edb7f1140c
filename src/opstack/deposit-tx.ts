/**
 * Deposit transactions (EIP-2718 type 0x7e), the OP Stack's unsigned transactions derived from L1: their
 * typed-envelope encoding, their hash, and the source hash that makes each one unique.
 *
 * Owns: the codec (0x7e || rlp([sourceHash, from, to, mint, value, gas, isSystemTx, data])), strict decoding
 * (canonical integers, exact byte lengths, a boolean that is 0 or 1, nothing extra), the hash (keccak-256 of
 * the envelope) and the source hashes of the specs' three domains (user deposit 0, L1-info deposit 1, upgrade
 * deposit 2). It never executes a deposit, never checks who may send one (derivation's job), and knows no
 * other transaction type.
 *
 * An empty `to` is a contract creation (null here). A mint of zero and no mint are one encoding (the empty
 * string), as in op-geth, whose `rlp:"nil"` field reads it back as no mint: `mint` is a bigint, 0n for both.
 */

import { RLP } from '@ethereumjs/rlp'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'

export const DEPOSIT_TX_TYPE = 0x7e

export interface DepositTransaction {
  /** 32 bytes */
  readonly sourceHash: Uint8Array
  /** 20 bytes */
  readonly from: Uint8Array
  /** 20 bytes, or null for a contract creation */
  readonly to: Uint8Array | null
  readonly mint: bigint
  readonly value: bigint
  readonly gas: bigint
  readonly isSystemTx: boolean
  readonly data: Uint8Array
}

const FIELD_COUNT = 8
const UINT64_LIMIT = 1n << 64n
const UINT256_LIMIT = 1n << 256n

function checkUint(name: string, value: bigint, limit: bigint): void {
  if (value < 0n || value >= limit) throw new Error(`deposit ${name} out of range: ${value}`)
}

/** The envelope bytes of a deposit: 0x7e followed by the RLP list of its eight fields. */
export function encodeDepositTransaction(tx: DepositTransaction): Uint8Array {
  if (tx.sourceHash.length !== 32) throw new Error('deposit sourceHash must be 32 bytes')
  if (tx.from.length !== 20) throw new Error('deposit from must be 20 bytes')
  if (tx.to !== null && tx.to.length !== 20) throw new Error('deposit to must be 20 bytes or null')
  checkUint('mint', tx.mint, UINT256_LIMIT)
  checkUint('value', tx.value, UINT256_LIMIT)
  checkUint('gas', tx.gas, UINT64_LIMIT)
  const body = RLP.encode([
    tx.sourceHash,
    tx.from,
    tx.to ?? new Uint8Array(0),
    bigIntToMinimalBytes(tx.mint),
    bigIntToMinimalBytes(tx.value),
    bigIntToMinimalBytes(tx.gas),
    tx.isSystemTx ? Uint8Array.of(1) : new Uint8Array(0),
    tx.data,
  ])
  const out = new Uint8Array(1 + body.length)
  out[0] = DEPOSIT_TX_TYPE
  out.set(body, 1)
  return out
}

function expectBytes(item: unknown, name: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new Error(`deposit ${name}: expected a byte string, got a list`)
  return item
}

function decodeUint(item: unknown, name: string, limit: bigint): bigint {
  const bytes = expectBytes(item, name)
  if (bytes.length > 0 && bytes[0] === 0) throw new Error(`deposit ${name}: non-canonical integer (leading zero byte)`)
  const value = bytesToBigInt(bytes)
  checkUint(name, value, limit)
  return value
}

function decodeFixed(item: unknown, name: string, length: number): Uint8Array {
  const bytes = expectBytes(item, name)
  if (bytes.length !== length) throw new Error(`deposit ${name}: expected ${length} bytes, got ${bytes.length}`)
  return bytes
}

function decodeBool(item: unknown): boolean {
  const bytes = expectBytes(item, 'isSystemTx')
  if (bytes.length === 0) return false
  if (bytes.length === 1 && bytes[0] === 1) return true
  throw new Error('deposit isSystemTx: not a boolean')
}

/** Decodes a deposit's envelope bytes; throws on anything op-geth's decoder would refuse. */
export function decodeDepositTransaction(envelope: Uint8Array): DepositTransaction {
  if (envelope.length < 2 || envelope[0] !== DEPOSIT_TX_TYPE) throw new Error('not a deposit transaction (type 0x7e)')
  const decoded: unknown = RLP.decode(envelope.subarray(1))
  if (!Array.isArray(decoded) || decoded.length !== FIELD_COUNT) {
    throw new Error(`deposit: expected a list of ${FIELD_COUNT} fields`)
  }
  const [sourceHash, from, to, mint, value, gas, isSystemTx, data] = decoded as unknown[]
  const toBytes = expectBytes(to, 'to')
  if (toBytes.length !== 0 && toBytes.length !== 20) throw new Error(`deposit to: expected 20 bytes or none, got ${toBytes.length}`)
  return {
    sourceHash: decodeFixed(sourceHash, 'sourceHash', 32),
    from: decodeFixed(from, 'from', 20),
    to: toBytes.length === 0 ? null : toBytes,
    mint: decodeUint(mint, 'mint', UINT256_LIMIT),
    value: decodeUint(value, 'value', UINT256_LIMIT),
    gas: decodeUint(gas, 'gas', UINT64_LIMIT),
    isSystemTx: decodeBool(isSystemTx),
    data: expectBytes(data, 'data'),
  }
}

/** The transaction hash of a deposit: keccak-256 of its envelope bytes. */
export function depositTransactionHash(tx: DepositTransaction | Uint8Array): Uint8Array {
  return keccak256(tx instanceof Uint8Array ? tx : encodeDepositTransaction(tx))
}

/** The source-hash domains of the deposits specs (deposits.md, "Source hash computation"). */
export const SOURCE_HASH_DOMAIN = { userDeposit: 0n, l1InfoDeposit: 1n, upgradeDeposit: 2n } as const

function domainHash(domain: bigint, inner: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(64)
  preimage.set(bigIntToFixedBytes(domain, 32), 0)
  preimage.set(keccak256(inner), 32)
  return keccak256(preimage)
}

function blockHashAndIndex(l1BlockHash: Uint8Array, index: bigint): Uint8Array {
  if (l1BlockHash.length !== 32) throw new Error('L1 block hash must be 32 bytes')
  checkUint('source index', index, UINT256_LIMIT)
  const out = new Uint8Array(64)
  out.set(l1BlockHash, 0)
  out.set(bigIntToFixedBytes(index, 32), 32)
  return out
}

/** A user deposit's source hash: domain 0, the L1 block holding its TransactionDeposited log and that log's index in the block. */
export function userDepositSourceHash(l1BlockHash: Uint8Array, l1LogIndex: bigint): Uint8Array {
  return domainHash(SOURCE_HASH_DOMAIN.userDeposit, blockHashAndIndex(l1BlockHash, l1LogIndex))
}

/** An L1-attributes deposit's source hash: domain 1, the L1 origin's hash and the L2 block's sequence number in its epoch. */
export function l1InfoDepositSourceHash(l1BlockHash: Uint8Array, sequenceNumber: bigint): Uint8Array {
  return domainHash(SOURCE_HASH_DOMAIN.l1InfoDeposit, blockHashAndIndex(l1BlockHash, sequenceNumber))
}

/** A network-upgrade deposit's source hash: domain 2 and the UTF-8 intent string the fork's spec names. */
export function upgradeDepositSourceHash(intent: string): Uint8Array {
  return domainHash(SOURCE_HASH_DOMAIN.upgradeDeposit, new TextEncoder().encode(intent))
}
