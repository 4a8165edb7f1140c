import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MessageKind } from '../evm/types.ts'
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
  t.enterFrame(A, B, 5n, true) // the transaction itself
  t.record(log(1))
  t.enterFrame(B, C, 0n, true) // call without value
  t.record(log(2))
  t.exit(false)
  t.enterFrame(B, B, 7n, false) // delegatecall carrying the apparent value
  t.exit(false)
  t.enterFrame(B, C, 3n, true)
  t.exit(false)
  t.exit(false)
  assert.deepEqual(summary(t), ['0:T', '1:L1', '2:L2', '3:T'])
})

test('a failing frame drops its logs and its children\'s, but their indexes stay used', () => {
  const t = new TransferTracer(true)
  t.reset()
  t.enterFrame(A, B, 1n, true)
  t.enterFrame(B, C, 2n, true)
  t.record(log(1))
  t.exit(true) // reverted
  t.record(log(2))
  t.exit(false)
  assert.deepEqual(summary(t), ['0:T', '3:L2'])
})

test('a failed transaction has no logs; the index keeps counting across the block\'s transactions', () => {
  const t = new TransferTracer(false)
  t.reset()
  t.enterFrame(A, B, 1n, true)
  t.record(log(1))
  t.exit(true)
  assert.deepEqual(t.logs(), [])
  t.reset()
  t.enterFrame(A, B, 1n, true)
  t.record(log(2))
  t.exit(false)
  assert.deepEqual(summary(t), ['1:L2'])
})

test('without traceTransfers only contract logs are recorded; a frame that fails its checks drops its transfer but used its index', () => {
  const quiet = new TransferTracer(false)
  quiet.reset()
  quiet.enterFrame(A, B, 9n, true)
  quiet.transfer(B, C, 3n)
  quiet.record(log(1))
  quiet.exit(false)
  assert.deepEqual(summary(quiet), ['0:L1'])

  const traced = new TransferTracer(true)
  traced.reset()
  traced.enterFrame(A, B, 0n, true)
  traced.enterFrame(B, C, 4n, true) // a CALL with value the caller cannot pay: entered, then left reverted
  traced.exit(true)
  traced.record(log(1))
  traced.exit(false)
  assert.deepEqual(summary(traced), ['1:L1'])
})

test('as our EVM\'s observer: frames by kind, logs and self-destructs in bigint', () => {
  const t = new TransferTracer(true)
  t.reset()
  const msg = (kind: MessageKind, value: bigint) => ({ kind, caller: 0xan, recipient: 0xbn, codeAddress: 0xbn, value, transfersValue: true, input: new Uint8Array(0), gas: 0, depth: 0, isStatic: false })
  t.enter(msg(MessageKind.Call, 5n))
  t.enter(msg(MessageKind.DelegateCall, 5n))
  t.exit(false)
  t.enter(msg(MessageKind.CallCode, 5n))
  t.exit(false)
  t.log(0xcn, [1n], new Uint8Array([7]))
  t.selfDestruct(0xbn, 0xcn, 2n)
  t.exit(false)
  const logs = t.logs()
  assert.deepEqual(summary(t), ['0:T', '1:L7', '2:T'])
  assert.equal(bytesToHex(logs[1]!.log.address), `0x${'00'.repeat(19)}0c`)
  assert.equal(bytesToHex(logs[1]!.log.topics[0]!), `0x${'00'.repeat(31)}01`)
  assert.equal(bytesToHex(logs[2]!.log.topics[1]!), `0x${'00'.repeat(31)}0b`)
})
