/**
 * The OP Stack user deposits waiting for a block (op-opening.ts), kept in the node's store beside the
 * sequencer's journal, so that a deposit whose hash was answered survives a crash (kill -9) before the block
 * that includes it opens.
 *
 * Owns the 'd' keys (storage/keys.ts): one entry per deposit, under an increasing sequence number, holding the
 * L2 block it was sent for, its log index among that block's (its source hash is made from both) and its
 * envelope. `add` commits its entry before it returns (the caller answers the hash after); `take` deletes the
 * first entries in the caller's batch, the one that journals the block opening with them (sequencer.ts), so a
 * deposit is always in exactly one place: the queue or the journal (then the sealed block, whose batch
 * clears the journal). Never: building or running deposits, deciding which block takes them. It is the
 * single node's keeper (deposit-keeping.ts); a sequencer group's leader keeps them on its brokers instead.
 */

import { RLP } from '@ethereumjs/rlp'
import { bigIntToMinimalBytes, bytesToBigInt } from '../primitives/hex.ts'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys, readU64 } from '../storage/keys.ts'
import type { DepositKeeping, KeptDeposit } from './deposit-keeping.ts'

export interface QueuedDeposit extends KeptDeposit {
  readonly seq: bigint
  /** The L2 block it was sent for (the open block's number + 1 at the time). */
  readonly forBlock: bigint
  /** Its position among the deposits sent for `forBlock`. */
  readonly logIndex: bigint
  /** The deposit's envelope (0x7e ‖ RLP). */
  readonly envelope: Uint8Array
}

export class DepositQueue implements DepositKeeping {
  private readonly entries: QueuedDeposit[] = []
  private nextSeq = 0n

  /** Reads back what a previous run left queued, oldest first. */
  constructor(private readonly kv: KvStore) {
    for (const { key, value } of kv.range(keys.depositQueue(0n), keys.depositQueueEnd())) {
      const [forBlock, logIndex, envelope] = RLP.decode(value) as Uint8Array[]
      const seq = readU64(key, 1)
      this.entries.push({ seq, forBlock: bytesToBigInt(forBlock!), logIndex: bytesToBigInt(logIndex!), envelope: envelope! })
      this.nextSeq = seq + 1n
    }
  }

  /** The deposits waiting, oldest first. */
  get waiting(): readonly QueuedDeposit[] {
    return this.entries
  }

  /** The log index the next deposit sent for `forBlock` takes (after every one still queued for it). */
  nextLogIndex(forBlock: bigint): bigint {
    let next = 0n
    for (const e of this.entries) if (e.forBlock === forBlock && e.logIndex >= next) next = e.logIndex + 1n
    return next
  }

  /** Queues a deposit durably: its entry is committed when this returns. */
  add(forBlock: bigint, logIndex: bigint, envelope: Uint8Array): void {
    const entry: QueuedDeposit = { seq: this.nextSeq, forBlock, logIndex, envelope }
    const batch = this.kv.batch()
    batch.put(keys.depositQueue(entry.seq), RLP.encode([bigIntToMinimalBytes(forBlock), bigIntToMinimalBytes(logIndex), envelope]))
    this.kv.commit(batch)
    this.nextSeq += 1n
    this.entries.push(entry)
  }

  /** DepositKeeping: the next log index for `forBlock`, committed before the promise is made. */
  keep(forBlock: bigint, build: (logIndex: bigint) => Uint8Array): Promise<KeptDeposit> {
    const logIndex = this.nextLogIndex(forBlock)
    const envelope = build(logIndex)
    this.add(forBlock, logIndex, envelope)
    return Promise.resolve({ forBlock, logIndex, envelope })
  }

  taken(batch: WriteBatch, count: number): void {
    this.take(batch, count)
  }

  /** Nothing to do: the entries left the store in the opening's own write. */
  acknowledged(): void {}

  /** The first `count` deposits were included: their entries are deleted in `batch` (and forgotten here now). */
  take(batch: WriteBatch, count: number): void {
    for (const e of this.entries.splice(0, count)) batch.del(keys.depositQueue(e.seq))
  }
}
