/**
 * A sequencer group's user deposits (OP Stack, `flashnode_sendDeposit`), kept on the group's brokers until a
 * block opening includes them, so that a deposit whose hash the leader answered survives the leader's death
 * (docs/scaling.md, "Deposits in a group"). It implements the sequencer's deposit keeper
 * (sequencer/deposit-keeping.ts) structurally; node/ and cli/ wire it in for a leader's term.
 *
 * One JetStream key-value bucket per chain, `FLASHNODE_DEPOSITS_<chainId>`, replicated like the stream (3 on a
 * cluster), file-stored, one value per key: `d.<forBlock>.<logIndex>` → the deposit's envelope. The key is
 * what the deposit's source hash is made from, so a key names one deposit for ever:
 *
 * - keep = create the key only if absent (compare-and-set on the key), answered once the bucket's Raft group
 *   stored it. The log index starts at term · 2^32 (the leader's term, leader-lease.ts): two leaders never
 *   choose the same key, not even a stale one after its successor included and deleted that key (a create
 *   on a deleted key succeeds). A key found taken anyway is skipped for the next index. No answer within the
 *   bound: the keep fails (BrokerUnavailable), the hash is not answered.
 * - taken = the opening that includes the first waiting deposits was journaled: they wait no more here;
 *   acknowledged = the replicated stream stored that opening: their keys are deleted (in the background; a
 *   delete that fails leaves a key that the next leader finds included and deletes).
 * - open (a takeover) = every key read back, in the order the bucket stored them; a deposit the chain already
 *   holds (`included`: a sealed block, or the open block this leader continues from the stream's tail) is
 *   dropped and its key deleted, so it is never included twice. A watch then adds what an older leader's
 *   late write stores after this listing.
 *
 * It never builds or runs deposits, never decides which block takes them, and owns no connection.
 */

import { jetstream } from '@nats-io/jetstream'
import { Kvm, KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/transport-node'
import { depositTransactionHash } from '../opstack/deposit-tx.ts'
import { whilePlacing } from './placement.ts'
import { isWrongLastSequence, unavailableOr } from './coordination-errors.ts'

/** The bound on keeping one deposit (the same as the announcement gate's before it gives up). */
export const DEFAULT_KEEP_TIMEOUT_MS = 1_500
const DEFAULT_SETUP_TIMEOUT_MS = 10_000
/** Keys found taken in a row before a keep gives up (each one an older leader's deposit for the same block). */
const MAX_TAKEN_KEYS = 64

export interface ReplicatedDepositsOptions {
  readonly chainId: bigint
  /** The term of the leader keeping deposits: its log indices start at term · 2^32. */
  readonly term: number
  /** The bucket's replicas when this creates it (3 in a cluster; 1 on a single server). */
  readonly replicas?: number
  /** Whether the chain already holds this deposit (its transaction hash): sealed, or in the open block taken over. */
  readonly included: (hash: Uint8Array) => boolean
  /** The bound on keeping one deposit (DEFAULT_KEEP_TIMEOUT_MS). */
  readonly keepTimeoutMs?: number
  /** The bound on opening (creating) the bucket. */
  readonly setupTimeoutMs?: number
}

/** A deposit as the keeper holds it (sequencer/deposit-keeping.ts's KeptDeposit, plus where it is kept). */
export interface ReplicatedDeposit {
  readonly forBlock: bigint
  readonly logIndex: bigint
  readonly envelope: Uint8Array
  readonly key: string
  /** The bucket revision that stored it: the order deposits were kept in. */
  readonly revision: number
}

export function depositBucketName(chainId: bigint): string {
  return `FLASHNODE_DEPOSITS_${chainId}`
}

const keyOf = (forBlock: bigint, logIndex: bigint): string => `d.${forBlock}.${logIndex}`

function parseKey(key: string): { forBlock: bigint; logIndex: bigint } | undefined {
  const m = /^d\.(\d+)\.(\d+)$/.exec(key)
  return m === null ? undefined : { forBlock: BigInt(m[1]!), logIndex: BigInt(m[2]!) }
}

export class ReplicatedDeposits {
  private readonly queue: ReplicatedDeposit[] = []
  /** Taken by an opening not yet acknowledged. */
  private takenByOpening: ReplicatedDeposit[] = []
  /** Every key this keeper has held or dropped: the watch adds none twice. */
  private readonly known = new Set<string>()
  /** The highest log index seen or tried per block: a new deposit takes a higher one. */
  private readonly highest = new Map<bigint, bigint>()
  private watcher: Awaited<ReturnType<KV['watch']>> | undefined

  /** The first log index this leader's term may use for any block. */
  private readonly firstIndex: bigint

  private constructor(
    private readonly kv: KV,
    private readonly included: (hash: Uint8Array) => boolean,
    term: number,
  ) {
    this.firstIndex = BigInt(term) << 32n
  }

  /** Opens the chain's bucket (created when absent) and reads back every deposit waiting in it. */
  static async open(nc: NatsConnection, options: ReplicatedDepositsOptions): Promise<ReplicatedDeposits> {
    const bucket = depositBucketName(options.chainId)
    const setupMs = options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS
    const setup = new Kvm(jetstream(nc, { timeout: setupMs }))
    await whilePlacing(() => setup.create(bucket, { history: 1, replicas: options.replicas ?? 3, allow_direct: false }), performance.now() + setupMs).catch((err: unknown) => {
      throw unavailableOr('create the deposit bucket', err)
    })
    // Reads and writes go to the bucket's Raft leader: a listing never misses a deposit a write was answered for.
    const kv = await new Kvm(jetstream(nc, { timeout: options.keepTimeoutMs ?? DEFAULT_KEEP_TIMEOUT_MS })).open(bucket, { allow_direct: false }).catch((err: unknown) => {
      throw unavailableOr('open the deposit bucket', err)
    })
    const deposits = new ReplicatedDeposits(kv, options.included, options.term)
    try {
      // The watch first, then the listing: a write between the two is in one of them (or both: known once).
      const watcher = await kv.watch({ include: KvWatchInclude.UpdatesOnly, ignoreDeletes: true })
      deposits.watcher = watcher
      void (async () => {
        for await (const entry of watcher) deposits.heard(entry)
      })().catch(() => undefined)
      const listing = await setup.open(bucket, { allow_direct: false })
      const keys: string[] = []
      for await (const key of await listing.keys()) keys.push(key)
      const entries = await Promise.all(keys.map((key) => listing.get(key)))
      for (const entry of entries.filter((e): e is KvEntry => e !== null).sort((a, b) => a.revision - b.revision)) deposits.heard(entry)
    } catch (err) {
      deposits.close()
      throw unavailableOr('read the deposit bucket', err)
    }
    return deposits
  }

  /** The deposits waiting, in the order the bucket stored them. */
  get waiting(): readonly ReplicatedDeposit[] {
    return this.queue
  }

  /**
   * Keeps a deposit for `forBlock` under the next free log index; resolves once a quorum stored it. Rejects
   * with BrokerUnavailable when the bucket does not answer in time (the write may still be stored later:
   * then a leader's watch or listing finds it and includes it).
   */
  async keep(forBlock: bigint, build: (logIndex: bigint) => Uint8Array): Promise<ReplicatedDeposit> {
    for (let tries = 0; tries < MAX_TAKEN_KEYS; tries++) {
      const next = (this.highest.get(forBlock) ?? -1n) + 1n
      const logIndex = next > this.firstIndex ? next : this.firstIndex
      this.highest.set(forBlock, logIndex)
      const key = keyOf(forBlock, logIndex)
      const envelope = build(logIndex)
      let revision: number
      try {
        revision = await this.kv.create(key, envelope)
      } catch (err) {
        if (isWrongLastSequence(err)) continue
        throw unavailableOr('keep the deposit', err)
      }
      // The watch may have told of this very write already.
      const heard = this.queue.find((d) => d.key === key)
      if (heard !== undefined) return heard
      const kept: ReplicatedDeposit = { forBlock, logIndex, envelope, key, revision }
      this.known.add(key)
      this.insert(kept)
      return kept
    }
    throw new Error(`${MAX_TAKEN_KEYS} log indices of block ${forBlock} were taken by other writers: the deposit was not kept`)
  }

  /** The first `count` waiting deposits were included in an opening (journaled, not yet acknowledged). */
  taken(_batch: unknown, count: number): void {
    this.takenByOpening.push(...this.queue.splice(0, count))
  }

  /** The opening that took them is in the stream: their keys are deleted (in the background). */
  acknowledged(): void {
    const done = this.takenByOpening
    this.takenByOpening = []
    for (const d of done) this.forget(d.key)
  }

  /** Stops watching the bucket (the connection stays the caller's). */
  close(): void {
    this.watcher?.stop()
    this.watcher = undefined
  }

  // --- internals ----------------------------------------------------------------------------------

  /** A stored deposit read back or heard of: waiting, unless the chain already holds it. */
  private heard(entry: KvEntry): void {
    if (entry.operation !== 'PUT' || this.known.has(entry.key)) return
    const place = parseKey(entry.key)
    if (place === undefined) return
    this.known.add(entry.key)
    if ((this.highest.get(place.forBlock) ?? -1n) < place.logIndex) this.highest.set(place.forBlock, place.logIndex)
    const envelope = entry.value.slice()
    if (this.included(depositTransactionHash(envelope))) {
      this.forget(entry.key)
      return
    }
    this.insert({ ...place, envelope, key: entry.key, revision: entry.revision })
  }

  private insert(d: ReplicatedDeposit): void {
    let i = this.queue.length
    while (i > 0 && this.queue[i - 1]!.revision > d.revision) i--
    this.queue.splice(i, 0, d)
  }

  private forget(key: string): void {
    void this.kv.delete(key).catch(() => undefined)
  }
}
