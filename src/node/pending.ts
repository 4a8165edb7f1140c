/**
 * Where `pending` comes from: the sequencer's newest pre-confirmed snapshot, and the pool's view of each
 * sender's next nonce. Absent when pre-confirmations are off; `pending` then reads the newest sealed block.
 */

import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { TransactionView } from '../chain/types.ts'

export interface PendingSource {
  snapshot(): PreconfirmedSnapshot
  state(snapshot: PreconfirmedSnapshot): StateReader
  /** The nonce after the sender's consecutive pool transactions, if it has any. */
  poolNonce(sender: Uint8Array, stateNonce: bigint): bigint
  /** A transaction that is in the pool, not yet pre-confirmed. */
  poolTransaction(hash: Uint8Array): TransactionView | undefined
}
