// Gas above 2^53 (frame-state.ts's reserve): a transaction whose gas limit is far above Number.MAX_SAFE_INTEGER
// must use exactly the gas the rules say. The expected figures are derived by hand in each test.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { executeTransaction } from './transaction.ts'
import { rulesFor } from './fork.ts'
import { assemble, blockEnvWith } from './test-kit.ts'
import { Status, type BlockEnv, type Host, type Message, type TxInput } from './types.ts'
import { chargeFromReserve, Frame, totalGas } from './frame-state.ts'
import { forkGasFor } from './gas-rules.ts'
import { takeMemory } from './memory.ts'
import { WorldState } from './world-state.ts'
import { bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'

const SENDER = 0x5e7d00n
const A = 0xa0a0n
const B = 0xb0b1n

function worldWith(codes: Map<bigint, Uint8Array>): WorldState {
  const byHash = new Map<string, Uint8Array>()
  for (const code of codes.values()) byHash.set(bytesToHex(keccak256(code)), code)
  const base: StateReader = {
    getAccount(address) {
      const a = bytesToBigInt(address)
      if (a === SENDER) return new Account(0n, 10n ** 18n, KECCAK256_RLP, KECCAK256_NULL)
      const code = codes.get(a)
      return code === undefined ? undefined : new Account(1n, 0n, KECCAK256_RLP, keccak256(code))
    },
    getStorage: () => new Uint8Array(0),
    getCode: (hash) => byHash.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
  return new WorldState(base)
}

const GAS_LIMIT = (1n << 62n) + 12345n

const block: BlockEnv = blockEnvWith({ coinbase: 0xc0b0n, gasLimit: 1n << 63n })

const tx: TxInput = { type: 0, from: SENDER, nonce: 0n, gasLimit: GAS_LIMIT, to: A, value: 0n, data: new Uint8Array(0), gasPrice: 0n }

// A calls B with all its gas (GAS as the request), then stores GAS in slot 0.
// Cost before the CALL: 5 PUSH0 (10) + PUSH2 (3) + GAS (2) = 15; the CALL: 100 warm + 2500 cold B = 2600.
// After it: GAS (2), PUSH0 (2), SSTORE of a fresh slot, cold (2100 + 20000).
const CALLER = assemble('PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH2 0xb0b1 GAS CALL GAS PUSH0 SSTORE STOP')
const AFTER_CALL = 2n + 2n + 22100n

test('gas above 2^53: a callee that halts takes all but one 64th of the exact total', () => {
  const world = worldWith(new Map([[A, CALLER], [B, assemble('INVALID')]]))
  const result = executeTransaction(world, block, rulesFor('cancun'), tx)
  assert.equal(result.status, Status.Success)
  const beforeCall = GAS_LIMIT - 21000n - 15n - 2600n
  const kept = beforeCall / 64n // the callee gets beforeCall - floor(beforeCall / 64) and burns it
  assert.ok(kept > BigInt(Number.MAX_SAFE_INTEGER), 'the caller keeps more than 2^53 as well')
  assert.equal(world.getStorage(A, 0n), kept - 2n, 'GAS reads the exact total')
  assert.equal(result.gasUsed, GAS_LIMIT - (kept - AFTER_CALL))
})

test('gas above 2^53: a callee that stops gives back its exact gas (reserve included)', () => {
  const world = worldWith(new Map([[A, CALLER], [B, assemble('STOP')]]))
  const result = executeTransaction(world, block, rulesFor('cancun'), tx)
  assert.equal(result.status, Status.Success)
  assert.equal(world.getStorage(A, 0n), GAS_LIMIT - 21000n - 15n - 2600n - 2n)
  assert.equal(result.gasUsed, 21000n + 15n + 2600n + AFTER_CALL)
})

test('gas above 2^53: a halt at the top consumes the whole gas limit', () => {
  const world = worldWith(new Map([[A, assemble('INVALID')]]))
  const result = executeTransaction(world, block, rulesFor('cancun'), tx)
  assert.equal(result.status, Status.Halt)
  assert.equal(result.gasUsed, GAS_LIMIT)
})

test('gas above 2^53: a large memory expansion is charged from the exact total', () => {
  // MSTORE at 0xffffffe0: 2^27 words, 3·2^27 + 2^54 / 512 gas; PUSH1, PUSH4 (3 each), MSTORE (3); then as above.
  const code = assemble('PUSH1 0x01 PUSH4 0xffffffe0 MSTORE GAS PUSH0 SSTORE STOP')
  const world = worldWith(new Map([[A, code]]))
  const result = executeTransaction(world, block, rulesFor('cancun'), tx)
  assert.equal(result.status, Status.Success)
  const words = 1n << 27n
  const memory = 3n * words + (words * words) / 512n
  const gasAtGas = GAS_LIMIT - 21000n - 3n - 3n - 3n - memory - 2n
  assert.equal(world.getStorage(A, 0n), gasAtGas)
  assert.equal(result.gasUsed, GAS_LIMIT - (gasAtGas - 2n - 22100n))
})

test('chargeFromReserve: a charge the number part cannot pay comes from the exact total', () => {
  const frame = new Frame({} as Host, { gas: 10, gasReserve: 1n << 60n, recipient: 0n } as Message, rulesFor('cancun'), forkGasFor(rulesFor('cancun')), [], takeMemory(), new Uint8Array(0))
  const max = BigInt(Number.MAX_SAFE_INTEGER)
  assert.equal(chargeFromReserve(frame, 10, 100), Number.MAX_SAFE_INTEGER)
  assert.equal(frame.reserve, (1n << 60n) + 10n - 100n - max)
  assert.equal(totalGas(frame), (1n << 60n) - 90n)
  frame.reserve = 5n
  assert.equal(chargeFromReserve(frame, 10, 15), 0, 'exactly all of it')
  assert.equal(frame.reserve, 0n)
  frame.reserve = 5n
  assert.equal(chargeFromReserve(frame, 10, 16), -1, 'one more than the total')
  assert.equal(frame.reserve, 5n, 'nothing charged on failure')
  frame.reserve = 0n
  assert.equal(chargeFromReserve(frame, 10, 11), -1, 'no reserve: out of gas')
})
