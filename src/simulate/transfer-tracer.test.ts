import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../primitives/hex.ts'
import { TRANSFER_LOG_ADDRESS, TRANSFER_TOPIC, TransferTracer, transferLog } from './transfer-tracer.ts'

const A = new Uint8Array(20).fill(0xa)
const B = new Uint8Array(20).fill(0xb)
const C = new Uint8Array(20).fill(0xc)
const log = (n: number) => ({ address: C, topics: [new Uint8Array(32).fill(n)], data: new Uint8Array([n]) })
const summary = (t: TransferTracer) =>
  t.logs().map((l) => `${l.logIndex}:${bytesToHex(l.log.address) === bytesToHex(TRANSFER_LOG_ADDRESS) ? 'T' : `L${l.log.data[0]}`}`)

test('a transfer log is an ERC-20 Transfer from the ERC-7528 address with padded topics and a 32-byte value', () => {
  const l = transferLog(A, B, 1000n)
  assert.equal(bytesToHex(l.address), '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
  assert.deepEqual(l.topics.map(bytesToHex), [
    bytesToHex(TRANSFER_TOPIC),
    `0x${'00'.repeat(12)}${'0a'.repeat(20)}`,
    `0x${'00'.repeat(12)}${'0b'.repeat(20)}`,
  ])
  assert.equal(bytesToHex(l.data), `0x${'00'.repeat(30)}03e8`)
})

test('logs and transfers come out in execution order; DELEGATECALL/CALLCODE and zero values move nothing', () => {
  const t = new TransferTracer(true)
  t.reset()
  t.enter(A, B, 5n, true) // the transaction itself
  t.log(log(1))
  t.enter(B, C, 0n, true) // call without value
  t.log(log(2))
  t.exit(false)
  t.enter(B, B, 7n, false) // delegatecall carrying the apparent value
  t.exit(false)
  t.enter(B, C, 3n, true)
  t.exit(false)
  t.exit(false)
  assert.deepEqual(summary(t), ['0:T', '1:L1', '2:L2', '3:T'])
})

test('a failing frame drops its logs and its children\'s, but their indexes stay used', () => {
  const t = new TransferTracer(true)
  t.reset()
  t.enter(A, B, 1n, true)
  t.enter(B, C, 2n, true)
  t.log(log(1))
  t.exit(true) // reverted
  t.log(log(2))
  t.exit(false)
  assert.deepEqual(summary(t), ['0:T', '3:L2'])
})

test('a failed transaction has no logs; the index keeps counting across the block\'s transactions', () => {
  const t = new TransferTracer(false)
  t.reset()
  t.enter(A, B, 1n, true)
  t.log(log(1))
  t.exit(true)
  assert.deepEqual(t.logs(), [])
  t.reset()
  t.enter(A, B, 1n, true)
  t.log(log(2))
  t.exit(false)
  assert.deepEqual(summary(t), ['1:L2'])
})

test('without traceTransfers only contract logs are recorded; an aborted transfer uses an index only when traced', () => {
  const quiet = new TransferTracer(false)
  quiet.reset()
  quiet.enter(A, B, 9n, true)
  quiet.abortedTransfer(4n)
  quiet.transfer(B, C, 3n)
  quiet.log(log(1))
  quiet.exit(false)
  assert.deepEqual(summary(quiet), ['0:L1'])

  const traced = new TransferTracer(true)
  traced.reset()
  traced.enter(A, B, 0n, true)
  traced.abortedTransfer(4n)
  traced.log(log(1))
  traced.exit(false)
  assert.deepEqual(summary(traced), ['1:L1'])
})
