/**
 * The messages between the admission workers and the main thread.
 *
 * A request carries a burst of raw transactions (end to end in one buffer), each with the pending block
 * (number, timestamp) whose fork decodes it. The answer carries, per item, a prepared record (txpool/prepared.ts) or null ("decode it
 * inline"). Records travel as structured-clone objects without their byte fields: the hash, sender and
 * public key of the whole batch are packed into one transferred buffer (one allocation and no per-record
 * buffer objects for the receiving thread to rebuild), and `unpackBatch` gives each record views of it.
 */

import type { GethGenesis } from '../../execution/chain-config.ts'
import type { PreparedTx } from '../../txpool/prepared.ts'

export interface WorkerInit {
  readonly genesis: GethGenesis
}

export interface WorkItem {
  readonly raw: Uint8Array
  readonly number: bigint
  readonly timestamp: bigint
}

/**
 * A burst's request, as one transferred buffer rather than an object per item (each with its own byte
 * array and two bigints for both threads to clone: ~1 µs a transaction): `packRequest` / `unpackRequest`.
 * One buffer, not three: each transferred buffer costs the posting thread ~1 µs (detach and re-attach).
 *
 * Layout of `buffer` for `count` items: the items' pending blocks (number at 2i, timestamp at 2i + 1, 64-bit
 * each, so at the start to stay aligned), then their ends (item i's raw transaction ends at `ends[i]`, 32-bit,
 * relative to the raws), then the raw transactions end to end.
 */
export interface WorkRequest {
  readonly id: number
  readonly count: number
  readonly buffer: ArrayBuffer
}

/** The request for `items`; transfer `requestBuffers(request)` with it. */
export function packRequest(id: number, items: readonly WorkItem[]): WorkRequest {
  const count = items.length
  let total = 0
  for (const item of items) total += item.raw.length
  const rawsAt = count * 20
  const buffer = new ArrayBuffer(rawsAt + total)
  const blocks = new BigUint64Array(buffer, 0, count * 2)
  const ends = new Uint32Array(buffer, count * 16, count)
  const raws = new Uint8Array(buffer, rawsAt, total)
  let at = 0
  for (let i = 0; i < count; i++) {
    const item = items[i]!
    raws.set(item.raw, at)
    at += item.raw.length
    ends[i] = at
    blocks[2 * i] = item.number
    blocks[2 * i + 1] = item.timestamp
  }
  return { id, count, buffer }
}

export function requestBuffers(request: WorkRequest): ArrayBuffer[] {
  return [request.buffer]
}

/** The items of a request; each `raw` is a view of the request's buffer. */
export function unpackRequest(request: WorkRequest): WorkItem[] {
  const { count, buffer } = request
  const blocks = new BigUint64Array(buffer, 0, count * 2)
  const ends = new Uint32Array(buffer, count * 16, count)
  const raws = new Uint8Array(buffer, count * 20)
  const items: WorkItem[] = []
  let from = 0
  for (let i = 0; i < count; i++) {
    const to = ends[i]!
    items.push({ raw: raws.subarray(from, to), number: blocks[2 * i]!, timestamp: blocks[2 * i + 1]! })
    from = to
  }
  return items
}

type WireRecord = Omit<PreparedTx, 'hash' | 'sender' | 'senderPublicKey' | 'to'>

/** A batch's answer; the first message of a worker is the string 'ready' instead. */
export interface WorkReply {
  readonly id: number
  /** Per item: its record without the byte fields, or null. */
  readonly records: readonly (WireRecord | null)[]
  /**
   * Per item, at RECORD_BYTES × its index: hash (32), sender (20), public key (64), recipient (20; zeros for
   * a creation, which `isCreate` tells). Zeros for null items.
   */
  readonly bytes: Uint8Array<ArrayBuffer>
}

const HASH = 32
const SENDER = 20
const PUBLIC_KEY = 64
const TO = 20
const RECORD_BYTES = HASH + SENDER + PUBLIC_KEY + TO

// Records are copied field by field (both ways, by `scalarsOf`): one object shape for all, and several times
// faster than a spread or rest pattern; the types make a field added to PreparedTx fail to compile here until
// it is copied.

/** The reply to request `id`; transfer `reply.bytes.buffer` with it. */
export function packBatch(id: number, prepared: readonly (PreparedTx | null)[]): WorkReply {
  const bytes = new Uint8Array(prepared.length * RECORD_BYTES)
  const records = prepared.map((p, i): WireRecord | null => {
    if (p === null) return null
    const at = i * RECORD_BYTES
    bytes.set(p.hash, at)
    bytes.set(p.sender, at + HASH)
    bytes.set(p.senderPublicKey, at + HASH + SENDER)
    if (p.to !== undefined) bytes.set(p.to, at + HASH + SENDER + PUBLIC_KEY)
    return scalarsOf(p)
  })
  return { id, records, bytes }
}

/** The prepared record of item `i` of a reply, or undefined for a null item. */
export function unpackRecord(reply: WorkReply, i: number): PreparedTx | undefined {
  const r = reply.records[i]
  if (r === null || r === undefined) return undefined
  const at = i * RECORD_BYTES
  const b = reply.bytes
  const record = scalarsOf(r) as { -readonly [K in keyof PreparedTx]: PreparedTx[K] }
  record.hash = b.subarray(at, at + HASH)
  record.sender = b.subarray(at + HASH, at + HASH + SENDER)
  record.senderPublicKey = b.subarray(at + HASH + SENDER, at + HASH + SENDER + PUBLIC_KEY)
  record.to = r.isCreate ? undefined : b.subarray(at + HASH + SENDER + PUBLIC_KEY, at + RECORD_BYTES)
  return record
}

/** The record's fields other than its bytes, copied into a fresh object. */
function scalarsOf(r: WireRecord): WireRecord {
  return {
    type: r.type,
    hashHex: r.hashHex,
    chainId: r.chainId,
    nonce: r.nonce,
    gasLimit: r.gasLimit,
    feeCap: r.feeCap,
    tipCap: r.tipCap,
    value: r.value,
    isCreate: r.isCreate,
    dataLength: r.dataLength,
    size: r.size,
    blobFeeCap: r.blobFeeCap,
    blobCount: r.blobCount,
    sidecar: r.sidecar,
    authorizationCount: r.authorizationCount,
    dataOffset: r.dataOffset,
    accessList: r.accessList,
    fork: r.fork,
    senderHex: r.senderHex,
    intrinsicGas: r.intrinsicGas,
    floorDataGas: r.floorDataGas,
  }
}
