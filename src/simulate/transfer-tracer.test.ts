import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MessageKind, Status, type FrameResult } from '../evm/types.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { TRANSFER_LOG_ADDRESS, TRANSFER_TOPIC, TransferTracer, transferLog } from './transfer-tracer.ts'

const OK: FrameResult = { status: Status.Success, gasLeft: 0, output: new Uint8Array(0) }
const REVERTED: FrameResult = { status: Status.Revert, gasLeft: 0, output: new Uint8Array(0) }

const A = new Uint8Array(20).fill(0xa)
const B = new Uint8Array(20).fill(0xb)
/** Our EVM's view of a frame entered with `value` (the tracer reads its kind, parties and value). */
const frame = (kind: MessageKind, value: bigint, caller = 0xan, recipient = 0xbn) => ({ kind, caller, recipient, codeAddress: recipient, value, transfersValue: true, input: new Uint8Array(0), gas: 0, depth: 0, isStatic: false })
/** A contract log whose data byte is `n`, as the LOG opcode reports it. */
const log = (t: TransferTracer, n: number): void => t.log(0xcn, [BigInt(n)], new Uint8Array([n]))
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
  t.enter(frame(MessageKind.Call, 5n)) // the transaction itself
  log(t, 1)
  t.enter(frame(MessageKind.Call, 0n, 0xbn, 0xcn)) // call without value
  log(t, 2)
  t.exit(OK)
  t.enter(frame(MessageKind.DelegateCall, 7n, 0xbn, 0xbn)) // delegatecall carrying the apparent value
  t.exit(OK)
  t.enter(frame(MessageKind.Call, 3n, 0xbn, 0xcn))
  t.exit(OK)
  t.exit(OK)
  assert.deepEqual(summary(t), ['0:T', '1:L1', '2:L2', '3:T'])
})

test('a failing frame drops its logs and its children\'s, but their indexes stay used', () => {
  const t = new TransferTracer(true)
  t.reset()
  t.enter(frame(MessageKind.Call, 1n))
  t.enter(frame(MessageKind.Call, 2n, 0xbn, 0xcn))
  log(t, 1)
  t.exit(REVERTED) // reverted
  log(t, 2)
  t.exit(OK)
  assert.deepEqual(summary(t), ['0:T', '3:L2'])
})

test('a failed transaction has no logs; the index keeps counting across the block\'s transactions', () => {
  const t = new TransferTracer(false)
  t.reset()
  t.enter(frame(MessageKind.Call, 1n))
  log(t, 1)
  t.exit(REVERTED)
  assert.deepEqual(t.logs(), [])
  t.reset()
  t.enter(frame(MessageKind.Call, 1n))
  log(t, 2)
  t.exit(OK)
  assert.deepEqual(summary(t), ['1:L2'])
})

test('without traceTransfers only contract logs are recorded; a frame that fails its checks drops its transfer but used its index', () => {
  const quiet = new TransferTracer(false)
  quiet.reset()
  quiet.enter(frame(MessageKind.Call, 9n))
  quiet.selfDestruct(0xbn, 0xcn, 3n)
  log(quiet, 1)
  quiet.exit(OK)
  assert.deepEqual(summary(quiet), ['0:L1'])

  const traced = new TransferTracer(true)
  traced.reset()
  traced.enter(frame(MessageKind.Call, 0n))
  traced.enter(frame(MessageKind.Call, 4n, 0xbn, 0xcn)) // a CALL with value the caller cannot pay: entered, then left reverted
  traced.exit(REVERTED)
  log(traced, 1)
  traced.exit(OK)
  assert.deepEqual(summary(traced), ['1:L1'])
})

test('as our EVM\'s observer: frames by kind, logs and self-destructs in bigint', () => {
  const t = new TransferTracer(true)
  t.reset()
  t.enter(frame(MessageKind.Call, 5n))
  t.enter(frame(MessageKind.DelegateCall, 5n))
  t.exit(OK)
  t.enter(frame(MessageKind.CallCode, 5n))
  t.exit(OK)
  t.log(0xcn, [1n], new Uint8Array([7]))
  t.selfDestruct(0xbn, 0xcn, 2n)
  t.exit(OK)
  const logs = t.logs()
  assert.deepEqual(summary(t), ['0:T', '1:L7', '2:T'])
  assert.equal(bytesToHex(logs[1]!.log.address), `0x${'00'.repeat(19)}0c`)
  assert.equal(bytesToHex(logs[1]!.log.topics[0]!), `0x${'00'.repeat(31)}01`)
  assert.equal(bytesToHex(logs[2]!.log.topics[1]!), `0x${'00'.repeat(31)}0b`)
})
