import { test } from 'node:test'
import assert from 'node:assert/strict'
import { accountState, stateReaderOf } from '../../../test/state-tests/world.ts'
import { rulesFor } from '../fork.ts'
import { assemble, blockEnvWith } from '../test-kit.ts'
import type { TxInput } from '../types.ts'
import { WorldState } from '../world-state.ts'
import { createTracer, traceTransaction, TracerConfigError } from './index.ts'
import { StructLogger, structLoggerConfig } from './struct-logger.ts'

const SENDER = 0x5e7d00n
const A = 0xa0n
const B = 0xb0n
const GAS = 200_000n
const INTRINSIC = 21_000

/** The sender funded, each code at its address (nonce 0, no storage), through the state tests' reader. */
function world(codes: ReadonlyMap<bigint, Uint8Array>): WorldState {
  const accounts = new Map([[SENDER, accountState({ balance: 10n ** 18n })], ...[...codes].map(([address, code]) => [address, accountState({ code })] as const)])
  return new WorldState(stateReaderOf(accounts))
}

const block = blockEnvWith({ coinbase: 0xc0b0n })
const rules = rulesFor('cancun')
const tx = (gasLimit = GAS): TxInput => ({ type: 2, from: SENDER, nonce: 0n, gasLimit, to: A, value: 0n, data: new Uint8Array(0), maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })

interface Entry { pc: number; op: string; gas: number; gasCost: number; depth: number; error?: string; stack?: string[]; memory?: string[]; storage?: Record<string, string>; returnData?: string; refund?: number }
interface Trace { gas: number; failed: boolean; returnValue: string; structLogs: Entry[] }

/** The trace as the RPC layer sends it: through JSON. */
function trace(code: string | Map<bigint, Uint8Array>, config?: unknown, gasLimit = GAS, name: string | undefined = undefined): Trace {
  const codes = typeof code === 'string' ? new Map([[A, assemble(code)]]) : code
  const { trace: t } = traceTransaction(createTracer(name, config), { world: world(codes), block, rules, tx: tx(gasLimit) })
  return JSON.parse(JSON.stringify(t)) as Trace
}

const word = (n: number | bigint): string => '0x' + n.toString(16).padStart(64, '0')
const PROGRAM = 'PUSH1 0x2a PUSH1 0 MSTORE PUSH1 7 PUSH1 1 SSTORE PUSH1 1 SLOAD PUSH1 32 PUSH1 0 RETURN'

test('a small program: pc, op, gas before, cost, depth from 1, stack bottom first, memory words, storage, returnValue', () => {
  const t = trace(PROGRAM, { enableMemory: true, enableReturnData: true })
  const ops = t.structLogs.map((e) => e.op)
  assert.deepEqual(ops, ['PUSH1', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'SSTORE', 'PUSH1', 'SLOAD', 'PUSH1', 'PUSH1', 'RETURN'])
  assert.deepEqual(t.structLogs.map((e) => e.pc), [0, 2, 4, 5, 7, 9, 10, 12, 13, 15, 17])
  const first = t.structLogs[0]!
  assert.deepEqual(first, { pc: 0, op: 'PUSH1', gas: Number(GAS) - INTRINSIC, gasCost: 3, depth: 1, stack: [] })
  // each entry's gas is the previous entry's gas less its cost
  for (let i = 1; i < t.structLogs.length; i++) assert.equal(t.structLogs[i]!.gas, t.structLogs[i - 1]!.gas - t.structLogs[i - 1]!.gasCost)
  const mstore = t.structLogs[2]!
  assert.deepEqual(mstore.stack, ['0x2a', '0x0'], 'stack bottom first, 0x quantities')
  assert.equal(mstore.gasCost, 3 + 3, 'MSTORE: 3 and one word of memory')
  assert.equal(mstore.memory, undefined, 'no memory before it grows')
  assert.deepEqual(t.structLogs[3]!.memory, [word(0x2a)])
  const sstore = t.structLogs[5]!
  assert.equal(sstore.gasCost, 2100 + 20000, 'cold slot, zero to non-zero')
  assert.deepEqual(sstore.storage, { [word(1)]: word(7) })
  const sload = t.structLogs[7]!
  assert.equal(sload.gasCost, 100, 'warm after the SSTORE')
  assert.deepEqual(sload.storage, { [word(1)]: word(7) })
  assert.equal(t.structLogs[6]!.storage, undefined, 'storage only on SLOAD and SSTORE')
  assert.equal(t.structLogs.at(-1)!.gasCost, 0, 'RETURN of memory already paid for')
  assert.equal(t.failed, false)
  assert.equal(t.returnValue, word(0x2a))
  assert.equal(t.gas, INTRINSIC + t.structLogs.reduce((s, e) => s + e.gasCost, 0), 'gas used is the intrinsic gas and the costs')
  assert.deepEqual(Object.keys(sstore), ['pc', 'op', 'gas', 'gasCost', 'depth', 'stack', 'memory', 'storage'], "geth's field order")
})

test('options: no memory by default, disableStack, disableStorage, return data only when enabled and not empty', () => {
  const plain = trace(PROGRAM)
  assert.ok(plain.structLogs.every((e) => e.memory === undefined && e.returnData === undefined && e.stack !== undefined))
  const bare = trace(PROGRAM, { disableStack: true, disableStorage: true })
  assert.ok(bare.structLogs.every((e) => e.stack === undefined && e.storage === undefined))
  const codes = new Map([[A, assemble('PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0xb0 GAS CALL POP STOP')], [B, assemble('PUSH1 0x11 PUSH1 0 MSTORE8 PUSH1 1 PUSH1 0 RETURN')]])
  const t = trace(codes, { enableReturnData: true })
  const afterCall = t.structLogs.filter((e) => e.depth === 1 && e.pc > 13)
  assert.deepEqual(afterCall.map((e) => e.returnData), ['0x11', '0x11'], 'the last call\'s return data on the steps after it')
  assert.ok(t.structLogs.filter((e) => e.pc <= 13 && e.depth === 1).every((e) => e.returnData === undefined))
})

test("geth's limit is a byte budget: entries stop once the output passed it; our own bound refuses the trace", () => {
  assert.equal(trace(PROGRAM, { limit: 1 }).structLogs.length, 1)
  const all = trace(PROGRAM).structLogs.length
  assert.equal(trace(PROGRAM, { limit: 0 }).structLogs.length, all)
  const small = new StructLogger(structLoggerConfig({}, 500))
  const { trace: t } = { trace: () => traceTransaction(small, { world: world(new Map([[A, assemble(PROGRAM)]])), block, rules, tx: tx() }) }
  assert.throws(t, /trace exceeds 500 bytes/)
})

test('a REVERT: failed, the revert data as returnValue, no error on the step', () => {
  const t = trace('PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT')
  assert.equal(t.failed, true)
  assert.equal(t.returnValue, word(0x2a))
  assert.equal(t.structLogs.at(-1)!.op, 'REVERT')
  assert.equal(t.structLogs.at(-1)!.error, undefined)
})

test('out of gas and stack underflow: the halting step carries the error and its static cost; returnValue is empty', () => {
  const oog = trace('PUSH1 1 PUSH1 2 ADD', undefined, BigInt(INTRINSIC + 5))
  assert.deepEqual(oog.structLogs.map((e) => [e.op, e.gas, e.gasCost, e.error]), [['PUSH1', 5, 3, undefined], ['PUSH1', 2, 3, 'out of gas']])
  assert.equal(oog.failed, true)
  assert.equal(oog.returnValue, '0x')
  assert.equal(oog.gas, INTRINSIC + 5)
  const under = trace('PUSH1 1 ADD')
  assert.deepEqual(under.structLogs.at(-1), { pc: 2, op: 'ADD', gas: Number(GAS) - INTRINSIC - 3, gasCost: 3, depth: 1, error: 'stack underflow (1 <=> 2)', stack: ['0x1'] })
  const invalid = trace('0xfe')
  assert.deepEqual(invalid.structLogs.map((e) => [e.op, e.gasCost, e.error]), [['INVALID', 0, undefined]], "geth's undefined opcodes cost 0 and fail as they run")
})

test("a CALL's gasCost is its own cost plus the gas it gives; the callee's steps are one deeper", () => {
  const given = 1000
  const codes = new Map([[A, assemble(`PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0xb0 PUSH2 ${given} CALL STOP`)], [B, assemble('PUSH1 0 PUSH1 0 RETURN')]])
  const t = trace(codes)
  const call = t.structLogs.find((e) => e.op === 'CALL')!
  assert.equal(call.gasCost, 100 + 2500 + given, 'warm cost, cold surcharge, the gas given')
  const inner = t.structLogs.filter((e) => e.depth === 2)
  assert.deepEqual(inner.map((e) => [e.op, e.gas, e.gasCost]), [['PUSH1', given, 3], ['PUSH1', given - 3, 3], ['RETURN', given - 6, 0]])
  const stop = t.structLogs.at(-1)!
  assert.equal(stop.gas, call.gas - call.gasCost + given - 6, 'the callee\'s unused gas comes back')
  assert.equal(t.gas, INTRINSIC + t.structLogs.filter((e) => e.depth === 1).reduce((s, e) => s + e.gasCost, 0) - (given - 6))
})

test('the struct logger is the tracer without a name; bad configurations are refused', () => {
  assert.ok(createTracer(undefined) instanceof StructLogger)
  assert.ok(createTracer('') instanceof StructLogger)
  assert.throws(() => createTracer(undefined, { enableMemory: 'yes' }), TracerConfigError)
  assert.throws(() => createTracer(undefined, { limit: '5' }), TracerConfigError)
  assert.throws(() => createTracer(undefined, { limit: 1.5 }), TracerConfigError)
  assert.throws(() => createTracer(undefined, [true]), TracerConfigError)
  assert.throws(() => createTracer('muxTracer', { '': {} }), TracerConfigError)
  assert.throws(() => createTracer('nope'), /tracer nope not found/)
})
