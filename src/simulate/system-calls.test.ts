import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, KECCAK256_RLP } from '@ethereumjs/util'
import { rulesFor } from '../evm/fork.ts'
import { assemble, blockEnvWith } from '../evm/test-kit.ts'
import type { BlockEnv } from '../evm/types.ts'
import { WorldState } from '../evm/world-state.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'
import { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, openBlock, requestsHash, runSystemCall, SYSTEM_ADDRESS } from './system-calls.ts'

// Stores its first call-data word at slot 0 and returns the caller.
const STORE = assemble('PUSH1 0 CALLDATALOAD PUSH1 0 SSTORE CALLER PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN')

function world(codeAt: readonly bigint[]): WorldState {
  const base: StateReader = {
    getAccount: (a) => (codeAt.includes(bytesToBigInt(a)) ? new Account(1n, 0n, KECCAK256_RLP, keccak256(STORE)) : undefined),
    getStorage: () => new Uint8Array(0),
    getCode: (h) => (bytesToHex(h) === bytesToHex(keccak256(STORE)) ? STORE : new Uint8Array(0)),
  }
  return new WorldState(base)
}

const block: BlockEnv = blockEnvWith({ number: 5n, timestamp: 60n, baseFee: 7n })

test('a system call runs from 0xff…fe without fee or nonce and keeps its writes; an absent contract changes nothing', () => {
  const w = world([0xabcn])
  const r = runSystemCall(w, block, rulesFor('prague'), 0xabcn, bigIntToFixedBytes(7n, 32))
  assert.equal(r.ok, true)
  assert.equal(bytesToBigInt(r.output), SYSTEM_ADDRESS)
  assert.equal(w.getStorage(0xabcn, 0n), 7n)
  assert.equal(w.exists(SYSTEM_ADDRESS), false, 'the system address is neither charged nor created')
  assert.equal(runSystemCall(w, block, rulesFor('prague'), 0xdefn, new Uint8Array(0)).ok, true)
  assert.equal(w.diff().accounts.size, 0)
})

test('a block opens with the beacon root from Cancun and the parent hash from Prague', () => {
  const root = new Uint8Array(32).fill(1)
  const parent = new Uint8Array(32).fill(2)
  const cancun = world([BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS])
  openBlock(cancun, block, rulesFor('cancun'), root, parent)
  assert.equal(cancun.getStorage(BEACON_ROOTS_ADDRESS, 0n), bytesToBigInt(root))
  assert.equal(cancun.getStorage(HISTORY_STORAGE_ADDRESS, 0n), 0n)
  const prague = world([BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS])
  openBlock(prague, block, rulesFor('prague'), root, parent)
  assert.equal(prague.getStorage(HISTORY_STORAGE_ADDRESS, 0n), bytesToBigInt(parent))
})

test('EIP-7685 requests hash: empty requests are left out', () => {
  const empty = [Uint8Array.of(0), Uint8Array.of(1), Uint8Array.of(2)]
  assert.equal(bytesToHex(requestsHash(empty)), '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  assert.notEqual(bytesToHex(requestsHash([Uint8Array.of(0, 9), ...empty.slice(1)])), bytesToHex(requestsHash(empty)))
})
