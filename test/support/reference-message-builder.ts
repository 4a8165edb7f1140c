/**
 * The stream's message builder as it was before the JSON text was written directly (src/stream/message-text.ts):
 * it builds the FlashblocksPayloadV1 object tree that JSON.stringify turned into the message. Kept under
 * test/ only, as the reference the parity test compares the written text against; never used by src/.
 */
import type { BlockHeader } from '@ethereumjs/block'
import type { Account } from '@ethereumjs/util'
import type { ReceiptRecord } from '../../src/chain/receipt-codec.ts'
import type { SealedBlock } from '../../src/preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../../src/preconf/snapshot.ts'
import { ReceiptBlooms } from '../../src/chain/receipt-blooms.ts'
import { BLOOM_BYTES, orBloom } from '../../src/primitives/bloom.ts'
import { bytesToHex, leftPad, quantity, type Hex } from '../../src/primitives/hex.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { changedSince, EMPTY_DIFF, type StateDiff } from '../../src/state/state-diff.ts'
import type {
  ExecutionPayloadBaseV1,
  FlashblocksPayloadV1,
  StreamAccount,
  StreamReceipt,
  StreamStateDiff,
} from '../../src/stream/payload.ts'

const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`

/** A built message and what the stream keeps of it besides its JSON. */
export interface ReferenceMessage {
  readonly payload: FlashblocksPayloadV1
  readonly sequence: number
  readonly blockNumber: bigint
  /** The block's closing message (final roots and hash). */
  readonly closing: boolean
}

export class ReferenceMessageBuilder {
  private previous: PreconfirmedSnapshot | undefined
  private payloadId: Hex = ZERO_HASH
  private bloom = new Uint8Array(BLOOM_BYTES)
  /** The open block's logs items hashed so far (a token's address and event topics recur in every transfer). */
  private blooms = new ReceiptBlooms()
  private lastSequence: number | null = null

  /** `nextSequence()` hands out the sequence numbers, one per message, increasing. */
  constructor(private readonly nextSequence: () => number) {}

  /** The message of a published snapshot. */
  flashblock(snapshot: PreconfirmedSnapshot): ReferenceMessage {
    const sequence = this.take()
    const fresh = snapshot.index === 0 || this.previous === undefined || this.previous.header.number !== snapshot.header.number
    if (fresh) {
      this.payloadId = payloadIdOf(snapshot.header.parentHash, sequence)
      this.newBloom()
    }
    const before = fresh ? EMPTY_DIFF : this.previous!.diff
    const added = snapshot.transactions.slice(snapshot.firstNew)
    for (const t of added) orBloom(this.bloom, this.blooms.bloomOf(t.receipt.logs))
    const header = snapshot.header
    const payload: FlashblocksPayloadV1 = {
      payload_id: this.payloadId,
      index: snapshot.index,
      ...(snapshot.index === 0 ? { base: baseOf(header) } : {}),
      diff: {
        state_root: ZERO_HASH,
        receipts_root: ZERO_HASH,
        logs_bloom: bytesToHex(this.bloom),
        gas_used: quantity(snapshot.gasUsed),
        block_hash: ZERO_HASH,
        transactions: added.map((t) => bytesToHex(t.raw)),
        withdrawals: [],
        withdrawals_root: ZERO_HASH,
        ...blobGas(header, snapshot.blobGasUsed),
      },
      metadata: this.metadata(header.number, sequence, changedSince(before, snapshot.diff), added.map((t) => t.receipt)),
    }
    this.previous = snapshot
    return { payload, sequence, blockNumber: header.number, closing: false }
  }

  /**
   * Continues another producer's stream (a group leader taking over): the next message's previous sequence
   * is `lastSequence`; with `payloadId`, the open block's messages so far went out under that id, and the
   * snapshots the taking-over sequencer resumes from its journal are `adopt`ed rather than built.
   */
  continueAfter(lastSequence: number, payloadId?: Hex): void {
    this.lastSequence = lastSequence
    this.previous = undefined
    if (payloadId !== undefined) this.payloadId = payloadId
  }

  /**
   * A snapshot whose message is already in the stream (a resumed flashblock of the open block): remembered
   * as the one the next message follows, its logs in the block's bloom, no message built, no sequence taken.
   */
  adopt(snapshot: PreconfirmedSnapshot): void {
    if (snapshot.index === 0) this.newBloom()
    for (let i = snapshot.firstNew; i < snapshot.transactions.length; i++) orBloom(this.bloom, this.blooms.bloomOf(snapshot.transactions[i]!.receipt.logs))
    this.previous = snapshot
  }

  /** The closing message of a sealed block: the sealed header's roots and hash, the seal's own state changes. */
  sealed(block: SealedBlock): ReferenceMessage {
    const sequence = this.take()
    const { header, last } = block
    if (this.previous !== last) throw new Error(`sealed block ${header.number} does not follow the last flashblock streamed`)
    const payload: FlashblocksPayloadV1 = {
      payload_id: this.payloadId,
      index: last.index + 1,
      diff: {
        state_root: bytesToHex(header.stateRoot),
        receipts_root: bytesToHex(header.receiptTrie),
        logs_bloom: bytesToHex(header.logsBloom),
        gas_used: quantity(header.gasUsed),
        block_hash: bytesToHex(header.hash()),
        transactions: [],
        withdrawals: [],
        withdrawals_root: header.withdrawalsRoot === undefined ? ZERO_HASH : bytesToHex(header.withdrawalsRoot),
        ...blobGas(header, header.blobGasUsed ?? 0n),
      },
      metadata: { ...this.metadata(header.number, sequence, changedSince(last.diff, block.executed.diff), []), sealed_header: bytesToHex(header.serialize()) },
    }
    this.previous = undefined
    return { payload, sequence, blockNumber: header.number, closing: true }
  }

  private newBloom(): void {
    this.bloom = new Uint8Array(BLOOM_BYTES)
    this.blooms = new ReceiptBlooms()
  }

  private take(): number {
    const sequence = this.nextSequence()
    if (this.lastSequence !== null && sequence <= this.lastSequence) throw new Error(`sequence ${sequence} after ${this.lastSequence}`)
    return sequence
  }

  private metadata(number: bigint, sequence: number, diff: StateDiff, receipts: readonly ReceiptRecord[]): FlashblocksPayloadV1['metadata'] {
    const previous = this.lastSequence
    this.lastSequence = sequence
    const balances: Record<Hex, Hex> = {}
    for (const [addr, account] of diff.accounts) if (account !== null) balances[addr as Hex] = quantity(account.balance)
    const byHash: Record<Hex, StreamReceipt> = {}
    for (const r of receipts) byHash[bytesToHex(r.transactionHash)] = receiptOf(r)
    return {
      block_number: Number(number),
      sequence,
      previous_sequence: previous,
      new_account_balances: balances,
      receipts: byHash,
      state_diff: stateDiffOf(diff),
    }
  }
}

/** 8 bytes naming one attempt at building a block: its parent and the sequence of its opening message. */
function payloadIdOf(parentHash: Uint8Array, sequence: number): Hex {
  const seed = new Uint8Array(40)
  seed.set(parentHash, 0)
  new DataView(seed.buffer).setBigUint64(32, BigInt(sequence))
  return bytesToHex(keccak256(seed).subarray(0, 8))
}

function baseOf(header: BlockHeader): ExecutionPayloadBaseV1 {
  return {
    parent_beacon_block_root: header.parentBeaconBlockRoot === undefined ? ZERO_HASH : bytesToHex(header.parentBeaconBlockRoot),
    parent_hash: bytesToHex(header.parentHash),
    fee_recipient: bytesToHex(header.coinbase.bytes),
    prev_randao: bytesToHex(header.mixHash),
    block_number: quantity(header.number),
    gas_limit: quantity(header.gasLimit),
    timestamp: quantity(header.timestamp),
    extra_data: bytesToHex(header.extraData),
    base_fee_per_gas: quantity(header.baseFeePerGas ?? 0n),
  }
}

const blobGas = (header: BlockHeader, used: bigint): { blob_gas_used?: Hex } =>
  header.common.isActivatedEIP(4844) ? { blob_gas_used: quantity(used) } : {}

function receiptOf(r: ReceiptRecord): StreamReceipt {
  return {
    type: quantity(r.type),
    status: quantity(r.status ?? 0),
    cumulativeGasUsed: quantity(r.cumulativeGasUsed),
    logs: r.logs.map((l) => ({ address: bytesToHex(l.address), topics: l.topics.map(bytesToHex), data: bytesToHex(l.data) })),
    from: bytesToHex(r.from),
    gasUsed: quantity(r.gasUsed),
    effectiveGasPrice: quantity(r.effectiveGasPrice),
    contractAddress: r.contractAddress === null ? null : bytesToHex(r.contractAddress),
    ...(r.blobGasUsed !== undefined ? { blobGasUsed: quantity(r.blobGasUsed) } : {}),
    ...(r.blobGasPrice !== undefined ? { blobGasPrice: quantity(r.blobGasPrice) } : {}),
    ...(r.depositNonce !== undefined ? { depositNonce: quantity(r.depositNonce) } : {}),
    ...(r.depositReceiptVersion !== undefined ? { depositReceiptVersion: quantity(r.depositReceiptVersion) } : {}),
  }
}

function accountOf(a: Account): StreamAccount {
  return { balance: quantity(a.balance), nonce: quantity(a.nonce), code_hash: bytesToHex(a.codeHash) }
}

function stateDiffOf(diff: StateDiff): StreamStateDiff {
  const accounts: Record<Hex, StreamAccount | null> = {}
  for (const [addr, a] of diff.accounts) accounts[addr as Hex] = a === null ? null : accountOf(a)
  const storage: Record<Hex, Record<Hex, Hex>> = {}
  for (const [addr, slots] of diff.storage) {
    const out: Record<Hex, Hex> = {}
    for (const [slot, value] of slots) out[slot as Hex] = bytesToHex(leftPad(value, 32))
    storage[addr as Hex] = out
  }
  const codes: Record<Hex, Hex> = {}
  for (const [hash, code] of diff.codes) codes[hash as Hex] = bytesToHex(code)
  return { accounts, storage, storage_cleared: [...diff.wiped] as Hex[], codes }
}
