/**
 * A flashblock stream message (stream/payload.ts, docs/stream.md), checked and turned into the follower's
 * terms: bytes, bigints, a StateDiff, receipt fields. Everything a follower applies passes through here, so a
 * malformed message fails as a whole (StreamMessageInvalid, naming the field) before any of it is applied.
 *
 * It checks shapes only (hex, quantities, lengths); whether a message fits the block it claims to extend is
 * the replica block's and the follower's business.
 */

import { Account } from '@ethereumjs/util'
import { bytesToHex, hexToBytes, parseQuantity, type Hex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { FlashblocksPayloadV1, StreamReceipt } from '../stream/payload.ts'
import type { BlockEnvironment } from '../execution/open-header.ts'
import { parseTx, type ParsedTx } from '../txpool/decode.ts'
import { decodeDepositTransaction, DEPOSIT_TX_TYPE, type DepositTransaction } from '../opstack/deposit-tx.ts'

export class StreamMessageInvalid extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StreamMessageInvalid'
  }
}

/** The block's opening fields (index 0). */
export interface DecodedBase extends BlockEnvironment {
  readonly number: bigint
  readonly parentHash: Uint8Array
  readonly baseFeePerGas: bigint
}

export interface DecodedLog {
  readonly address: Uint8Array
  readonly topics: Uint8Array[]
  readonly data: Uint8Array
}

/** A receipt as the stream carries it, decoded (its transaction adds `to`, its position the rest). */
export interface DecodedReceipt {
  readonly type: number
  readonly status: 0 | 1
  readonly cumulativeGasUsed: bigint
  readonly gasUsed: bigint
  readonly effectiveGasPrice: bigint
  readonly from: Uint8Array
  readonly contractAddress: Uint8Array | null
  readonly logs: DecodedLog[]
  readonly blobGasUsed?: bigint
  readonly blobGasPrice?: bigint
  /** An OP Stack deposit's nonce (Regolith on) and receipt version (Canyon on). */
  readonly depositNonce?: bigint
  readonly depositReceiptVersion?: bigint
}

/** What the replica reads of a transaction's fields. */
export interface DecodedFields {
  readonly type: number
  /** The signed chain id; undefined for an unprotected legacy transaction or a deposit. */
  readonly chainId: bigint | undefined
  /** The recipient; undefined for a contract creation. */
  readonly to: Uint8Array | undefined
}

export interface DecodedTransaction {
  /** EIP-2718 encoding, as the block body holds it. */
  readonly raw: Uint8Array
  readonly hash: Uint8Array
  /**
   * Its fields, read without building the library's object (txpool/decode.ts, the pool's own decoder; an OP
   * Stack deposit's from its envelope).
   */
  readonly parsed: DecodedFields
  /** Set for an OP Stack deposit (type 0x7e): unsigned, its sender is its `from`. */
  readonly deposit?: DepositTransaction
  readonly receipt: DecodedReceipt
}

/** What only the closing message carries. */
export interface DecodedClosing {
  readonly stateRoot: Uint8Array
  readonly receiptsRoot: Uint8Array
  readonly blockHash: Uint8Array
  readonly header: Uint8Array
}

export interface DecodedMessage {
  readonly payloadId: Hex
  readonly index: number
  readonly sequence: number
  readonly previousSequence: number | null
  readonly blockNumber: bigint
  readonly base?: DecodedBase
  readonly transactions: DecodedTransaction[]
  /** The block's gas used so far (cumulative). */
  readonly gasUsed: bigint
  /** What this message changed, on top of the block's state after the previous message. */
  readonly diff: StateDiff
  readonly closing?: DecodedClosing
}

const ZERO_HASH = `0x${'00'.repeat(32)}`

function fail(field: string, why: string): never {
  throw new StreamMessageInvalid(`stream message: ${field}: ${why}`)
}

function bytes(value: unknown, field: string, length?: number): Uint8Array {
  if (typeof value !== 'string') fail(field, 'not a hex string')
  let out: Uint8Array
  try {
    out = hexToBytes(value)
  } catch (e) {
    fail(field, (e as Error).message)
  }
  if (length !== undefined && out.length !== length) fail(field, `${out.length} bytes, not ${length}`)
  return out
}

function big(value: unknown, field: string): bigint {
  if (typeof value !== 'string') fail(field, 'not a hex quantity')
  try {
    return parseQuantity(value)
  } catch (e) {
    fail(field, (e as Error).message)
  }
}

function integer(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) fail(field, 'not a non-negative integer')
  return value
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(field, 'not an object')
  return value as Record<string, unknown>
}

function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) fail(field, 'not an array')
  return value
}

/** Lower-case 0x-hex of a checked byte string (the StateDiff's keys). */
const key = (value: unknown, field: string, length: number): string => bytesToHex(bytes(value, field, length))

function receiptOf(value: unknown, field: string): DecodedReceipt {
  const r = record(value, field) as Partial<Record<keyof StreamReceipt, unknown>>
  const logs = list(r.logs, `${field}.logs`).map((l, i) => {
    const log = record(l, `${field}.logs[${i}]`)
    return {
      address: bytes(log['address'], `${field}.logs[${i}].address`, 20),
      topics: list(log['topics'], `${field}.logs[${i}].topics`).map((t, j) => bytes(t, `${field}.logs[${i}].topics[${j}]`, 32)),
      data: bytes(log['data'], `${field}.logs[${i}].data`),
    }
  })
  const status = big(r.status, `${field}.status`)
  if (status > 1n) fail(`${field}.status`, 'not 0 or 1')
  return {
    type: Number(big(r.type, `${field}.type`)),
    status: status === 1n ? 1 : 0,
    cumulativeGasUsed: big(r.cumulativeGasUsed, `${field}.cumulativeGasUsed`),
    gasUsed: big(r.gasUsed, `${field}.gasUsed`),
    effectiveGasPrice: big(r.effectiveGasPrice, `${field}.effectiveGasPrice`),
    from: bytes(r.from, `${field}.from`, 20),
    contractAddress: r.contractAddress === null ? null : bytes(r.contractAddress, `${field}.contractAddress`, 20),
    logs,
    ...(r.blobGasUsed !== undefined ? { blobGasUsed: big(r.blobGasUsed, `${field}.blobGasUsed`) } : {}),
    ...(r.blobGasPrice !== undefined ? { blobGasPrice: big(r.blobGasPrice, `${field}.blobGasPrice`) } : {}),
    ...(r.depositNonce !== undefined ? { depositNonce: big(r.depositNonce, `${field}.depositNonce`) } : {}),
    ...(r.depositReceiptVersion !== undefined ? { depositReceiptVersion: big(r.depositReceiptVersion, `${field}.depositReceiptVersion`) } : {}),
  }
}

/** A storage value as the trie keeps it: big-endian without leading zeros (empty = deleted). */
function trimmed(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return value.subarray(i)
}

function diffOf(value: unknown): StateDiff {
  const d = record(value, 'metadata.state_diff')
  const accounts = new Map<string, Account | null>()
  for (const [addr, a] of Object.entries(record(d['accounts'], 'metadata.state_diff.accounts'))) {
    const field = `metadata.state_diff.accounts.${addr}`
    const k = key(addr, field, 20)
    if (a === null) {
      accounts.set(k, null)
      continue
    }
    const acc = record(a, field)
    accounts.set(k, new Account(big(acc['nonce'], `${field}.nonce`), big(acc['balance'], `${field}.balance`), undefined, bytes(acc['code_hash'], `${field}.code_hash`, 32)))
  }
  const storage = new Map<string, Map<string, Uint8Array>>()
  for (const [addr, slots] of Object.entries(record(d['storage'], 'metadata.state_diff.storage'))) {
    const field = `metadata.state_diff.storage.${addr}`
    const out = new Map<string, Uint8Array>()
    for (const [slot, v] of Object.entries(record(slots, field))) out.set(key(slot, `${field} slot`, 32), trimmed(bytes(v, `${field}.${slot}`, 32)))
    storage.set(key(addr, field, 20), out)
  }
  const wiped = new Set(list(d['storage_cleared'], 'metadata.state_diff.storage_cleared').map((a, i) => key(a, `metadata.state_diff.storage_cleared[${i}]`, 20)))
  const codes = new Map<string, Uint8Array>()
  for (const [hash, code] of Object.entries(record(d['codes'], 'metadata.state_diff.codes'))) {
    const c = bytes(code, `metadata.state_diff.codes.${hash}`)
    const k = key(hash, 'metadata.state_diff.codes', 32)
    if (bytesToHex(keccak256(c)) !== k) fail(`metadata.state_diff.codes.${hash}`, 'code does not hash to its key')
    codes.set(k, c)
  }
  return { accounts, storage, wiped, codes }
}

function baseOf(value: unknown): DecodedBase {
  const b = record(value, 'base')
  return {
    number: big(b['block_number'], 'base.block_number'),
    parentHash: bytes(b['parent_hash'], 'base.parent_hash', 32),
    parentBeaconBlockRoot: bytes(b['parent_beacon_block_root'], 'base.parent_beacon_block_root', 32),
    coinbase: bytes(b['fee_recipient'], 'base.fee_recipient', 20),
    prevRandao: bytes(b['prev_randao'], 'base.prev_randao', 32),
    gasLimit: big(b['gas_limit'], 'base.gas_limit'),
    timestamp: big(b['timestamp'], 'base.timestamp'),
    extraData: bytes(b['extra_data'], 'base.extra_data'),
    baseFeePerGas: big(b['base_fee_per_gas'], 'base.base_fee_per_gas'),
  }
}

/** A block's transaction (not the network form of a blob transaction: a block holds none). */
function transactionOf(raw: Uint8Array, field: string): ParsedTx {
  let parsed: ParsedTx
  try {
    parsed = parseTx(raw)
  } catch (err) {
    fail(field, `not a transaction: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (parsed.sidecar !== undefined) fail(field, 'a blob transaction in network form (a block holds its canonical form)')
  return parsed
}

/** An OP Stack deposit's envelope (whether the chain has deposits is the replica's business). */
function depositOf(raw: Uint8Array, field: string): { deposit: DepositTransaction; hash: Uint8Array; parsed: DecodedFields } {
  let deposit: DepositTransaction
  try {
    deposit = decodeDepositTransaction(raw)
  } catch (err) {
    fail(field, `not a deposit transaction: ${err instanceof Error ? err.message : String(err)}`)
  }
  return { deposit, hash: keccak256(raw), parsed: { type: DEPOSIT_TX_TYPE, chainId: undefined, to: deposit.to ?? undefined } }
}

/** Checks and decodes one message (its JSON already parsed). */
export function decodeMessage(value: unknown): DecodedMessage {
  const p = record(value, 'message') as Partial<Record<keyof FlashblocksPayloadV1, unknown>>
  const diff = record(p.diff, 'diff')
  const meta = record(p.metadata, 'metadata')
  const payloadId = bytesToHex(bytes(p.payload_id, 'payload_id', 8))
  const index = integer(p.index, 'index')
  const previous = meta['previous_sequence']
  const receipts = record(meta['receipts'], 'metadata.receipts')
  const transactions = list(diff['transactions'], 'diff.transactions').map((t, i) => {
    const raw = bytes(t, `diff.transactions[${i}]`)
    if (raw.length === 0) fail(`diff.transactions[${i}]`, 'empty')
    const one = raw[0] === DEPOSIT_TX_TYPE ? depositOf(raw, `diff.transactions[${i}]`) : transactionOf(raw, `diff.transactions[${i}]`)
    const hashHex = bytesToHex(one.hash)
    const receipt = receipts[hashHex]
    if (receipt === undefined) fail('metadata.receipts', `no receipt for transaction ${hashHex}`)
    const decoded = receiptOf(receipt, `metadata.receipts.${hashHex}`)
    if ('deposit' in one) return { raw, hash: one.hash, parsed: one.parsed, deposit: one.deposit, receipt: decoded }
    return { raw, hash: one.hash, parsed: one, receipt: decoded }
  })
  if (Object.keys(receipts).length !== transactions.length) fail('metadata.receipts', 'receipts of transactions the message does not carry')
  const blockHash = diff['block_hash']
  const closing =
    blockHash === ZERO_HASH || blockHash === undefined
      ? undefined
      : {
          stateRoot: bytes(diff['state_root'], 'diff.state_root', 32),
          receiptsRoot: bytes(diff['receipts_root'], 'diff.receipts_root', 32),
          blockHash: bytes(blockHash, 'diff.block_hash', 32),
          header: bytes(meta['sealed_header'], 'metadata.sealed_header'),
        }
  if (closing !== undefined && transactions.length > 0) fail('diff.transactions', 'a closing message carries none')
  return {
    payloadId,
    index,
    sequence: integer(meta['sequence'], 'metadata.sequence'),
    previousSequence: previous === null ? null : integer(previous, 'metadata.previous_sequence'),
    blockNumber: BigInt(integer(meta['block_number'], 'metadata.block_number')),
    ...(index === 0 ? { base: baseOf(p.base) } : {}),
    transactions,
    gasUsed: big(diff['gas_used'], 'diff.gas_used'),
    diff: diffOf(meta['state_diff']),
    ...(closing !== undefined ? { closing } : {}),
  }
}
