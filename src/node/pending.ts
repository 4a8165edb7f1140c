/**
 * Where `pending` comes from: the sequencer's newest pre-confirmed snapshot and its state. A facade built
 * without one serves sealed state only (`pending` reads the newest sealed block): a read-only node, or an
 * endpoint with pre-confirmations off on a sequencing node. (The pool's side of `pending`, nonces and
 * pooled transactions, belongs to the write side: node/sequencing.ts.)
 */

import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { StateReader } from '../state/state-reader.ts'

export interface PendingSource {
  snapshot(): PreconfirmedSnapshot
  state(snapshot: PreconfirmedSnapshot): StateReader
}
