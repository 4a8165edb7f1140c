import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Bloom } from '@ethereumjs/vm'
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import { LogItems } from './log-items.ts'

/** A seeded stream of 64-bit words (xorshift), so a failure can be replayed. */
function words(seed: bigint): () => bigint {
  let x = seed
  return () => {
    x ^= (x << 13n) & 0xffffffffffffffffn
    x ^= x >> 7n
    x ^= (x << 17n) & 0xffffffffffffffffn
    return x
  }
}

test('a block of logs: each receipt bloom and every item bytes equal the library bloom and padding, repeated items included', () => {
  const next = words(0x9e3779b97f4a7c15n)
  // A few addresses and topics recur (a token, an event signature), as in a block of transfers; zero too.
  const addresses = [0n, 1n, ...Array.from({ length: 6 }, () => next() * next() * (next() & 0xffffffffn))].map((a) => a & ((1n << 160n) - 1n))
  const topics = [0n, ...Array.from({ length: 9 }, () => next() * next() * next() * next())].map((t) => t & ((1n << 256n) - 1n))
  const items = new LogItems()
  for (let receipt = 0; receipt < 200; receipt++) {
    const logs = Array.from({ length: Number(next() % 4n) + 1 }, () => ({
      address: addresses[Number(next() % BigInt(addresses.length))]!,
      topics: Array.from({ length: Number(next() % 5n) }, () => topics[Number(next() % BigInt(topics.length))]!),
    }))
    const bloom = new Uint8Array(256)
    const library = new Bloom()
    for (const log of logs) {
      const address = items.address(log.address, bloom)
      assert.deepEqual(address, setLengthLeft(bigIntToBytes(log.address), 20))
      library.add(setLengthLeft(bigIntToBytes(log.address), 20))
      for (const topic of log.topics) {
        assert.deepEqual(items.topic(topic, bloom), setLengthLeft(bigIntToBytes(topic), 32))
        library.add(setLengthLeft(bigIntToBytes(topic), 32))
      }
    }
    assert.deepEqual(bloom, library.bitvector, `receipt ${receipt}`)
  }
})

test('an address and a topic of the same value are different items (20 bytes against 32)', () => {
  const items = new LogItems()
  const a = new Uint8Array(256)
  const t = new Uint8Array(256)
  assert.equal(items.address(5n, a).length, 20)
  assert.equal(items.topic(5n, t).length, 32)
  const library = new Bloom()
  library.add(setLengthLeft(bigIntToBytes(5n), 32))
  assert.deepEqual(t, library.bitvector)
})
