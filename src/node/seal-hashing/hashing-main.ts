/**
 * The seal-hashing worker thread: lists of byte strings in (lists-wire.ts), their ordered-trie roots out.
 * A sealed block's transactions and receipts roots cost ~50 µs per transaction of keccak; here they run on
 * another core while the main thread goes on answering requests and admitting transactions.
 */

import { parentPort, workerData } from 'node:worker_threads'
import { orderedTrieRoot } from '../../execution/ordered-trie.ts'
import { unpackLists } from './lists-wire.ts'
import { READY } from '../worker-lane.ts'
import { answerMemoryRequests } from '../thread-memory.ts'
import type { HashReply, HashRequest } from './seal-hashing.ts'

const port = parentPort!

port.on('message', ({ id, lists }: HashRequest) => {
  const roots = unpackLists(lists).map((values) => orderedTrieRoot(values))
  port.postMessage({ id, roots } satisfies HashReply)
})

// Loaded: until this arrives the main thread computes roots itself.
answerMemoryRequests(workerData, 'seal-hashing')
port.postMessage(READY)
