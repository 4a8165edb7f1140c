/**
 * A sender-recovery worker thread: raw signed transactions in, their signers' public keys out.
 *
 * The expensive half of admitting a transaction is signature work (the message hash and ecrecover, ~100 µs
 * of ~170 µs); doing it here lets the main thread spend its core on HTTP, the pool and the sequencer.
 * It runs the pool's own decoder (txpool/decode.ts) for the fork the main thread names, so the key is the one
 * the main thread would have recovered. Anything that fails here answers `null`: the main thread then
 * decodes inline and produces the proper rejection, so this worker never decides admission.
 */

import { parentPort, workerData } from 'node:worker_threads'
import { ChainRules, type GethGenesis } from '../../execution/chain-config.ts'
import { materialize, parseTx } from '../../txpool/decode.ts'

export interface RecoveryInit {
  readonly genesis: GethGenesis
}

export interface RecoveryRequest {
  readonly id: number
  /** Raw transactions with the pending block (number, timestamp) whose fork decodes them. */
  readonly items: readonly { readonly raw: Uint8Array; readonly number: bigint; readonly timestamp: bigint }[]
}

/** A batch's answer; the first message of a worker is the string 'ready' instead. */
export interface RecoveryReply {
  readonly id: number
  /** Per item: the uncompressed public key without its prefix (64 bytes), or null. */
  readonly keys: readonly (Uint8Array | null)[]
}

const rules = new ChainRules((workerData as RecoveryInit).genesis)
const port = parentPort!

port.on('message', (request: RecoveryRequest) => {
  const keys = request.items.map(({ raw, number, timestamp }) => {
    try {
      return materialize(parseTx(raw), rules.at(number, timestamp), 0).tx.getSenderPublicKey()
    } catch {
      return null
    }
  })
  port.postMessage({ id: request.id, keys } satisfies RecoveryReply)
})

// Loaded (tsx, the libraries, the rules): until this arrives the main thread recovers inline.
port.postMessage('ready')
