/**
 * The sequencer's announcement gate (issue 40, "replicated before announced"): the port through which a
 * sequencer group's leader has each flashblock and each seal acknowledged by the replicated stream before
 * anything of it is announced. The sequencer defines it; stream/replicated-stream.ts implements it; node/
 * wires the one to the other.
 *
 * A gate's promise: `flashblock` / `sealed` resolve only once the message of that snapshot / sealed block is
 * stored by the replicated stream, and reject (with the broker's typed reason: fenced out, unavailable, …)
 * when it is not. A rejection is final for the sequencer: it stops, announces nothing it was refused, and
 * tells its owner (`deposed`). The gate never announces and never touches the journal (a group leader's
 * sequencer journals a flashblock after announcing it: the stream is the record).
 */

import type { SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'

export interface AnnouncementGate {
  /** Resolves once `snapshot`'s message is acknowledged by the replicated stream; rejects when it is not. */
  flashblock(snapshot: PreconfirmedSnapshot): Promise<void>
  /**
   * The same for a block about to be sealed; called BEFORE the seal's commit to the local database (`header`
   * is the sealed header as it will be committed; `last` the block's last announced snapshot).
   */
  sealed(block: SealedBlock): Promise<void>
}

/** A sequencer that was deposed (its gate refused a flashblock or a seal) is asked for more work. */
export class SequencerDeposed extends Error {
  override readonly name = 'SequencerDeposed'
  constructor(options: ErrorOptions) {
    super(`the sequencer was deposed: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options)
  }
}
