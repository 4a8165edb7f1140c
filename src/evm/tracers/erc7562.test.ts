import { test } from 'node:test'
import assert from 'node:assert/strict'
import { accountState, stateReaderOf, type AccountState } from '../../../test/state-tests/world.ts'
import { rulesFor } from '../fork.ts'
import { assemble, blockEnvWith } from '../test-kit.ts'
import type { TxInput } from '../types.ts'
import { WorldState } from '../world-state.ts'
import { createTracer, traceTransaction, TracerConfigError } from './index.ts'

const SENDER = 0x5e7d00n
const A = 0xa0n
const B = 0xb0n
const C = 0xc0n

// A: storage written then read (no read recorded), read then written (its value recorded), transient storage,
// EXTCODESIZE+ISZERO (not an access) and EXTCODEHASH (an access), GAS before POP (counted) and before CALL
// (not), a call to B with too little gas for its endless loop, a call to the account C without code, and a
// KECCAK256 of memory it never grew (zero-padded); it ends by running off its code (an implicit STOP).
const a = assemble(`
  PUSH1 0x2a PUSH1 1 SSTORE PUSH1 1 SLOAD POP
  PUSH1 2 SLOAD POP PUSH1 5 PUSH1 2 SSTORE PUSH1 2 SLOAD POP
  PUSH1 9 PUSH1 3 TSTORE PUSH1 3 TLOAD POP PUSH1 3 TLOAD POP
  PUSH1 0xb0 EXTCODESIZE ISZERO POP PUSH1 0xb0 EXTCODEHASH POP
  GAS POP
  PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0xb0 PUSH2 0x1000 CALL POP
  PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0xc0 GAS CALL POP
  PUSH1 0x20 PUSH1 0x10 KECCAK256 POP`)
const b = assemble('JUMPDEST PUSH1 0 JUMP')

function run(config?: unknown): Record<string, any> {
  return trace('erc7562Tracer', config)
}
run.mux = (config: unknown): Record<string, any> => trace('muxTracer', config)

function trace(name: string, config: unknown): Record<string, any> {
  const pre = new Map<bigint, AccountState>([
    [SENDER, accountState({ balance: 10n ** 18n })],
    [A, accountState({ code: a, storage: new Map([[2n, 7n]]) })],
    [B, accountState({ code: b })],
    [C, accountState({ balance: 1n })],
  ])
  const tx: TxInput = { type: 2, from: SENDER, nonce: 0n, gasLimit: 300_000n, to: A, value: 0n, data: new Uint8Array(0), maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }
  const { trace } = traceTransaction(createTracer(name, config), { world: new WorldState(stateReaderOf(pre)), block: blockEnvWith(), rules: rulesFor('cancun'), tx })
  return trace as Record<string, any>
}

const slot = (n: number): string => '0x' + n.toString(16).padStart(64, '0')

test('erc7562Tracer: storage and transient storage, EXTCODE* accesses, contract sizes, GAS and keccak preimages', () => {
  const top = run()
  assert.deepEqual(top.accessedSlots, {
    reads: { [slot(2)]: [slot(7)] },
    writes: { [slot(1)]: 1, [slot(2)]: 1 },
    transientReads: { [slot(3)]: 2 },
    transientWrites: { [slot(3)]: 1 },
  })
  assert.deepEqual(top.extCodeAccessInfo, ['0x' + 'b0'.padStart(40, '0')])
  assert.deepEqual(top.contractSize, {
    ['0x' + 'b0'.padStart(40, '0')]: { contractSize: b.length, opcode: 0x3b },
    ['0x' + 'c0'.padStart(40, '0')]: { contractSize: 0, opcode: 0xf1 },
  })
  // PUSHes, POP and ISZERO are ignored by default; one GAS is before a CALL; the code's end is a STOP
  assert.deepEqual(top.usedOpcodes, { '0x0': 1, '0x20': 1, '0x3b': 1, '0x3f': 1, '0x54': 3, '0x55': 2, '0x5a': 1, '0x5c': 2, '0x5d': 1, '0xf1': 2 })
  assert.deepEqual(top.keccak, ['0x' + '00'.repeat(32)])
  assert.equal(top.outOfGas, false)
})

test('erc7562Tracer: a frame that runs out of gas says so; a call to an account without code uses no opcodes', () => {
  const [looping, plain] = run().calls
  assert.equal(looping.to, '0x' + 'b0'.padStart(40, '0'))
  assert.equal(looping.error, 'out of gas')
  assert.equal(looping.outOfGas, true)
  assert.equal(looping.gasUsed, looping.gas)
  assert.deepEqual(Object.keys(looping.usedOpcodes), ['0x56', '0x5b'])
  assert.equal(looping.keccak, undefined, 'preimages are on the top frame only')
  assert.equal(plain.to, '0x' + 'c0'.padStart(40, '0'))
  assert.equal(plain.outOfGas, false)
  assert.deepEqual(plain.usedOpcodes, {})
  assert.deepEqual(plain.accessedSlots, { reads: {}, writes: {}, transientReads: {}, transientWrites: {} })
})

test('erc7562Tracer: ignoredOpcodes replaces the default list (GAS is still counted by its own rule)', () => {
  const all = run({ ignoredOpcodes: [] }).usedOpcodes
  assert.equal(all['0x60'], 27, 'every PUSH1')
  assert.equal(all['0x50'], 11, 'every POP')
  assert.equal(all['0x15'], 1, 'ISZERO')
  const some = run({ ignoredOpcodes: ['0x54', '0x5a', '0xf1'] }).usedOpcodes
  assert.equal(some['0x54'], undefined)
  assert.equal(some['0xf1'], undefined)
  assert.equal(some['0x5a'], 1)
  assert.equal(some['0x60'], 27)
})

test('erc7562Tracer: configurations geth refuses are refused', () => {
  assert.throws(() => createTracer('erc7562Tracer', { ignoredOpcodes: [0x54] }), TracerConfigError)
  assert.throws(() => createTracer('erc7562Tracer', { ignoredOpcodes: ['0x054'] }), TracerConfigError)
  assert.throws(() => createTracer('erc7562Tracer', { ignoredOpcodes: '0x54' }), TracerConfigError)
  assert.throws(() => createTracer('erc7562Tracer', { withLog: 1 }), TracerConfigError)
  assert.throws(() => createTracer('erc7562Tracer', { stackTopItemsSize: 'three' }), TracerConfigError)
  assert.doesNotThrow(() => createTracer('erc7562Tracer', { stackTopItemsSize: 5, ignoredOpcodes: null, withLog: true }))
})

test('erc7562Tracer inside muxTracer sees the steps too, and gives the same result as alone', () => {
  const alone = run({ withLog: true })
  const muxed = run.mux({ erc7562Tracer: { withLog: true }, callTracer: {} })
  assert.deepEqual(muxed.erc7562Tracer, alone)
  assert.equal(muxed.callTracer.calls.length, 2)
})

test('erc7562Tracer: a Frontier create that cannot pay for its code is out of gas, though geth keeps it unreverted', () => {
  // A creates with init code that returns 4096 bytes: far more deposit than the gas left
  const creator = assemble('PUSH6 0x6110006000f3 PUSH1 0 MSTORE PUSH1 6 PUSH1 26 PUSH1 0 CREATE STOP')
  const pre = new Map<bigint, AccountState>([[SENDER, accountState({ balance: 10n ** 18n })], [A, accountState({ code: creator })]])
  const tx: TxInput = { type: 0, from: SENDER, nonce: 0n, gasLimit: 200_000n, to: A, value: 0n, data: new Uint8Array(0), gasPrice: 0n }
  const { trace } = traceTransaction(createTracer('erc7562Tracer'), { world: new WorldState(stateReaderOf(pre)), block: blockEnvWith(), rules: rulesFor('frontier'), tx })
  const create = (trace as Record<string, any>).calls[0]
  assert.equal(create.type, 'CREATE')
  assert.equal(create.error, undefined)
  assert.equal(create.outOfGas, true)
  assert.deepEqual(create.usedOpcodes, { '0xf3': 1 })
})
