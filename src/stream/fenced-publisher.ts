/**
 * The fenced write of a sequencer group's leader into the replicated flashblock stream (issue 40): a message
 * is stored only if the stream's last sequence is still the one the writer last saw (JetStream's
 * `Nats-Expected-Last-Sequence`, checked by the stream's Raft leader). A deposed leader's writes are therefore
 * refused as soon as its successor has written once, whatever the deposed one believes about its lease.
 *
 * - One publisher per term: every message carries `Flashnode-Term` and the message id `<term>:<id>`. The
 *   term is in the id because JetStream checks the id before the expectation: a successor reusing an id
 *   of the old leader (the same flashblock sequence) would be answered "duplicate" and not stored.
 * - `publish` awaits the acknowledgement within a bound and returns the message's stream sequence, which
 *   the caller expects on its next publish. Refused for a wrong last sequence: `FencedOut` (final: stop
 *   leading). No answer, no quorum: `BrokerUnavailable`, and the message may yet be stored; publishing the
 *   same id with the same expectation again is safe (within the duplicate window it is acknowledged once,
 *   at its one sequence), and is how the caller learns the outcome.
 * - Several publishes may be in flight, each expecting the sequence before it; one that fails fences the
 *   ones after it.
 * - `lastSequence` reads the stream's last sequence, where a new leader starts.
 *
 * It owns no connection, no lease and no retries; it never publishes without an expectation.
 */

import { jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, type JetStreamClient, type JetStreamManager, type PubAck, type StreamConfig } from '@nats-io/jetstream'
import { headers, type NatsConnection } from '@nats-io/transport-node'
import { actualLastSequence, BrokerUnavailable, FencedOut, isWrongLastSequence, unavailableOr } from './coordination-errors.ts'
import { HEADER } from './jetstream-layout.ts'
import { whilePlacing } from './placement.ts'

export interface FencedPublisherOptions {
  /** The stream's name (jetstream-layout.ts streamName). */
  readonly stream: string
  /** The subject published to (jetstream-layout.ts subjectOf). */
  readonly subject: string
  /** The leader's term (leader-lease.ts). */
  readonly term: number
  /** The bound on each acknowledgement (and on reading the last sequence). */
  readonly ackTimeoutMs?: number
}

export const DEFAULT_FENCED_ACK_TIMEOUT_MS = 500

export interface FencedPublish {
  /** The stream sequence this message must follow (0: the stream is empty). */
  readonly expectedLastSequence: number
  /** The message's id within the term (e.g. its flashblock sequence): a retry of it uses the same id. */
  readonly id: string
  /** More headers (Flashnode-Sequence, Flashnode-Block, …). */
  readonly headers?: Readonly<Record<string, string>>
}

export class FencedPublisher {
  readonly term: number
  private readonly js: JetStreamClient
  private readonly jsm: Promise<JetStreamManager>
  private readonly ackTimeoutMs: number

  constructor(
    nc: NatsConnection,
    private readonly options: FencedPublisherOptions,
  ) {
    if (!(Number.isSafeInteger(options.term) && options.term > 0)) throw new RangeError(`a term is a positive integer (got ${options.term})`)
    this.term = options.term
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_FENCED_ACK_TIMEOUT_MS
    this.js = jetstream(nc, { timeout: this.ackTimeoutMs })
    this.jsm = jetstreamManager(nc, { timeout: this.ackTimeoutMs, checkAPI: false })
  }

  /** Stores `data` after `expectedLastSequence`; resolves with its stream sequence. Throws FencedOut or BrokerUnavailable. */
  async publish(data: Uint8Array, message: FencedPublish): Promise<number> {
    const h = headers()
    for (const [name, value] of Object.entries(message.headers ?? {})) h.set(name, value)
    h.set(HEADER.term, String(this.term))
    const expected = message.expectedLastSequence + 1
    let ack: PubAck
    try {
      ack = await this.js.publish(this.options.subject, data, {
        msgID: `${this.term}:${message.id}`,
        expect: { lastSequence: message.expectedLastSequence, streamName: this.options.stream },
        headers: h,
        timeout: this.ackTimeoutMs,
      })
    } catch (err) {
      if (isDuplicateInFlight(err)) throw new BrokerUnavailable('publish', { cause: err })
      if (!isWrongLastSequence(err)) throw unavailableOr('publish', err)
      // An earlier attempt of this very message may have been stored with its answer lost (a server died
      // under it): the message right after the expectation is then ours, and this is its acknowledgement.
      const whose = await this.whoseIs(expected, message.id)
      if (whose === 'ours') return expected
      // Unreadable (no quorum any more): whether another writer got there first is not known.
      if (whose === 'unknown') throw new BrokerUnavailable('publish', { cause: err })
      throw new FencedOut(message.expectedLastSequence, actualLastSequence(err), { cause: err })
    }
    // Stored after the expectation, or it is not an acknowledgement: a duplicate of a retry whose first attempt
    // the leader still holds uncommitted answers sequence 0 on some servers (newer ones refuse it with a
    // conflict, above). Either is an unknown outcome: the caller tries again.
    if (ack.seq !== expected) throw new BrokerUnavailable('publish', { cause: new Error(`acknowledged at sequence ${ack.seq}${ack.duplicate ? ' as a duplicate' : ''}, after ${message.expectedLastSequence} expected`) })
    return ack.seq
  }

  /** Whether the stream's message `seq` is this writer's message `id` (same term, same id), another's, or unreadable. */
  private async whoseIs(seq: number, id: string): Promise<'ours' | 'theirs' | 'unknown'> {
    try {
      const stored = await (await this.jsm).streams.getMessage(this.options.stream, { seq })
      return stored?.header.get('Nats-Msg-Id') === `${this.term}:${id}` ? 'ours' : 'theirs'
    } catch {
      // Not read (no quorum, no stream leader yet, …): whose it is cannot be told.
      return 'unknown'
    }
  }

  /** The stream's last sequence (0 when it never held a message). Throws BrokerUnavailable. */
  async lastSequence(): Promise<number> {
    try {
      const info = await (await this.jsm).streams.info(this.options.stream)
      return info.state.last_seq
    } catch (err) {
      throw unavailableOr('read the last sequence', err)
    }
  }
}

/** A newer server's refusal of a retry whose first attempt it still holds uncommitted ("duplicate message conflict"). */
function isDuplicateInFlight(err: unknown): boolean {
  return err instanceof JetStreamApiError && /duplicate message/i.test(err.message)
}

/** Creates the stream when the broker has none (leaves one that exists as it is). Throws BrokerUnavailable. */
export async function ensureStream(nc: NatsConnection, config: Partial<StreamConfig> & { name: string }, timeoutMs = DEFAULT_FENCED_ACK_TIMEOUT_MS): Promise<void> {
  const until = performance.now() + timeoutMs
  try {
    const jsm = await jetstreamManager(nc, { timeout: timeoutMs })
    await whilePlacing(async () => {
      try {
        await jsm.streams.info(config.name)
        return
      } catch (err) {
        if (!(err instanceof JetStreamApiError) || err.code !== JetStreamApiCodes.StreamNotFound) throw err
      }
      await jsm.streams.add(config)
    }, until)
  } catch (err) {
    const typed = unavailableOr('create the stream', err)
    throw typed instanceof BrokerUnavailable ? typed : err
  }
}
