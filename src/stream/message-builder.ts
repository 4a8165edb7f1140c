/**
 * Turns the feed's events into the stream's messages (payload.ts): a snapshot into its flashblock's message,
 * a sealed block into the block's closing message. Pure apart from what it remembers of the open block (the
 * previous snapshot, the bloom so far, the payload id) and the sequence numbers it is handed.
 *
 * Rules it holds (docs/stream.md):
 * - A block's messages are index 0 (the block opened: `base`, system operations only), one per flashblock
 *   (its new transactions, receipts and state changes), then the closing message, built at the seal, with
 *   index one past the last flashblock's, no transactions, and the sealed header's state_root,
 *   receipts_root, logs_bloom, gas_used, block_hash, withdrawals_root and blob_gas_used, plus the state the
 *   seal itself changed (end-of-block system operations).
 * - Every earlier message carries 32 zero bytes for state_root, receipts_root, block_hash and
 *   withdrawals_root: those are only known at the seal, and a consumer never sees a root that later changes.
 *   logs_bloom, gas_used and blob_gas_used are cumulative and final for what the block holds so far.
 * - The transactions of a block's messages, concatenated, are the sealed block's transactions.
 * - A snapshot of index 0 starts a block afresh (a new payload id), also for a block number seen before
 *   (the node restarted and resumed its open block).
 * - A group leader that takes over another's open block continues it (`continueAfter`, `adopt`): same payload
 *   id, the next index, the next sequence, diffs on top of the last adopted snapshot.
 *
 * A message is built as its JSON text only (message-text.ts writes it as UTF-8 bytes): no object tree of it
 * is made on the publishing path. `payload` parses the text back, for tests and tools that want the object.
 * The block's cumulative bloom ORs in each receipt's bloom as the block builder computed it
 * (IncludedTransaction.logsBloom), and hashes the logs only for an entry that comes without one.
 */

import type { SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { IncludedTransaction } from '../execution/block-builder.ts'
import { ReceiptBlooms } from '../chain/receipt-blooms.ts'
import { BLOOM_BYTES, orBloom } from '../primitives/bloom.ts'
import { bytesToHex, type Hex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { changedSince, EMPTY_DIFF } from '../state/state-diff.ts'
import { JsonWriter } from './json-writer.ts'
import { writeMessage } from './message-text.ts'
import type { FlashblocksPayloadV1 } from './payload.ts'

const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`
const ZERO_BYTES32 = new Uint8Array(32)

/** A built message: its JSON text as UTF-8 bytes, and what the stream keeps of it besides. */
export interface StreamMessage {
  /** The message's JSON (payload.ts's FlashblocksPayloadV1), UTF-8. */
  readonly json: Buffer
  /** The message parsed from `json` (each read parses anew: for tests and tools, not the publishing path). */
  readonly payload: FlashblocksPayloadV1
  readonly sequence: number
  readonly blockNumber: bigint
  /** The block's closing message (final roots and hash). */
  readonly closing: boolean
}

class BuiltMessage implements StreamMessage {
  constructor(
    readonly json: Buffer,
    readonly sequence: number,
    readonly blockNumber: bigint,
    readonly closing: boolean,
  ) {}

  get payload(): FlashblocksPayloadV1 {
    return JSON.parse(this.json.toString('utf8')) as FlashblocksPayloadV1
  }
}

export class MessageBuilder {
  private previous: PreconfirmedSnapshot | undefined
  private payloadId: Hex = ZERO_HASH
  private bloom = new Uint8Array(BLOOM_BYTES)
  /** The open block's logs items hashed so far, for entries that come without their receipt's bloom. */
  private blooms = new ReceiptBlooms()
  private lastSequence: number | null = null
  /** Reused for every message: only the finished text is copied out. */
  private readonly writer = new JsonWriter()

  /** `nextSequence()` hands out the sequence numbers, one per message, increasing. */
  constructor(private readonly nextSequence: () => number) {}

  /** The message of a published snapshot. */
  flashblock(snapshot: PreconfirmedSnapshot): StreamMessage {
    const sequence = this.take()
    const fresh = snapshot.index === 0 || this.previous === undefined || this.previous.header.number !== snapshot.header.number
    if (fresh) {
      this.payloadId = payloadIdOf(snapshot.header.parentHash, sequence)
      this.newBloom()
    }
    const before = fresh ? EMPTY_DIFF : this.previous!.diff
    const added = snapshot.transactions.slice(snapshot.firstNew)
    for (const t of added) this.addBloom(t)
    const header = snapshot.header
    const w = this.writer.reset()
    writeMessage(
      w,
      this.payloadId,
      snapshot.index,
      snapshot.index === 0 ? header : undefined,
      {
        stateRoot: ZERO_BYTES32,
        receiptsRoot: ZERO_BYTES32,
        logsBloom: this.bloom,
        gasUsed: snapshot.gasUsed,
        blockHash: ZERO_BYTES32,
        transactions: added,
        withdrawalsRoot: ZERO_BYTES32,
        blobGasUsed: header.common.isActivatedEIP(4844) ? snapshot.blobGasUsed : undefined,
      },
      { blockNumber: header.number, sequence, previousSequence: this.follow(sequence), diff: changedSince(before, snapshot.diff), receipts: added.map((t) => t.receipt) },
    )
    this.previous = snapshot
    return new BuiltMessage(w.bytes(), sequence, header.number, false)
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
    for (let i = snapshot.firstNew; i < snapshot.transactions.length; i++) this.addBloom(snapshot.transactions[i]!)
    this.previous = snapshot
  }

  /** The closing message of a sealed block: the sealed header's roots and hash, the seal's own state changes. */
  sealed(block: SealedBlock): StreamMessage {
    const sequence = this.take()
    const { header, last } = block
    if (this.previous !== last) throw new Error(`sealed block ${header.number} does not follow the last flashblock streamed`)
    const w = this.writer.reset()
    writeMessage(
      w,
      this.payloadId,
      last.index + 1,
      undefined,
      {
        stateRoot: header.stateRoot,
        receiptsRoot: header.receiptTrie,
        logsBloom: header.logsBloom,
        gasUsed: header.gasUsed,
        blockHash: header.hash(),
        transactions: [],
        withdrawalsRoot: header.withdrawalsRoot ?? ZERO_BYTES32,
        blobGasUsed: header.common.isActivatedEIP(4844) ? (header.blobGasUsed ?? 0n) : undefined,
      },
      {
        blockNumber: header.number,
        sequence,
        previousSequence: this.follow(sequence),
        diff: changedSince(last.diff, block.executed.diff),
        receipts: [],
        sealedHeader: header.serialize(),
      },
    )
    this.previous = undefined
    return new BuiltMessage(w.bytes(), sequence, header.number, true)
  }

  /** ORs a new transaction's receipt bloom into the block's: the builder's when it came along, else hashed. */
  private addBloom(t: IncludedTransaction): void {
    if (t.receipt.logs.length === 0) return
    if (t.logsBloom !== undefined) orBloom(this.bloom, t.logsBloom)
    else orBloom(this.bloom, this.blooms.bloomOf(t.receipt.logs))
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

  /** The previous message's sequence, `sequence` becoming it. */
  private follow(sequence: number): number | null {
    const previous = this.lastSequence
    this.lastSequence = sequence
    return previous
  }
}

/** 8 bytes naming one attempt at building a block: its parent and the sequence of its opening message. */
function payloadIdOf(parentHash: Uint8Array, sequence: number): Hex {
  const seed = new Uint8Array(40)
  seed.set(parentHash, 0)
  new DataView(seed.buffer).setBigUint64(32, BigInt(sequence))
  return bytesToHex(keccak256(seed).subarray(0, 8))
}
