/**
 * A pooled transaction as the sequencer's candidate: its bytes, hash and sender, its library object only
 * when asked for (a prepared transaction builds it then), and, for a legacy, EIP-2930 or EIP-1559
 * transaction, the pooled record itself as the view the block builder runs on (execution/tx-view.ts), so
 * that it is included without its library object ever being built on the way.
 */

import type { TypedTransaction } from '@ethereumjs/tx'
import type { TxView } from '../execution/tx-view.ts'
import type { PoolCandidate } from '../sequencer/sequencer.ts'
import type { PooledTx } from '../txpool/decode.ts'

export function poolCandidate(pooled: PooledTx): PoolCandidate {
  return new PooledCandidate(pooled)
}

class PooledCandidate implements PoolCandidate {
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly raw: Uint8Array
  readonly view: TxView

  constructor(private readonly pooled: PooledTx) {
    this.hash = pooled.hash
    this.sender = pooled.sender
    this.raw = pooled.raw
    // The record itself: the block builder runs from it where it describes the execution input (viewOf).
    this.view = pooled
  }

  get tx(): TypedTransaction {
    return this.pooled.tx
  }
}
