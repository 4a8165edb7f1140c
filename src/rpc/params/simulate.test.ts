import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../../primitives/hex.ts'
import { parseArgs, required } from './args.ts'
import { parseCallRequest } from './call.ts'
import { parseSimulatePayload } from './simulate.ts'

const A = '0xc000000000000000000000000000000000000000'
const parse = (raw: unknown) => parseArgs([raw], [required(parseSimulatePayload)])[0]

test('the payload: blocks with overrides and calls, flags defaulting to false', () => {
  const p = parse({
    blockStateCalls: [
      {
        blockOverrides: { number: '0x9', time: '0x10', difficulty: '0x1', beaconRoot: `0x${'11'.repeat(32)}`, withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: A, amount: '0x5' }] },
        stateOverrides: { [A]: { balance: '0x10', movePrecompileToAddress: A } },
        calls: [{ from: A, to: A, value: '0x1', input: '0x12' }],
      },
      null,
      {},
    ],
    traceTransfers: true,
    validation: null,
  })
  assert.equal(p.traceTransfers, true)
  assert.equal(p.validation, false)
  assert.equal(p.returnFullTransactions, false)
  const [b0, b1, b2] = p.blockStateCalls
  assert.deepEqual([b0!.blockOverrides!.number, b0!.blockOverrides!.time, b0!.blockOverrides!.difficulty], [9n, 16n, 1n])
  assert.deepEqual(b0!.blockOverrides!.withdrawals!.map((w) => [w.index, w.validatorIndex, bytesToHex(w.address), w.amount]), [[0n, 1n, A, 5n]])
  assert.equal(b0!.stateOverrides!.get(A)!.balance, 16n)
  assert.equal(bytesToHex(b0!.calls[0]!.data!), '0x12')
  assert.deepEqual(b1, { calls: [] })
  assert.deepEqual(b2!.calls, [])
})

test('`data` and `input` follow eth_call\'s rule (equal or one of them); both fee styles are refused only when the call is reached', () => {
  assert.throws(
    () => parse({ blockStateCalls: [{ calls: [{ data: '0x01', input: '0x02' }] }] }),
    /invalid argument 0: blockStateCalls.0.calls.0: both "data" and "input" are set and not equal/,
  )
  assert.throws(
    () => parseArgs([{ to: A, data: '0x01', input: '0x02' }], [required(parseCallRequest)]),
    /invalid argument 0: both "data" and "input" are set and not equal/,
    'the same rule as eth_call',
  )
  const [call] = parse({ blockStateCalls: [{ calls: [{ data: '0x02', input: '0x02', gasPrice: '0x1', maxFeePerGas: '0x2' }] }] }).blockStateCalls[0]!.calls
  assert.equal(bytesToHex(call!.data!), '0x02')
  assert.equal(call!.conflictingFees, true)
  assert.deepEqual([call!.gasPrice, call!.maxFeePerGas], [1n, 2n])
})

test('malformed input is invalid params with the field named', () => {
  assert.throws(() => parse({ blockStateCalls: {} }), /invalid argument 0: blockStateCalls: json: cannot unmarshal object into Go value of type \[\]ethapi.simBlock/)
  assert.throws(() => parse({ blockStateCalls: [{ calls: [{ value: '1' }] }] }), /blockStateCalls.0.calls.0.value: hex string without 0x prefix/)
  assert.throws(() => parse({ blockStateCalls: [{ blockOverrides: { withdrawals: [{ index: '0x0' }] } }] }), /missing required field 'validatorIndex'/)
  assert.throws(() => parse({ traceTransfers: 'yes' }), /cannot unmarshal string into Go value of type bool/)
  assert.deepEqual(parse(null).blockStateCalls, [])
})

test('blockOverrides: the block time as `time` or `timestamp`, both only when equal; an unknown field is refused', () => {
  const time = (overrides: Record<string, unknown>) => parse({ blockStateCalls: [{ blockOverrides: overrides }] }).blockStateCalls[0]!.blockOverrides!.time
  assert.equal(time({ time: '0x20' }), 0x20n)
  assert.equal(time({ timestamp: '0x21' }), 0x21n)
  assert.equal(time({ Timestamp: '0x22', time: '0x22' }), 0x22n)
  assert.equal(time({ time: null, timestamp: '0x23' }), 0x23n, 'null is absent')
  assert.throws(() => time({ time: '0x20', timestamp: '0x21' }), /blockStateCalls.0.blockOverrides: both "time" and "timestamp" are set and not equal/)
  assert.throws(() => time({ timestamp: '20' }), /blockOverrides.timestamp: hex string without 0x prefix/)
  assert.throws(() => time({ time: '0x20', baseFee: '0x1' }), /invalid argument 0: blockStateCalls.0.blockOverrides: json: unknown field "baseFee"/)
  assert.equal(time({ BASEFEEPERGAS: '0x1', time: '0x24' }), 0x24n, 'field names match as Go matches them, ignoring case')
})
