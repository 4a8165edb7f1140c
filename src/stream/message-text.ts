/**
 * The stream message's JSON text (payload.ts is its schema, docs/stream.md its documentation), written field
 * by field through a JsonWriter: the same bytes JSON.stringify gives for the FlashblocksPayloadV1 object with
 * the fields in the order payload.ts declares them (`base` only at index 0, `blob_gas_used` only from Cancun,
 * a receipt's optional fields only when set, `sealed_header` only in a closing message).
 *
 * It owns the field order and the value forms; it never decides what a message holds (message-builder.ts
 * does) and builds no object of the message. Map keys (addresses, slots, code hashes) are 0x-hex strings
 * already and are written as they are; the receipts are keyed by transaction hash, which a block never holds
 * twice (an object would have merged two under one key).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import type { Hex } from '../primitives/hex.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { JsonWriter } from './json-writer.ts'

const ZERO_HASH = new Uint8Array(32)

/** The diff's fields that differ between a flashblock's message and a closing one. */
export interface DeltaFields {
  readonly stateRoot: Uint8Array
  readonly receiptsRoot: Uint8Array
  readonly logsBloom: Uint8Array
  readonly gasUsed: bigint
  readonly blockHash: Uint8Array
  /** The new transactions' encodings (none in a closing message). */
  readonly transactions: readonly { readonly raw: Uint8Array }[]
  readonly withdrawalsRoot: Uint8Array
  /** Written only when set (Cancun on). */
  readonly blobGasUsed: bigint | undefined
}

export interface MetadataFields {
  readonly blockNumber: bigint
  readonly sequence: number
  readonly previousSequence: number | null
  readonly diff: StateDiff
  readonly receipts: readonly ReceiptRecord[]
  /** The closing message's sealed header, RLP. */
  readonly sealedHeader?: Uint8Array
}

/** The whole message: `{payload_id, index, base?, diff, metadata}`. */
export function writeMessage(w: JsonWriter, payloadId: Hex, index: number, base: BlockHeader | undefined, delta: DeltaFields, meta: MetadataFields): void {
  w.ascii('{"payload_id":').string(payloadId).ascii(',"index":').integer(index)
  if (base !== undefined) {
    w.ascii(',"base":')
    writeBase(w, base)
  }
  w.ascii(',"diff":')
  writeDelta(w, delta)
  w.ascii(',"metadata":')
  writeMetadata(w, meta)
  w.ascii('}')
}

function writeBase(w: JsonWriter, h: BlockHeader): void {
  w.ascii('{"parent_beacon_block_root":').hex(h.parentBeaconBlockRoot ?? ZERO_HASH)
  w.ascii(',"parent_hash":').hex(h.parentHash)
  w.ascii(',"fee_recipient":').hex(h.coinbase.bytes)
  w.ascii(',"prev_randao":').hex(h.mixHash)
  w.ascii(',"block_number":').quantity(h.number)
  w.ascii(',"gas_limit":').quantity(h.gasLimit)
  w.ascii(',"timestamp":').quantity(h.timestamp)
  w.ascii(',"extra_data":').hex(h.extraData)
  w.ascii(',"base_fee_per_gas":').quantity(h.baseFeePerGas ?? 0n)
  w.ascii('}')
}

function writeDelta(w: JsonWriter, d: DeltaFields): void {
  w.ascii('{"state_root":').hex(d.stateRoot)
  w.ascii(',"receipts_root":').hex(d.receiptsRoot)
  w.ascii(',"logs_bloom":').hex(d.logsBloom)
  w.ascii(',"gas_used":').quantity(d.gasUsed)
  w.ascii(',"block_hash":').hex(d.blockHash)
  w.ascii(',"transactions":[')
  for (let i = 0; i < d.transactions.length; i++) {
    if (i > 0) w.ascii(',')
    w.hex(d.transactions[i]!.raw)
  }
  w.ascii('],"withdrawals":[],"withdrawals_root":').hex(d.withdrawalsRoot)
  if (d.blobGasUsed !== undefined) w.ascii(',"blob_gas_used":').quantity(d.blobGasUsed)
  w.ascii('}')
}

function writeMetadata(w: JsonWriter, m: MetadataFields): void {
  w.ascii('{"block_number":').integer(Number(m.blockNumber))
  w.ascii(',"sequence":').integer(m.sequence)
  w.ascii(',"previous_sequence":').integerOrNull(m.previousSequence)
  w.ascii(',"new_account_balances":{')
  let first = true
  for (const [addr, account] of m.diff.accounts) {
    if (account === null) continue
    w.ascii(first ? '' : ',').string(addr).ascii(':').quantity(account.balance)
    first = false
  }
  w.ascii('},"receipts":{')
  for (let i = 0; i < m.receipts.length; i++) {
    const r = m.receipts[i]!
    if (i > 0) w.ascii(',')
    w.hex(r.transactionHash).ascii(':')
    writeReceipt(w, r)
  }
  w.ascii('},"state_diff":')
  writeStateDiff(w, m.diff)
  if (m.sealedHeader !== undefined) w.ascii(',"sealed_header":').hex(m.sealedHeader)
  w.ascii('}')
}

function writeReceipt(w: JsonWriter, r: ReceiptRecord): void {
  w.ascii('{"type":').quantity(r.type)
  w.ascii(',"status":').quantity(r.status ?? 0)
  w.ascii(',"cumulativeGasUsed":').quantity(r.cumulativeGasUsed)
  w.ascii(',"logs":[')
  for (let i = 0; i < r.logs.length; i++) {
    const l = r.logs[i]!
    w.ascii(i > 0 ? ',{"address":' : '{"address":').hex(l.address).ascii(',"topics":[')
    for (let j = 0; j < l.topics.length; j++) {
      if (j > 0) w.ascii(',')
      w.hex(l.topics[j]!)
    }
    w.ascii('],"data":').hex(l.data).ascii('}')
  }
  w.ascii('],"from":').hex(r.from)
  w.ascii(',"gasUsed":').quantity(r.gasUsed)
  w.ascii(',"effectiveGasPrice":').quantity(r.effectiveGasPrice)
  w.ascii(',"contractAddress":')
  if (r.contractAddress === null) w.ascii('null')
  else w.hex(r.contractAddress)
  if (r.blobGasUsed !== undefined) w.ascii(',"blobGasUsed":').quantity(r.blobGasUsed)
  if (r.blobGasPrice !== undefined) w.ascii(',"blobGasPrice":').quantity(r.blobGasPrice)
  if (r.depositNonce !== undefined) w.ascii(',"depositNonce":').quantity(r.depositNonce)
  if (r.depositReceiptVersion !== undefined) w.ascii(',"depositReceiptVersion":').quantity(r.depositReceiptVersion)
  w.ascii('}')
}

function writeStateDiff(w: JsonWriter, diff: StateDiff): void {
  w.ascii('{"accounts":{')
  let first = true
  for (const [addr, a] of diff.accounts) {
    w.ascii(first ? '' : ',').string(addr).ascii(':')
    first = false
    if (a === null) w.ascii('null')
    else w.ascii('{"balance":').quantity(a.balance).ascii(',"nonce":').quantity(a.nonce).ascii(',"code_hash":').hex(a.codeHash).ascii('}')
  }
  w.ascii('},"storage":{')
  first = true
  for (const [addr, slots] of diff.storage) {
    w.ascii(first ? '' : ',').string(addr).ascii(':{')
    first = false
    let firstSlot = true
    for (const [slot, value] of slots) {
      w.ascii(firstSlot ? '' : ',').string(slot).ascii(':').paddedHex(value, 32)
      firstSlot = false
    }
    w.ascii('}')
  }
  w.ascii('},"storage_cleared":[')
  first = true
  for (const addr of diff.wiped) {
    w.ascii(first ? '' : ',').string(addr)
    first = false
  }
  w.ascii('],"codes":{')
  first = true
  for (const [hash, code] of diff.codes) {
    w.ascii(first ? '' : ',').string(hash).ascii(':').hex(code)
    first = false
  }
  w.ascii('}}')
}
