import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { reason } from './test-kit.ts'
import { parseLogFilter } from './log-filter.ts'

const A = '0xb1917d669e2a9307d342d04ab74e68ea94c4d11c'
const B = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df'
const T1 = `0x${'e6'.repeat(32)}`
const T2 = `0x${'39'.repeat(32)}`

const topicsShape = (t: readonly (readonly Uint8Array[] | null)[]) => t.map((p) => (p === null ? null : p.map(bytesToHex)))

test('range filter with one address and mixed topic positions', () => {
  const f = parseLogFilter({ fromBlock: '0x1', toBlock: 'latest', address: A, topics: [T1, null, [T1, T2], []] })
  assert.deepEqual(f.fromBlock, { kind: 'number', number: 1n })
  assert.deepEqual(f.toBlock, { kind: 'tag', tag: 'latest' })
  assert.equal(f.blockHash, undefined)
  assert.deepEqual(f.addresses.map(bytesToHex), [A])
  assert.deepEqual(topicsShape(f.topics), [[T1], null, [T1, T2], null])
})

test('an address array; a null inside a topic array makes the position a wildcard', () => {
  const f = parseLogFilter({ address: [A, B], topics: [[T1, null, T2]] })
  assert.deepEqual(f.addresses.map(bytesToHex), [A, B])
  assert.deepEqual(topicsShape(f.topics), [null])
  assert.ok(!('fromBlock' in f) && !('toBlock' in f))
})

test('blockHash excludes fromBlock/toBlock', () => {
  const f = parseLogFilter({ blockHash: T1 })
  assert.equal(bytesToHex(f.blockHash!), T1)
  assert.deepEqual(f.addresses, [])
  assert.equal(
    reason(() => parseLogFilter({ blockHash: T1, fromBlock: '0x1' })),
    'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
  )
})

test('geth messages for bad addresses and topics', () => {
  assert.equal(reason(() => parseLogFilter({ address: '0x12' })), 'invalid address: hex has invalid length 1 after decoding; expected 20 for address')
  assert.equal(reason(() => parseLogFilter({ address: [A, 'zz'] })), 'invalid address at index 1: hex string without 0x prefix')
  assert.equal(reason(() => parseLogFilter({ address: [A, 5] })), 'non-string address at index 1')
  assert.equal(reason(() => parseLogFilter({ address: 5 })), 'invalid addresses in query')
  assert.equal(reason(() => parseLogFilter({ topics: [null, null, null, null, null] })), 'exceed max topics')
  assert.equal(reason(() => parseLogFilter({ topics: [5] })), 'invalid topic(s)')
  assert.equal(reason(() => parseLogFilter({ topics: [[T1, 5]] })), 'invalid topic(s)')
  assert.equal(reason(() => parseLogFilter({ topics: ['0x01'] })), 'hex has invalid length 1 after decoding; expected 32 for topic')
  assert.equal(reason(() => parseLogFilter({ fromBlock: '0x01' })), 'fromBlock: hex number with leading zero digits')
})

test('a backwards numeric range is refused without the argument prefix', () => {
  assert.throws(
    () => parseLogFilter({ fromBlock: '0x5', toBlock: '0x4' }),
    (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message === 'invalid block range params',
  )
  assert.doesNotThrow(() => parseLogFilter({ fromBlock: '0x5', toBlock: 'earliest' }))
})
