/**
 * An admission worker thread: raw signed transactions in, prepared records (txpool/prepared.ts) out.
 *
 * Admitting a transaction costs ~200 µs of decoding and signature work (RLP, the hash, the library object,
 * the message hash and ecrecover, the sender's address, the gas figures); doing it here lets the main
 * thread spend its core on HTTP, the pool and the sequencer, which then receives ready records.
 * It runs the pool's own decoder for the fork the main thread names, so a record is what the main thread
 * would have computed. Anything that fails here (and blob transactions in network form, whose proofs the
 * main thread verifies) answers null: the main thread then decodes inline and produces the proper
 * rejection, so this worker never decides admission.
 */

import { parentPort, workerData } from 'node:worker_threads'
import { ChainRules } from '../../execution/chain-config.ts'
import { isPreparable, prepareTx, type PreparedTx } from '../../txpool/prepared.ts'
import { packBatch, unpackRequest, type WorkerInit, type WorkRequest } from './wire.ts'
import { READY } from '../worker-lane.ts'
import { answerMemoryRequests } from '../thread-memory.ts'

const rules = new ChainRules((workerData as WorkerInit).genesis)
const port = parentPort!

port.on('message', (request: WorkRequest) => {
  const prepared = unpackRequest(request).map(({ raw, number, timestamp }): PreparedTx | null => {
    if (!isPreparable(raw)) return null
    try {
      return prepareTx(raw, rules.at(number, timestamp))
    } catch {
      return null
    }
  })
  const reply = packBatch(request.id, prepared)
  port.postMessage(reply, [reply.bytes.buffer])
})

// Loaded (tsx, the libraries, the rules): until this arrives the main thread decodes inline.
answerMemoryRequests(workerData, 'recovery')
port.postMessage(READY)
