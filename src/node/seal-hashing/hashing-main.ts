/**
 * The seal-hashing worker thread: lists of byte strings in (lists-wire.ts), their ordered-trie roots out.
 * A sealed block's transactions and receipts roots cost ~50 µs per transaction of keccak; here they run on
 * another core while the main thread goes on answering requests and admitting transactions.
 *
 * A whole block's lists are answered at once (orderedTrieRoot). A fed block's items come in chunks while the
 * block is built: each list's OrderedTrieStream hashes what they make final, so its `finish` has only the last
 * items and the right spine left. A fed block is held until its finish or drop; a finish whose counts are not
 * what was fed (the block was dropped, or is unknown) is answered with no roots (the main thread computes them).
 */

import { parentPort, workerData } from 'node:worker_threads'
import { orderedTrieRoot } from '../../execution/ordered-trie.ts'
import { OrderedTrieStream } from '../../execution/ordered-trie-stream.ts'
import { unpackLists } from './lists-wire.ts'
import { READY } from '../worker-lane.ts'
import { answerMemoryRequests } from '../thread-memory.ts'
import type { HashReply, HashRequest } from './seal-hashing.ts'

const port = parentPort!
const fed = new Map<number, OrderedTrieStream[]>()

function append(feed: number, buffer: ArrayBuffer): OrderedTrieStream[] {
  const lists = unpackLists(buffer)
  let streams = fed.get(feed)
  if (streams === undefined) fed.set(feed, (streams = lists.map(() => new OrderedTrieStream())))
  lists.forEach((values, k) => {
    const stream = streams[k]
    if (stream !== undefined) for (const value of values) stream.push(value)
  })
  return streams
}

port.on('message', (request: HashRequest) => {
  const started = performance.now()
  if (request.kind === 'lists') {
    const roots = unpackLists(request.lists).map((values) => orderedTrieRoot(values))
    port.postMessage({ id: request.id, roots, held: fed.size, took: performance.now() - started } satisfies HashReply)
  } else if (request.kind === 'append') {
    append(request.feed, request.lists)
  } else if (request.kind === 'finish') {
    const streams = append(request.feed, request.lists)
    fed.delete(request.feed)
    const whole = streams.length === request.counts.length && streams.every((s, k) => s.length === request.counts[k])
    port.postMessage({ id: request.id, roots: whole ? streams.map((s) => s.root()) : undefined, held: fed.size, took: performance.now() - started } satisfies HashReply)
  } else {
    fed.delete(request.feed)
  }
})

// Loaded: until this arrives the main thread computes roots itself.
answerMemoryRequests(workerData, 'seal-hashing')
port.postMessage(READY)
