/**
 * A follower's transaction admission: it forwards each submission to the sequencer and answers what the
 * sequencer answered (the hash, or its error's code, message and data unchanged). A sequencer that does not
 * answer within the client's deadline is a clear error (`the sequencer did not take the transaction: …`),
 * never a hang.
 *
 * The pending nonce a follower answers counts what it forwarded: a client sending through a follower at
 * high frequency asks for the next nonce before its last transaction shows in a flashblock, and must not be
 * told a nonce it already used. Each forwarded (sender, nonce) is remembered until the pre-confirmed state
 * passes it or `rememberMs` passes (a transaction the sequencer accepted but never included: its nonce is
 * given out again after that). A follower has no pool: nothing is `queued` here.
 *
 * A user deposit (flashnode_sendDeposit, OP Stack chains) is forwarded the same way (`deposit`): the
 * sequencer queues it and makes its source hash, and the follower answers the hash the sequencer answered.
 */

import { bytesToHex, hexToBytes, quantity } from '../primitives/hex.ts'
import { FlashnodeError } from '../errors/errors.ts'
import type { TransactionView } from '../chain/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type { PendingSource } from '../preconf/feed.ts'
import { pendingTransactions } from '../preconf/views.ts'
import { SequencerRefused, SequencerUnreachable, type SequencerClient } from '../follower/sequencer-client.ts'
import { decodeTx, type TxStatus } from '../txpool/index.ts'
import type { TransactionAdmission } from './admission.ts'
import type { DepositRequest } from '../sequencer/block-opening.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

interface Forwarded {
  /** The next nonce after the sender's forwarded transactions. */
  next: bigint
  at: number
}

export class ForwardingAdmission implements TransactionAdmission {
  private readonly forwarded = new Map<string, Forwarded>()
  private readonly hashes = new Map<string, number>()

  constructor(
    private readonly sequencer: SequencerClient,
    private readonly rules: ChainRules,
    private readonly pending: PendingSource,
    private readonly now: () => number,
    /** Told of every forwarded transaction's result. */
    private readonly onResult?: (result: 'accepted' | 'refused' | 'unreachable') => void,
    private readonly rememberMs = 60_000,
  ) {
    // bounded by time (rememberMs), not by count
    registerGauge('forwarded senders', this.forwarded, (m) => ({ entries: m.size }))
    registerGauge('forwarded hashes', this.hashes, (m) => ({ entries: m.size }))
  }

  readonly remote = {
    transactionStatus: async (hash: Uint8Array): Promise<'Known' | 'Unknown'> => {
      const answer = (await this.forward('base_transactionStatus', [bytesToHex(hash)], false)) as { status?: unknown } | null
      return answer?.status === 'Known' ? 'Known' : 'Unknown'
    },
    /** The sequencer's sync send; its receipt's hash on success (the follower then answers with its own copy). */
    submitSync: async (raw: Uint8Array, timeoutMs: number | undefined): Promise<Uint8Array> => {
      const answer = (await this.forward('eth_sendRawTransactionSync', timeoutMs === undefined ? [bytesToHex(raw)] : [bytesToHex(raw), timeoutMs])) as { transactionHash?: unknown } | null
      if (typeof answer?.transactionHash !== 'string') throw new FlashnodeError('internal', `the sequencer answered ${JSON.stringify(answer)} for a transaction`)
      this.onResult?.('accepted')
      return hexToBytes(answer.transactionHash)
    },
  }

  /** One call to the sequencer (`counted`: a transaction, told to onResult); its error (code, message, data) passed on unchanged, or a clear one when it is unreachable. */
  private async forward(method: string, params: readonly unknown[], counted = true): Promise<unknown> {
    try {
      return await this.sequencer.call(method, params)
    } catch (err) {
      if (counted) this.onResult?.(err instanceof SequencerRefused ? 'refused' : 'unreachable')
      if (err instanceof SequencerRefused) throw new FlashnodeError('transactionRejected', err.message, { code: err.code, ...(err.data !== undefined ? { data: err.data } : {}) })
      if (err instanceof SequencerUnreachable) throw new FlashnodeError('internal', `the sequencer did not take the transaction: ${err.message}`, { cause: err })
      throw err
    }
  }

  /** Forwards a user deposit to the sequencer's flashnode_sendDeposit; the deposit's hash it answered. */
  async deposit(request: DepositRequest): Promise<Uint8Array> {
    const args = {
      from: bytesToHex(request.from),
      ...(request.to === null ? { isCreation: true } : { to: bytesToHex(request.to) }),
      mint: quantity(request.mint),
      value: quantity(request.value),
      gas: quantity(request.gas),
      data: bytesToHex(request.data),
    }
    const answer = await this.forward('flashnode_sendDeposit', [args])
    if (typeof answer !== 'string') throw new FlashnodeError('internal', `the sequencer answered ${JSON.stringify(answer)} for a deposit`)
    this.onResult?.('accepted')
    return hexToBytes(answer)
  }

  async submit(raw: Uint8Array): Promise<Uint8Array> {
    // Decoded here first: a malformed transaction gets this node's own geth-worded error without a round trip.
    const snapshot = this.pending.snapshot()
    if (snapshot === undefined) throw new FlashnodeError('internal', 'the follower has not joined its sequencer yet: no pending block')
    const tx = decodeTx(raw, this.rules.at(snapshot.header.number, snapshot.header.timestamp))
    const answer = await this.forward('eth_sendRawTransaction', [bytesToHex(raw)])
    if (typeof answer !== 'string') throw new FlashnodeError('internal', `the sequencer answered ${JSON.stringify(answer)} for a transaction`)
    this.onResult?.('accepted')
    const at = this.now()
    const entry = this.forwarded.get(tx.senderHex)
    if (entry === undefined || entry.next <= tx.nonce || at - entry.at > this.rememberMs) this.forwarded.set(tx.senderHex, { next: tx.nonce + 1n, at })
    else entry.at = at
    this.hashes.set(bytesToHex(tx.hash), at)
    this.forget(at)
    return hexToBytes(answer)
  }

  status(): TxStatus | undefined {
    return undefined
  }

  isKnown(hash: Uint8Array, sealed: boolean): boolean {
    return sealed || this.hashes.has(bytesToHex(hash)) || this.pending.snapshot()?.positions.has(bytesToHex(hash)) === true
  }

  poolNonce(sender: Uint8Array, stateNonce: bigint): bigint {
    const entry = this.forwarded.get(bytesToHex(sender))
    if (entry === undefined || this.now() - entry.at > this.rememberMs) return stateNonce
    return entry.next > stateNonce ? entry.next : stateNonce
  }

  unsealedNonce(sender: Uint8Array): bigint {
    const snapshot = this.pending.snapshot()
    const nonce = snapshot === undefined ? 0n : (this.pending.state(snapshot).getAccount(sender)?.nonce ?? 0n)
    return this.poolNonce(sender, nonce)
  }

  poolTransaction(): TransactionView | undefined {
    return undefined
  }

  unsealedTransaction(hash: Uint8Array): TransactionView | undefined {
    const snapshot = this.pending.snapshot()
    const index = snapshot?.positions.get(bytesToHex(hash))
    return snapshot === undefined || index === undefined ? undefined : pendingTransactions(snapshot)[index]
  }

  /** Drops what is older than `rememberMs`. */
  private forget(now: number): void {
    if (this.hashes.size < 10_000 && this.forwarded.size < 10_000) return
    for (const [k, at] of this.hashes) if (now - at > this.rememberMs) this.hashes.delete(k)
    for (const [k, f] of this.forwarded) if (now - f.at > this.rememberMs) this.forwarded.delete(k)
  }
}
