import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Address } from '@ethereumjs/util'
import { FlashnodeError } from '../errors/errors.ts'
import { rulesFor } from '../evm/fork.ts'
import { precompileAt } from '../evm/precompiles/registry.ts'
import type { AccountOverride } from '../state/account-overrides.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { JournaledState } from '../state/journaled-state.ts'
import type { StateReader } from '../state/state-reader.ts'
import { applySimOverrides, standardPrecompiles } from './overrides.ts'

const rules = rulesFor('prague')
const empty: StateReader = { getAccount: () => undefined, getStorage: () => new Uint8Array(0), getCode: () => new Uint8Array(0) }
const ECRECOVER = '0x0000000000000000000000000000000000000001'
const SHA256 = '0x0000000000000000000000000000000000000002'
const DEST = '0x0000000000000000000000000000000000123456'

async function apply(o: [string, AccountOverride][]) {
  const state = new JournaledState(empty)
  const table = await applySimOverrides(state, new Map(o), rules)
  return { state, table }
}

async function code(o: [string, AccountOverride][]): Promise<number | undefined> {
  try {
    await apply(o)
  } catch (e) {
    if (e instanceof FlashnodeError) return e.code
    throw e
  }
  return undefined
}

test('a moved precompile answers at its new address and no longer at its own; untouched precompiles keep the fork\'s table', async () => {
  const { table } = await apply([[ECRECOVER, { movePrecompileToAddress: hexToBytes(DEST) }]])
  assert.equal(table!.get(BigInt(DEST)), precompileAt(1n, rules))
  assert.equal(table!.has(1n), false)
  assert.equal(table!.get(2n), precompileAt(2n, rules))
  assert.equal((await apply([[DEST, { balance: 1n }]])).table, undefined, 'no precompile touched: the fork\'s own lookup')
  assert.equal(standardPrecompiles(rules).size, 17)
})

test('any override of a precompile address replaces the precompile by the account', async () => {
  const { state, table } = await apply([[SHA256, { code: hexToBytes('0x00'), balance: 1n, stateDiff: new Map([[bytesToHex(new Uint8Array(32)), new Uint8Array([1])]]) }]])
  assert.equal(table!.has(2n), false)
  const a = new Address(hexToBytes(SHA256))
  assert.equal((await state.getAccount(a))!.balance, 1n)
  assert.equal(bytesToHex(await state.getStorage(a, new Uint8Array(32))), '0x01')
})

test('refusals follow geth (-32000), except a precompile moved onto itself (the spec\'s -38022)', async () => {
  const c1 = '0xc100000000000000000000000000000000000000'
  assert.equal(await code([[c1, { movePrecompileToAddress: hexToBytes(DEST) }]]), -32000, 'not a precompile')
  assert.equal(await code([[ECRECOVER, { movePrecompileToAddress: hexToBytes(c1) }], [c1, { balance: 1n }]]), -32000, 'destination overridden')
  assert.equal(await code([[ECRECOVER, { movePrecompileToAddress: hexToBytes(ECRECOVER) }]]), -38022)
  assert.equal(await code([[ECRECOVER, { movePrecompileToAddress: hexToBytes(DEST) }], [SHA256, { movePrecompileToAddress: hexToBytes(DEST) }]]), undefined)
  assert.equal(await code([[c1, { state: new Map(), stateDiff: new Map() }]]), -32000)
})
