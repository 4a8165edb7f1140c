/**
 * Transaction admission: where a submitted transaction goes in, and what the node can say of the
 * transactions it accepted and has not sealed (the pool's side of `pending`: nonces, pooled transactions).
 *
 * Admission carries no reads of pre-confirmed state: those come from the feed (preconf/feed.ts), and the
 * facade takes admission and the feed as two inputs, so a facade without pre-confirmations has admission
 * only. Implementations: the node's own pool (PoolAdmission); a follower's will forward to its sequencer.
 *
 * PoolAdmission: a raw transaction is admitted against the newest pre-confirmed state and environment, and
 * written durably (group-committed with other submissions of the same moment) before its hash is answered;
 * so an accepted transaction survives a restart even before it is pre-confirmed.
 */

import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { KvStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { transactionView } from '../execution/views.ts'
import { TransactionRejected, type PendingEnv, type TxPool, type TxStatus } from '../txpool/index.ts'
import type { BlockHeader } from '@ethereumjs/block'
import type { TransactionView } from '../chain/types.ts'
import { FlashnodeError } from '../errors/errors.ts'
import type { PendingSource } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { pendingTransactions } from '../preconf/views.ts'
import type { SenderRecovery } from './sender-recovery/recovery-pool.ts'

export interface TransactionAdmission {
  /** Admits `raw`; resolves to its hash once it is stored durably. */
  submit(raw: Uint8Array): Promise<Uint8Array>
  /** Where an admitted transaction waits: executable (`pending`) or behind a nonce gap (`queued`). */
  status(hash: Uint8Array): TxStatus | undefined
  /** Whether the node knows the transaction: in the pool, pre-confirmed, or (`sealed`) sealed. */
  isKnown(hash: Uint8Array, sealed: boolean): boolean
  /** The nonce after the sender's consecutive pool transactions, from `stateNonce` on. */
  poolNonce(sender: Uint8Array, stateNonce: bigint): bigint
  /**
   * The next nonce counting every transaction the node accepted and has not sealed (pre-confirmed or in
   * the pool): what a sealed-only facade answers for `pending`, as geth's pending nonce counts its pool.
   */
  unsealedNonce(sender: Uint8Array): bigint
  poolTransaction(hash: Uint8Array): TransactionView | undefined
  /** A transaction accepted and not sealed yet (pre-confirmed or in the pool), without a place in a block. */
  unsealedTransaction(hash: Uint8Array): TransactionView | undefined
  /**
   * Where admission is another node's (a follower forwarding to its sequencer): that node's
   * base_transactionStatus answer, and its eth_sendRawTransactionSync answer (hash on success; its error, as
   * given, otherwise). Absent: the node answers both itself.
   */
  readonly remote?: {
    transactionStatus(hash: Uint8Array): Promise<'Known' | 'Unknown'>
    submitSync(raw: Uint8Array, timeoutMs: number | undefined): Promise<Uint8Array>
  }
}

export class PoolAdmission implements TransactionAdmission {
  private lastEnv: { readonly header: BlockHeader; readonly env: PendingEnv } | undefined

  constructor(
    private readonly kv: KvStore,
    private readonly rules: ChainRules,
    readonly pool: TxPool,
    /** The pre-confirmed state transactions are admitted against. */
    private readonly pending: PendingSource,
    /** Decoding and signature work of submissions off the main thread; absent: inline. */
    private readonly recovery?: SenderRecovery,
    /** Told of every submission's result: `accepted`, the pool rule that refused it, `undecodable` or `other`. */
    private readonly onResult?: (result: string) => void,
  ) {}

  private newest(): PreconfirmedSnapshot {
    const snapshot = this.pending.snapshot()
    if (snapshot === undefined) throw new FlashnodeError('internal', 'the node has not started: no pending block yet')
    return snapshot
  }

  status(hash: Uint8Array): TxStatus | undefined {
    return this.pool.status(hash)
  }

  poolNonce(sender: Uint8Array, stateNonce: bigint): bigint {
    return this.pool.pendingNonce(sender, stateNonce)
  }

  unsealedNonce(sender: Uint8Array): bigint {
    const snapshot = this.newest()
    return this.poolNonce(sender, this.pending.state(snapshot).getAccount(sender)?.nonce ?? 0n)
  }

  poolTransaction(hash: Uint8Array): TransactionView | undefined {
    const pooled = this.pool.get(hash)
    return pooled === undefined ? undefined : transactionView(pooled.tx, pooled.sender, pooled.hash)
  }

  unsealedTransaction(hash: Uint8Array): TransactionView | undefined {
    const snapshot = this.newest()
    const index = snapshot.positions.get(bytesToHex(hash))
    return index !== undefined ? pendingTransactions(snapshot)[index] : this.poolTransaction(hash)
  }

  /** Not async: `admit`'s promise, with the result told on the way (one promise, not two, a send). */
  submit(raw: Uint8Array): Promise<Uint8Array> {
    const admitted = this.admit(raw)
    const onResult = this.onResult
    if (onResult === undefined) return admitted
    return admitted.then(
      (hash) => {
        onResult('accepted')
        return hash
      },
      (err: unknown) => {
        onResult(err instanceof TransactionRejected ? err.reason : err instanceof FlashnodeError && err.kind === 'invalidParams' ? 'undecodable' : 'other')
        throw err
      },
    )
  }

  private async admit(raw: Uint8Array): Promise<Uint8Array> {
    const opened = this.newest().header
    const prepared = await this.recovery?.prepare(raw, opened.number, opened.timestamp)
    // Admission runs against the snapshot of this moment (a flashblock may have come while recovering).
    const snapshot = this.newest()
    const env = this.envOf(snapshot.header)
    const result = this.pool.add(
      raw,
      this.pending.state(snapshot),
      prepared === undefined
        ? env
        : { common: env.common, baseFee: env.baseFee, blockGasLimit: env.blockGasLimit, opStack: env.opStack, blobBaseFee: env.blobBaseFee, prepared },
    )
    const hash = result.tx.hash
    const batch = this.kv.batch()
    batch.put(keys.pool(hash), raw)
    if (result.replaced !== undefined) batch.del(keys.pool(hexToBytes(result.replaced)))
    await this.kv.commitAsync(batch)
    return hash
  }

  /**
   * The pool's environment of the pending block `header`: every submission until the next flashblock names
   * the same one, so it is made once per header (its blob base fee is a bigint series).
   */
  private envOf(header: BlockHeader): PendingEnv {
    if (this.lastEnv?.header === header) return this.lastEnv.env
    const common = this.rules.at(header.number, header.timestamp)
    const env: PendingEnv = {
      common,
      baseFee: header.baseFeePerGas ?? 0n,
      blockGasLimit: header.gasLimit,
      opStack: this.rules.op !== undefined ? true : undefined,
      blobBaseFee: common.isActivatedEIP(4844) ? header.getBlobGasPrice() : undefined,
    }
    this.lastEnv = { header, env }
    return env
  }

  isKnown(hash: Uint8Array, sealed: boolean): boolean {
    return sealed || this.pool.has(hash) || this.newest().positions.has(bytesToHex(hash))
  }

  /** Re-admits the transactions persisted by an earlier run (those still valid). */
  restorePool(): { restored: number; dropped: number } {
    let restored = 0
    let dropped = 0
    const batch = this.kv.batch()
    for (const { key, value } of this.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())) {
      try {
        const snapshot = this.newest()
        const h = snapshot.header
        this.pool.add(value, this.pending.state(snapshot), {
          common: this.rules.at(h.number, h.timestamp),
          baseFee: h.baseFeePerGas ?? 0n,
          blockGasLimit: h.gasLimit,
          ...(this.rules.op !== undefined ? { opStack: true } : {}),
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
}
