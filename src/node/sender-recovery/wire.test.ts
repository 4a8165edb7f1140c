import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'
import { packRequest, requestBuffers, unpackRequest, type WorkRequest } from './wire.ts'

const items = [
  { raw: Uint8Array.from([0x02, 0xf8, 0x6f, 0x01]), number: 7n, timestamp: 1_700_000_000n },
  { raw: new Uint8Array(0), number: 0n, timestamp: 0n },
  { raw: Uint8Array.from([0xf8, 0x6b, 0x80, 0x85, 0x01]), number: 2n ** 64n - 1n, timestamp: 2n ** 63n },
]

test('a request crosses a port as one transferred buffer and unpacks to the items it was packed from', () => {
  const { port1, port2 } = new MessageChannel()
  const request = packRequest(9, items)
  const transfer = requestBuffers(request)
  assert.equal(transfer.length, 1)
  port1.postMessage(request, transfer)
  assert.equal(request.buffer.byteLength, 0, 'the buffer was moved, not copied')
  const received = receiveMessageOnPort(port2)?.message as WorkRequest
  port1.close()
  assert.equal(received.id, 9)
  const out = unpackRequest(received)
  assert.equal(out.length, 3)
  assert.deepEqual(out.map((i) => [...i.raw]), [[0x02, 0xf8, 0x6f, 0x01], [], [0xf8, 0x6b, 0x80, 0x85, 0x01]])
  assert.deepEqual(out.map((i) => i.number), [7n, 0n, 2n ** 64n - 1n])
  assert.deepEqual(out.map((i) => i.timestamp), [1_700_000_000n, 0n, 2n ** 63n])
})

test('an odd number of items keeps every field aligned', () => {
  for (const n of [1, 2, 3, 5]) {
    const packed = items.slice(0, Math.min(n, 3)).concat(Array.from({ length: Math.max(0, n - 3) }, (_, k) => ({ raw: Uint8Array.of(k), number: BigInt(k), timestamp: BigInt(k + 1) })))
    const out = unpackRequest(packRequest(1, packed))
    assert.deepEqual(out.map((i) => [[...i.raw], i.number, i.timestamp]), packed.map((i) => [[...i.raw], i.number, i.timestamp]))
  }
})
