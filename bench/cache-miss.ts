/**
 * Micro-benchmark of the state history cache's miss path (src/state/history-cache.ts, src/primitives/lru.ts)
 * once the cache is full, as it is on a node that has served more distinct slots than it keeps: each read is
 * a key never seen before (an account and a slot of the kind a distinct-input eth_call reads), looked up, then
 * remembered, which drops older entries. Also the path of a hot key read between the misses (a token's code
 * or total supply). Prints ns per read.
 * Run: `nice node --import tsx bench/cache-miss.ts` (CPU time on a shared machine: compare best of several runs).
 */

import { Lru } from '../src/primitives/lru.ts'
import { itemKey } from '../src/state/history-cache.ts'

const CAPACITY = 65_536 // the slots cache's count
const READS = 300_000
const address = new Uint8Array(20)
const slot = new Uint8Array(32)

function keyOf(i: number): string {
  const view = new DataView(slot.buffer)
  view.setUint32(28, i)
  address[0] = i & 0xff
  return itemKey(123_456n, address, slot)
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
