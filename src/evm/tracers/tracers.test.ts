import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex, hexToBytes } from '../../primitives/hex.ts'
import { accountState, stateReaderOf } from '../../../test/state-tests/world.ts'
import { rulesFor } from '../fork.ts'
import { assemble, blockEnvWith } from '../test-kit.ts'
import type { TxInput } from '../types.ts'
import { WorldState } from '../world-state.ts'
import { createTracer, traceTransaction, TracerConfigError } from './index.ts'
import { revertReason } from './json.ts'

const SENDER = 0x5e7d00n
const A = 0xa0n
const B = 0xb0n

/** A WorldState over these accounts (nonce 0, no storage), through the state tests' plain-data reader. */
function world(accounts: ReadonlyMap<bigint, { balance: bigint; code?: Uint8Array }>): WorldState {
  return new WorldState(stateReaderOf(new Map([...accounts].map(([address, fields]) => [address, accountState(fields)]))))
}

const block = blockEnvWith({ coinbase: 0xc0b0n })
const rules = rulesFor('cancun')
const tx = (data: Uint8Array): TxInput => ({ type: 2, from: SENDER, nonce: 0n, gasLimit: 200_000n, to: A, value: 0n, data, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })

// A: copies its call data to memory 0, calls B with it (so B's input is a view of A's memory), then
// overwrites that memory and logs it; B returns its input.
const a = assemble('CALLDATASIZE PUSH1 0 PUSH1 0 CALLDATACOPY PUSH1 0 PUSH1 0 CALLDATASIZE PUSH1 0 PUSH1 0 PUSH1 0xb0 GAS CALL POP PUSH1 0xff PUSH1 0 MSTORE PUSH1 32 PUSH1 0 LOG0 STOP')
const b = assemble('CALLDATASIZE PUSH1 0 PUSH1 0 CALLDATACOPY CALLDATASIZE PUSH1 0 RETURN')
const accounts = new Map([[SENDER, { balance: 10n ** 18n }], [A, { balance: 0n, code: a }], [B, { balance: 0n, code: b }]])
const input = hexToBytes('0x12345678000000000000000000000000000000000000000000000000000000000000002a')

test('callTracer keeps copies of inputs and outputs: memory reused after a call does not change its frame', () => {
  const w = world(accounts)
  const { trace } = traceTransaction(createTracer('callTracer', { withLog: true }), { world: w, block, rules, tx: tx(input) })
  const top = trace as { calls: { input: string; output: string; type: string; value: string }[]; logs: unknown[]; gas: string }
  assert.equal(top.gas, '0x30d40', 'the top frame\'s gas is the transaction\'s gas limit')
  assert.equal(top.calls.length, 1)
  assert.equal(top.calls[0]!.input, bytesToHex(input))
  assert.equal(top.calls[0]!.output, bytesToHex(input))
  assert.equal(top.calls[0]!.value, '0x0')
  assert.equal(top.logs.length, 1)
})

test('4byteTracer counts selectors with their argument sizes, the transaction\'s own call included', () => {
  const { trace } = traceTransaction(createTracer('4byteTracer'), { world: world(accounts), block, rules, tx: tx(input) })
  assert.deepEqual(trace, { '0x12345678-32': 2 })
})

test('muxTracer runs each tracer over one run and noopTracer gives {}', () => {
  const { trace } = traceTransaction(createTracer('muxTracer', { noopTracer: {}, '4byteTracer': null, prestateTracer: { diffMode: true } }), { world: world(accounts), block, rules, tx: tx(input) })
  const result = trace as Record<string, unknown>
  assert.deepEqual(Object.keys(result), ['noopTracer', '4byteTracer', 'prestateTracer'])
  assert.deepEqual(result.noopTracer, {})
  assert.deepEqual(result['4byteTracer'], { '0x12345678-32': 2 })
  assert.ok('pre' in (result.prestateTracer as object) && 'post' in (result.prestateTracer as object))
})

test('unknown tracers and bad configurations are refused', () => {
  assert.throws(() => createTracer('noSuchTracer'), TracerConfigError)
  assert.throws(() => createTracer('callTracer', { withLog: 'yes' }), TracerConfigError)
  assert.throws(() => createTracer('prestateTracer', { diffMode: true, includeEmpty: true }), /cannot use diffMode with includeEmpty/)
  assert.throws(() => createTracer('callTracer', [1]), TracerConfigError)
})

test('revert reasons: Error(string), Panic(uint256) with known and unknown codes, and data geth cannot read', () => {
  const error = '0x08c379a0' + '20'.padStart(64, '0') + '05'.padStart(64, '0') + '68656c6c6f'.padEnd(64, '0')
  assert.equal(revertReason(hexToBytes(error)), 'hello')
  assert.equal(revertReason(hexToBytes('0x4e487b71' + '11'.padStart(64, '0'))), 'arithmetic underflow or overflow')
  assert.equal(revertReason(hexToBytes('0x4e487b71' + 'ff'.padStart(64, '0'))), 'unknown panic code: 0xff')
  assert.equal(revertReason(hexToBytes('0x08c379a0' + 'ff'.padStart(64, '0'))), undefined)
  assert.equal(revertReason(hexToBytes('0xdeadbeef')), undefined)
})
