/**
 * A pooled transaction as the sequencer's candidate: its bytes, hash and sender, its library object only
 * when asked for (a prepared transaction builds it then), and, for a would-be plain transfer, the transfer
 * view the block builder runs on (execution/transfer-view.ts) from what admission computed, so that
 * an ETH transfer is included without its library object ever being built.
 * The view is only used on the fork it names (`PooledTx.fork`, whose rules computed its gas figures).
 */

import type { TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import type { TransferTx } from '../execution/transfer-view.ts'
import type { PoolCandidate } from '../sequencer/sequencer.ts'
import type { PooledTx } from '../txpool/decode.ts'

export function poolCandidate(pooled: PooledTx): PoolCandidate {
  return new PooledCandidate(pooled)
}

class PooledCandidate implements PoolCandidate {
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly raw: Uint8Array
  readonly transfer: TransferTx | undefined

  constructor(private readonly pooled: PooledTx) {
    this.hash = pooled.hash
    this.sender = pooled.sender
    this.raw = pooled.raw
    this.transfer = transferView(pooled)
  }

  get tx(): TypedTransaction {
    return this.pooled.tx
  }
}

function transferView(p: PooledTx): TransferTx | undefined {
  if (p.type > 2 || p.to === undefined) return undefined
  return {
    fork: p.fork,
    type: p.type,
    to: new Address(p.to),
    nonce: p.nonce,
    value: p.value,
    gasLimit: p.gasLimit,
    feeCap: p.feeCap,
    tipCap: p.tipCap,
    intrinsicGas: p.intrinsicGas,
  }
}
