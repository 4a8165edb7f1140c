/**
 * Where the flashblock stream lives in NATS JetStream (docs/scaling.md): the one definition both sides use,
 * the sequencer that publishes (jetstream-publisher.ts) and the followers that read (follower/jetstream-source.ts).
 *
 * - One stream per chain, `FLASHNODE_<chainId>`, holding one subject, `flashnode.<chainId>.flashblocks`. Each
 *   stream message (docs/stream.md) is one JetStream message, its data the same UTF-8 JSON bytes the
 *   WebSocket stream sends, Brotli-compressed on a sequencer group's stream (`Flashnode-Encoding: br`;
 *   stored-payload.ts, which every reader goes through).
 * - Headers: `Nats-Msg-Id` = the message's `metadata.sequence` (JetStream drops a second copy within the
 *   duplicate window), `Flashnode-Sequence` and `Flashnode-Block` (the message's sequence and block number, so
 *   a reader finds a point in the stream from the headers, without parsing the JSON).
 * - Retention: limits (not work-queue, not interest: any number of followers read the same messages), the
 *   newest `MAX_AGE_S` seconds and at most `MAX_BYTES`, oldest discarded first; file storage; one replica on a
 *   single broker, three (Raft-replicated) for a sequencer group on a cluster (fenced-publisher.ts).
 *   These are the values the sequencer creates the stream with when it does not exist; a stream that
 *   exists is left as its operator configured it.
 * - Order: one sequencer publishes on one connection, so JetStream's sequence and the message's sequence
 *   increase together: a reader maps one to the other by searching the headers (both are monotonic).
 */

import type { StreamConfig } from '@nats-io/jetstream'
import { DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream'

/** Seconds of messages the stream keeps (about 3,000 flashblocks at 200 ms). */
export const MAX_AGE_S = 600
/** Bytes the stream keeps at most (the oldest go first past it). */
export const MAX_BYTES = 1024 ** 3
/** Seconds within which a message published twice (same Nats-Msg-Id) is stored once. */
export const DUPLICATE_WINDOW_S = 120

export const HEADER = {
  sequence: 'Flashnode-Sequence',
  block: 'Flashnode-Block',
  /** The publishing leader's term (leader-lease.ts), on a sequencer group's stream. */
  term: 'Flashnode-Term',
  /** How the data holds the JSON: absent, as it is; `br`, Brotli-compressed (stored-payload.ts). */
  encoding: 'Flashnode-Encoding',
} as const

export function streamName(chainId: bigint): string {
  return `FLASHNODE_${chainId}`
}

export function subjectOf(chainId: bigint): string {
  return `flashnode.${chainId}.flashblocks`
}

const NANOS_PER_S = 1_000_000_000

/** The stream's configuration when the sequencer creates it, kept on `replicas` servers (1, 3 or 5). */
export function streamConfig(chainId: bigint, replicas = 1): Partial<StreamConfig> & { name: string } {
  return {
    name: streamName(chainId),
    subjects: [subjectOf(chainId)],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: MAX_AGE_S * NANOS_PER_S,
    max_bytes: MAX_BYTES,
    duplicate_window: DUPLICATE_WINDOW_S * NANOS_PER_S,
    num_replicas: replicas,
  }
}
