/**
 * The key schema: every key the node writes, built in one place.
 *
 * Each key starts with a one-byte table tag. Block numbers are 8-byte big-endian so that keys sort by
 * number; history tables append the block number to the item key, so "the value at block N" is the floor
 * entry at or below (item, N).
 *
 *   meta      'm' name                       -> value (head, safe, finalized, chain config, …)
 *   header    'h' num                        -> header RLP (canonical chain)
 *   block     'b' num                        -> whole block RLP
 *   senders   'f' num                        -> 20-byte senders, concatenated in tx order
 *   receipts  'r' num                        -> receipt records (chain/receipt-codec.ts)
 *   hashIndex 'H' blockHash                  -> num
 *   txIndex   'x' txHash                     -> num ++ u32 index
 *   account   'a' address num                -> account RLP at that block; empty = absent
 *   storage   's' address slot num           -> slot value (minimal bytes; empty = zero)
 *   wipe      'w' address num                -> empty: storage cleared (self-destruct / re-creation)
 *   latest    'A' address                    -> num ++ account RLP: the newest entry of the account table
 *             'S' address slot               -> num ++ slot value: the newest entry of the storage table
 *             'W' address                    -> num: the newest entry of the wipe table
 *             (a read at block N >= num is one point lookup instead of an ordered-key floor; written in
 *             the same batch as the history entry it mirrors, complete through the block that meta
 *             'latestState' names)
 *   code      'c' codeHash                   -> code
 *   trie      't' nodeHash                   -> Merkle-Patricia node (state roots; never pruned: archive)
 *   journal   'j' num index                  -> pre-confirmation journal (sequencer/journal.ts)
 *   pool      'p' txHash                     -> raw transaction accepted into the pool, not yet pre-confirmed
 *   deposits  'd' seq                        -> an OP Stack user deposit queued for a block not yet opened
 *                                               (sequencer/deposit-queue.ts)
 */

const TAG = {
  meta: 0x6d,
  header: 0x68,
  block: 0x62,
  senders: 0x66,
  receipts: 0x72,
  hashIndex: 0x48,
  txIndex: 0x78,
  account: 0x61,
  storage: 0x73,
  wipe: 0x77,
  latestAccount: 0x41,
  latestStorage: 0x53,
  latestWipe: 0x57,
  code: 0x63,
  trie: 0x74,
  journal: 0x6a,
  pool: 0x70,
  depositQueue: 0x64,
} as const

function withTag(tag: number, ...parts: Uint8Array[]): Uint8Array {
  let length = 1
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  out[0] = tag
  let offset = 1
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

/**
 * A history key: tag, the item's bytes, the block number (8 bytes, big-endian). Built as a Buffer of its own
 * (not from the shared pool: a key may be kept or sent to another thread), which the database takes as it is,
 * with the number written in place: every state read at a block builds two of these, and the generic path
 * (an 8-byte array, a DataView, then a Buffer view for the database) cost ~6% of a worker's eth_call.
 */
function historyKey(tag: number, item: Uint8Array, slot: Uint8Array | undefined, num: bigint): Uint8Array {
  const itemEnd = 1 + item.length
  const blockAt = slot === undefined ? itemEnd : itemEnd + slot.length
  const out = Buffer.allocUnsafeSlow(blockAt + 8)
  out[0] = tag
  out.set(item, 1)
  if (slot !== undefined) out.set(slot, itemEnd)
  out.writeBigUInt64BE(num, blockAt)
  return out
}

/** A latest-state key: tag, address, slot when given. A Buffer of its own, as historyKey's (read per state read). */
function latestKey(tag: number, address: Uint8Array, slot: Uint8Array | undefined): Uint8Array {
  const out = Buffer.allocUnsafeSlow(1 + address.length + (slot === undefined ? 0 : slot.length))
  out[0] = tag
  out.set(address, 1)
  if (slot !== undefined) out.set(slot, 1 + address.length)
  return out
}

// u64 and u32 write their bytes one by one: a DataView over `out.buffer` would give the small array an
// off-heap backing store of its own (~0.2 µs, and work for the collector), on every key and location written.

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

export function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8)
  if (n >= 0n && n <= MAX_SAFE) {
    let v = Number(n)
    for (let i = 7; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256
  } else {
    new DataView(out.buffer).setBigUint64(0, n)
  }
  return out
}

export function readU64(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset)
}

export function u32(n: number): Uint8Array {
  const out = new Uint8Array(4)
  out[0] = n >>> 24
  out[1] = n >>> 16
  out[2] = n >>> 8
  out[3] = n
  return out
}

export function readU32(bytes: Uint8Array, offset = 0): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset)
}

const utf8 = new TextEncoder()

export const keys = {
  meta: (name: string) => withTag(TAG.meta, utf8.encode(name)),
  header: (num: bigint) => withTag(TAG.header, u64(num)),
  block: (num: bigint) => withTag(TAG.block, u64(num)),
  senders: (num: bigint) => withTag(TAG.senders, u64(num)),
  receipts: (num: bigint) => withTag(TAG.receipts, u64(num)),
  hashIndex: (hash: Uint8Array) => withTag(TAG.hashIndex, hash),
  txIndex: (hash: Uint8Array) => withTag(TAG.txIndex, hash),
  account: (address: Uint8Array, num: bigint) => historyKey(TAG.account, address, undefined, num),
  storage: (address: Uint8Array, slot: Uint8Array, num: bigint) => historyKey(TAG.storage, address, slot, num),
  wipe: (address: Uint8Array, num: bigint) => historyKey(TAG.wipe, address, undefined, num),
  latestAccount: (address: Uint8Array) => latestKey(TAG.latestAccount, address, undefined),
  latestStorage: (address: Uint8Array, slot: Uint8Array) => latestKey(TAG.latestStorage, address, slot),
  latestWipe: (address: Uint8Array) => latestKey(TAG.latestWipe, address, undefined),
  /** The first key of a history table (account, storage, wipe) and the first key after it. */
  historyTable: (table: 'account' | 'storage' | 'wipe') => ({ start: withTag(TAG[table]), end: withTag(TAG[table] + 1) }),
  code: (codeHash: Uint8Array) => withTag(TAG.code, codeHash),
  trie: (nodeHash: Uint8Array) => withTag(TAG.trie, nodeHash),
  journal: (...parts: Uint8Array[]) => withTag(TAG.journal, ...parts),
  pool: (hash: Uint8Array) => withTag(TAG.pool, hash),
  poolEnd: () => withTag(TAG.pool + 1),
  depositQueue: (seq: bigint) => withTag(TAG.depositQueue, u64(seq)),
  depositQueueEnd: () => withTag(TAG.depositQueue + 1),
}

/** Block number stored in the last 8 bytes of a history key. */
export const historyKeyBlock = (key: Uint8Array): bigint => readU64(key, key.length - 8)

/** Whether two history keys name the same item (they differ at most in their block number). */
export function sameHistoryItem(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length - 8; i++) if (a[i] !== b[i]) return false
  return true
}

/** The latest-state key of the item a history key (account, storage or wipe) names. */
export function latestKeyOfHistoryKey(key: Uint8Array): Uint8Array {
  const address = key.subarray(1, 21)
  if (key[0] === TAG.account) return keys.latestAccount(address)
  if (key[0] === TAG.wipe) return keys.latestWipe(address)
  if (key[0] === TAG.storage) return keys.latestStorage(address, key.subarray(21, key.length - 8))
  throw new Error(`not a state history key (tag ${key[0]})`)
}
