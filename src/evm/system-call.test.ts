import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { bigIntToFixedBytes, bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { rulesFor } from './fork.ts'
import { BEACON_ROOTS_ADDRESS, runSystemCall, SYSTEM_ADDRESS } from './system-call.ts'
import type { BlockEnv } from './types.ts'
import { blockEnvWith } from './test-kit.ts'
import { WorldState } from './world-state.ts'
import type { StateReader } from '../state/state-reader.ts'

const block: BlockEnv = blockEnvWith({ timestamp: 12n, baseFee: 7n })

function reader(code: Uint8Array | undefined): StateReader {
  const hash = code === undefined ? undefined : keccak256(code)
  return {
    getAccount: (a) => (code !== undefined && bytesToHex(a) === bytesToHex(bigIntToFixedBytes(BEACON_ROOTS_ADDRESS, 20)) ? new Account(0n, 0n, undefined, hash) : undefined),
    getStorage: () => new Uint8Array(0),
    getCode: () => code ?? new Uint8Array(0),
  }
}

test('a system call runs the contract with the system address as caller, no fee, no nonce, and leaves the system address absent', () => {
  // CALLER SSTORE at slot 0; CALLDATALOAD(0) at slot 1.
  const code = Uint8Array.from([0x33, 0x5f, 0x55, 0x5f, 0x35, 0x60, 0x01, 0x55, 0x00])
  const world = new WorldState(reader(code))
  const r = runSystemCall(world, block, rulesFor('prague'), BEACON_ROOTS_ADDRESS, bigIntToFixedBytes(42n, 32))
  assert.equal(r.ok, true)
  assert.equal(r.hasCode, true)
  assert.equal(world.getStorage(BEACON_ROOTS_ADDRESS, 0n), SYSTEM_ADDRESS)
  assert.equal(world.getStorage(BEACON_ROOTS_ADDRESS, 1n), 42n)
  assert.equal(world.exists(SYSTEM_ADDRESS), false)
  assert.equal(world.diff().accounts.size, 0)
})

test('a system call to an address without code is a no-op that reports it', () => {
  const world = new WorldState(reader(undefined))
  const r = runSystemCall(world, block, rulesFor('cancun'), BEACON_ROOTS_ADDRESS, new Uint8Array(32))
  assert.equal(r.hasCode, false)
  assert.equal(r.ok, true)
  const diff = world.diff()
  assert.equal(diff.accounts.size + diff.storage.size, 0)
})
