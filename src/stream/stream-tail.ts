/**
 * The replicated flashblock stream's tail, as a taking-over group leader needs it (issue 40): the stream's
 * last JetStream sequence (the new leader's first expectation), the last message's `metadata.sequence` (its
 * numbering goes on from there) and, when that message does not close its block, the open block's messages
 * from its opening, from which the new leader rebuilds its journal (`openBlockOf`) and continues the block
 * (replicated-stream.ts `continueFrom`).
 *
 * It only reads (direct reads of stored messages, backwards from the last one, one block at most); it never
 * writes to the broker or to the journal (the node does, with sequencer/journal.ts).
 */

import { JetStreamApiCodes, JetStreamApiError, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import type { BlockEnvironment } from '../execution/open-header.ts'
import { hexToBytes, type Hex } from '../primitives/hex.ts'
import { unavailableOr } from './coordination-errors.ts'
import { HEADER, streamName } from './jetstream-layout.ts'
import { storedJson } from './stored-payload.ts'
import type { FlashblocksPayloadV1 } from './payload.ts'
import type { StreamContinuation } from './publisher.ts'

export interface TailBlock {
  readonly number: bigint
  readonly payloadId: Hex
  /** The index of the block's last message in the stream. */
  readonly lastIndex: number
  /** Its messages parsed, in stream order (index 0 first when `complete`). */
  readonly messages: readonly FlashblocksPayloadV1[]
  /** The same messages as stored (JSON bytes). */
  readonly raw: readonly Uint8Array[]
  /** Whether the stream still holds the block's opening (index 0); without it the block cannot be continued. */
  readonly complete: boolean
}

export interface StreamTail {
  /** JetStream's sequence of the stream's last message (0: it never held one). */
  readonly streamSequence: number
  /** `metadata.sequence` of the last message (undefined: the stream holds none). */
  readonly lastSequence: number | undefined
  /** The block the last message belongs to when that message does not close it. */
  readonly open: TailBlock | undefined
  /** The block the last message closed (the new leader's head must be it), when it did. */
  readonly sealed: bigint | undefined
}

/** A block's journal as the sequencer writes it (sequencer/journal.ts: writeOpen, writeFlashblock per index). */
export interface JournalOfBlock {
  readonly number: bigint
  readonly parentHash: Uint8Array
  readonly env: BlockEnvironment
  /** Raw transactions of flashblocks 1..lastIndex, one array per index (empty for an empty flashblock). */
  readonly flashblocks: readonly (readonly Uint8Array[])[]
  /** The deposits of the opening (index 0) on an OP Stack chain; undefined when the opening carried none. */
  readonly deposits?: readonly Uint8Array[] | undefined
}

const isClosing = (m: FlashblocksPayloadV1): boolean => m.metadata.sealed_header !== undefined

/** Reads the stream's tail (a stream not created yet is an empty one). Throws BrokerUnavailable when the cluster does not answer within `timeoutMs`. */
export async function readStreamTail(nc: NatsConnection, chainId: bigint, timeoutMs = 2_000): Promise<StreamTail> {
  const name = streamName(chainId)
  try {
    const jsm = await jetstreamManager(nc, { timeout: timeoutMs, checkAPI: false })
    const { state } = await jsm.streams.info(name)
    if (state.messages === 0) return { streamSequence: state.last_seq, lastSequence: undefined, open: undefined, sealed: undefined }
    const last = await read(jsm, name, state.last_seq)
    if (isClosing(last.message)) return { streamSequence: state.last_seq, lastSequence: last.message.metadata.sequence, open: undefined, sealed: BigInt(last.message.metadata.block_number) }
    const messages = [last.message]
    const raw = [last.raw]
    for (let seq = state.last_seq - 1; seq >= state.first_seq && messages[0]!.index > 0; seq--) {
      const m = await read(jsm, name, seq)
      if (m.message.payload_id !== last.message.payload_id) break
      messages.unshift(m.message)
      raw.unshift(m.raw)
    }
    const open: TailBlock = {
      number: BigInt(last.message.metadata.block_number),
      payloadId: last.message.payload_id,
      lastIndex: last.message.index,
      messages,
      raw,
      complete: messages[0]!.index === 0,
    }
    return { streamSequence: state.last_seq, lastSequence: last.message.metadata.sequence, open, sealed: undefined }
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) return { streamSequence: 0, lastSequence: undefined, open: undefined, sealed: undefined }
    throw unavailableOr('read the stream tail', err)
  }
}

async function read(jsm: JetStreamManager, name: string, seq: number): Promise<{ message: FlashblocksPayloadV1; raw: Uint8Array }> {
  const m = await jsm.streams.getMessage(name, { seq })
  if (m === null) throw new Error(`the stream ${name} lost message ${seq} while it was read`)
  const json = storedJson(m.data, m.header?.get(HEADER.encoding))
  return { message: JSON.parse(new TextDecoder().decode(json)) as FlashblocksPayloadV1, raw: json }
}

/** What `continueFrom` takes, from a tail (undefined for an empty stream: nothing to continue). */
export function continuationOf(tail: StreamTail): (StreamContinuation & { readonly streamSequence: number }) | undefined {
  if (tail.lastSequence === undefined) return undefined
  const open = tail.open
  if (open !== undefined && !open.complete) throw new Error(`the stream no longer holds block ${open.number}'s opening: the block cannot be continued`)
  return {
    streamSequence: tail.streamSequence,
    lastSequence: tail.lastSequence,
    ...(open !== undefined ? { open: { number: open.number, payloadId: open.payloadId, lastIndex: open.lastIndex, messages: open.raw } } : {}),
  }
}

/** The open block's journal, rebuilt from its messages (the opening's `base`, each message's transactions). */
export function journalOf(open: TailBlock): JournalOfBlock {
  const base = open.messages[0]?.base
  if (!open.complete || base === undefined) throw new Error(`block ${open.number}'s opening is not in the stream`)
  const flashblocks = open.messages.slice(1).map((m) => m.diff.transactions.map((tx) => hexToBytes(tx)))
  // Only an OP Stack chain's opening carries transactions (its deposits; sequencer/op-opening.ts).
  const deposits = open.messages[0]!.diff.transactions.map((tx) => hexToBytes(tx))
  return {
    ...(deposits.length > 0 ? { deposits } : {}),
    number: open.number,
    parentHash: hexToBytes(base.parent_hash),
    env: {
      timestamp: BigInt(base.timestamp),
      coinbase: hexToBytes(base.fee_recipient),
      gasLimit: BigInt(base.gas_limit),
      extraData: hexToBytes(base.extra_data),
      prevRandao: hexToBytes(base.prev_randao),
      parentBeaconBlockRoot: hexToBytes(base.parent_beacon_block_root),
    },
    flashblocks,
  }
}
