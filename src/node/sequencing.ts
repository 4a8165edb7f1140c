/**
 * The node's write side: the pool, the sequencer and what joins them.
 *
 * - Submission: a raw transaction is admitted against the newest pre-confirmed state and environment, and
 *   written durably (group-committed with other submissions of the same moment) before its hash is
 *   answered; so an accepted transaction survives a restart even before it is pre-confirmed.
 * - For the sequencer it is the pool port: best candidates, inclusion (the persisted copies are deleted in
 *   the flashblock's own journal batch), drops, and the state moving on (which is also when gapped
 *   transactions past the queue lifetime expire).
 * - For reads it is the pending source (the newest snapshot and its state) of the facade with
 *   pre-confirmations, and for every facade the pool's side of `pending`: nonces, unsealed transactions.
 * - `waitForReceipt` serves eth_sendRawTransactionSync, up to the pre-confirmation or, for a facade
 *   without pre-confirmations, the seal: it looks up the receipt right after subscribing, so a receipt
 *   published in between is never missed.
 */

import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { transactionView } from '../execution/views.ts'
import type { TxPool } from '../txpool/pool.ts'
import type { CandidateIterator, Sequencer, SequencerPool } from '../sequencer/sequencer.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { TransactionView } from '../chain/types.ts'
import type { PendingSource } from './pending.ts'
import type { LocatedReceipt } from './api.ts'
import { pendingContext, pendingReceipts, pendingTransactions } from '../preconf/views.ts'
import type { SenderRecovery } from './sender-recovery/recovery-pool.ts'
import { poolCandidate } from './pool-candidate.ts'

export class Sequencing implements PendingSource, SequencerPool {
  private sequencer!: Sequencer
  /** Persisted pool entries to delete with the next flashblock batch (evicted, replaced, expired). */
  private readonly staleEntries = new Set<string>()

  constructor(
    private readonly kv: KvStore,
    private readonly rules: ChainRules,
    readonly pool: TxPool,
    /** Decoding and signature work of submissions off the main thread; absent: inline. */
    private readonly recovery?: SenderRecovery,
  ) {
    pool.events.on('dropped', (hash, reason) => {
      if (reason !== 'included') this.staleEntries.add(hash)
    })
  }

  attach(sequencer: Sequencer): void {
    this.sequencer = sequencer
  }

  // --- pending source --------------------------------------------------------------------------------

  snapshot(): PreconfirmedSnapshot {
    return this.sequencer.snapshot()
  }

  state(snapshot: PreconfirmedSnapshot): StateReader {
    return this.sequencer.pendingState(snapshot)
  }

  // --- the pool's side of pending (every facade of a sequencing node) ---------------------------------

  /** The nonce after the sender's consecutive pool transactions, from `stateNonce` on. */
  poolNonce(sender: Uint8Array, stateNonce: bigint): bigint {
    return this.pool.pendingNonce(sender, stateNonce)
  }

  /**
   * The next nonce counting every transaction the node accepted and has not sealed (pre-confirmed or in
   * the pool): what a sealed-only facade answers for `pending`, as geth's pending nonce counts its pool.
   */
  pendingNonce(sender: Uint8Array): bigint {
    return this.poolNonce(sender, this.state(this.snapshot()).getAccount(sender)?.nonce ?? 0n)
  }

  poolTransaction(hash: Uint8Array): TransactionView | undefined {
    const pooled = this.pool.get(hash)
    return pooled === undefined ? undefined : transactionView(pooled.tx, pooled.sender, pooled.hash)
  }

  /** A transaction accepted and not sealed yet (pre-confirmed or in the pool), without a place in a block. */
  unsealedTransaction(hash: Uint8Array): TransactionView | undefined {
    const snapshot = this.snapshot()
    const index = snapshot.positions.get(bytesToHex(hash))
    return index !== undefined ? pendingTransactions(snapshot)[index] : this.poolTransaction(hash)
  }

  // --- submission --------------------------------------------------------------------------------------

  /** Admits `raw` into the pool and persists it; resolves to its hash once durable. */
  async submit(raw: Uint8Array): Promise<Uint8Array> {
    const opened = this.snapshot().header
    const prepared = await this.recovery?.prepare(raw, opened.number, opened.timestamp)
    // Admission runs against the snapshot of this moment (a flashblock may have come while recovering).
    const snapshot = this.snapshot()
    const header = snapshot.header
    const common = this.rules.at(header.number, header.timestamp)
    const result = this.pool.add(raw, this.state(snapshot), {
      common,
      baseFee: header.baseFeePerGas ?? 0n,
      blockGasLimit: header.gasLimit,
      ...(common.isActivatedEIP(4844) ? { blobBaseFee: header.getBlobGasPrice() } : {}),
      ...(prepared !== undefined ? { prepared } : {}),
    })
    const hash = result.tx.hash
    const batch = this.kv.batch()
    batch.put(keys.pool(hash), raw)
    if (result.replaced !== undefined) batch.del(keys.pool(hexToBytes(result.replaced)))
    await this.kv.commitAsync(batch)
    return hash
  }

  /** Whether the node knows the transaction: in the pool, pre-confirmed, or sealed. */
  isKnown(hash: Uint8Array, sealed: boolean): boolean {
    return sealed || this.pool.has(hash) || this.snapshot().positions.has(bytesToHex(hash))
  }

  /** Re-admits the transactions persisted by an earlier run (those still valid). */
  restorePool(): { restored: number; dropped: number } {
    let restored = 0
    let dropped = 0
    const batch = this.kv.batch()
    for (const { key, value } of this.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())) {
      try {
        const snapshot = this.snapshot()
        const h = snapshot.header
        this.pool.add(value, this.state(snapshot), {
          common: this.rules.at(h.number, h.timestamp),
          baseFee: h.baseFeePerGas ?? 0n,
          blockGasLimit: h.gasLimit,
        })
        restored++
      } catch {
        batch.del(key)
        dropped++
      }
    }
    this.kv.commit(batch)
    return { restored, dropped }
  }

  // --- the sequencer's pool port -------------------------------------------------------------------------

  candidates(baseFee: bigint): CandidateIterator {
    const best = this.pool.best(baseFee)
    return {
      next: () => {
        const tx = best.next()
        return tx === undefined ? undefined : poolCandidate(tx)
      },
      skipSender: (sender) => best.skipSender(sender),
    }
  }

  included(batch: WriteBatch, hashes: readonly Uint8Array[]): void {
    this.pool.included(hashes)
    for (const h of hashes) batch.del(keys.pool(h))
    for (const h of this.staleEntries) batch.del(keys.pool(hexToBytes(h)))
    this.staleEntries.clear()
  }

  drop(hash: Uint8Array, reason: string): void {
    this.pool.remove(hash, reason)
  }

  stateChanged(state: StateReader): void {
    const snapshot = this.sequencer.snapshot()
    this.pool.onNewState(state, {
      touched: [...snapshot.diff.accounts.keys()],
      baseFee: snapshot.header.baseFeePerGas ?? 0n,
      blockGasLimit: snapshot.header.gasLimit,
    })
    // Gapped transactions that waited past the queue lifetime leave now (by the pool's clock, the sequencer's).
    this.pool.expire()
  }

  // --- eth_sendRawTransactionSync -------------------------------------------------------------------------

  /**
   * Resolves with the receipt once `hash` is pre-confirmed (`stage` 'preconfirmed'), or once it is sealed
   * ('sealed': a facade without pre-confirmations); null after `timeoutMs`. `lookup` (the facade's own
   * receipt lookup) runs once after subscribing, for a receipt published before that, and after each seal.
   */
  waitForReceipt(
    hash: Uint8Array,
    timeoutMs: number,
    lookup: () => Promise<LocatedReceipt | null>,
    signal?: AbortSignal,
    stage: 'preconfirmed' | 'sealed' = 'preconfirmed',
  ): Promise<LocatedReceipt | null> {
    const key = bytesToHex(hash)
    const find = (s: PreconfirmedSnapshot): LocatedReceipt | undefined => {
      const i = s.positions.get(key)
      return i === undefined ? undefined : { receipt: pendingReceipts(s)[i]!, context: pendingContext(s) }
    }
    return new Promise((resolve) => {
      let done = false
      const finish = (r: LocatedReceipt | null) => {
        if (done) return
        done = true
        clearTimeout(timer)
        this.sequencer.off('flashblock', onFlashblock)
        this.sequencer.off('sealed', onSealed)
        signal?.removeEventListener('abort', onAbort)
        resolve(r)
      }
      const look = () => lookup().then((r) => r !== null && finish(r), () => undefined)
      const onFlashblock = (s: PreconfirmedSnapshot) => {
        const r = find(s)
        if (r !== undefined) finish(r)
      }
      const onSealed = () => void look()
      const onAbort = () => finish(null)
      const timer = setTimeout(() => finish(null), timeoutMs)
      if (stage === 'preconfirmed') this.sequencer.on('flashblock', onFlashblock)
      else this.sequencer.on('sealed', onSealed)
      signal?.addEventListener('abort', onAbort)
      void look()
    })
  }
}
