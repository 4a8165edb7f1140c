/**
 * Micro-benchmark of the state history cache's miss path (src/state/history-cache.ts, src/primitives/lru.ts)
 * once the cache is full, as it is on a node that has served more distinct slots than it keeps: each read is
 * a key never seen before (an account and a slot of the kind a distinct-input eth_call reads), looked up, then
 * remembered, which drops older entries. Also the path of a hot key read between the misses (a token's code
 * or total supply). Then the same for the call-result cache's SizedLru (10,000 entries, a new request text
 * each time: the distinct-input eth_call rows). Prints ns per read.
 * Run: `nice node --import tsx bench/cache-miss.ts` (CPU time on a shared machine: compare best of several runs).
 */

import { Lru, SizedLru } from '../src/primitives/lru.ts'
import { itemKey } from '../src/state/history-cache.ts'

const CAPACITY = 65_536 // the slots caches' count over their blocks
const READS = 300_000
const address = new Uint8Array(20)
const slot = new Uint8Array(32)

function keyOf(i: number): string {
  const view = new DataView(slot.buffer)
  view.setUint32(28, i)
  address[0] = i & 0xff
  return itemKey(address, slot)
}

const keys = Array.from({ length: CAPACITY + READS }, (_, i) => keyOf(i))
const hot = keyOf(-1 >>> 0)

for (let round = 0; round < 3; round++) {
  const cache = new Lru<string, Uint8Array | null>(CAPACITY)
  for (let i = 0; i < CAPACITY; i++) cache.set(keys[i]!, null)
  cache.set(hot, null)
  const cpu = process.cpuUsage()
  for (let i = CAPACITY; i < CAPACITY + READS; i++) {
    const key = keys[i]!
    if (cache.get(key) === undefined) cache.set(key, null)
    if (cache.get(hot) === undefined) cache.set(hot, null)
  }
  const used = process.cpuUsage(cpu)
  const ns = ((used.user + used.system) * 1000) / READS
  console.log(`full cache of ${CAPACITY}: a new key (miss, then remembered) plus a hot key: ${ns.toFixed(0)} ns of CPU per pair`)
}

const RESULTS = 10_000 // the call-result cache's count (node/execution/result-cache.ts)
const texts = Array.from({ length: RESULTS + READS }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"eth_call","params":[{"to":"0x${i.toString(16).padStart(40, '0')}"},"latest"]}`)
const answer = new Uint8Array(32)
for (let round = 0; round < 3; round++) {
  const cache = new SizedLru<string, Uint8Array>({ maxEntries: RESULTS, maxBytes: 16 * 1024 * 1024 }, (v, k) => v.length + k.length + 64)
  for (let i = 0; i < RESULTS; i++) cache.set(texts[i]!, answer)
  const cpu = process.cpuUsage()
  for (let i = RESULTS; i < RESULTS + READS; i++) if (cache.get(texts[i]!) === undefined) cache.set(texts[i]!, answer)
  const used = process.cpuUsage(cpu)
  console.log(`full result cache of ${RESULTS}: a new request (miss, then remembered): ${(((used.user + used.system) * 1000) / READS).toFixed(0)} ns of CPU per request`)
}
