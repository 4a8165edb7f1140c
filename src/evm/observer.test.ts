import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'
import { rulesFor } from './fork.ts'
import type { FrameObserver } from './observer.ts'
import { assemble, blockEnvWith } from './test-kit.ts'
import { executeTransaction } from './transaction.ts'
import { Status, type BlockEnv, type Precompile, type TxInput } from './types.ts'
import { WorldState } from './world-state.ts'

const SENDER = 0x5e7d00n
const A = 0xa0n
const B = 0xb0n
const HEIR = 0xc0n

function world(accounts: ReadonlyMap<bigint, { balance: bigint; code?: Uint8Array }>): WorldState {
  const codes = new Map<string, Uint8Array>()
  for (const a of accounts.values()) if (a.code !== undefined) codes.set(bytesToHex(keccak256(a.code)), a.code)
  const base: StateReader = {
    getAccount(address) {
      const a = accounts.get(bytesToBigInt(address))
      return a === undefined ? undefined : new Account(0n, a.balance, KECCAK256_RLP, a.code === undefined ? KECCAK256_NULL : keccak256(a.code))
    },
    getStorage: () => new Uint8Array(0),
    getCode: (hash) => codes.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
  return new WorldState(base)
}

const block: BlockEnv = blockEnvWith({ coinbase: 0xc0b0n })
const tx = (to: bigint): TxInput => ({ type: 2, from: SENDER, nonce: 0n, gasLimit: 200_000n, to, value: 0n, data: new Uint8Array(0), maxFeePerGas: 0n, maxPriorityFeePerGas: 0n })

test('the observer sees frames before their checks, exits with revert status, logs and self-destruct balance moves in order', () => {
  // A: CALL B with 1 wei (B reverts), LOG0, SELFDESTRUCT to HEIR.
  const a = assemble('PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 1 PUSH1 0xb0 GAS CALL POP PUSH1 0 PUSH1 0 LOG0 PUSH1 0xc0 SELFDESTRUCT')
  const b = assemble('PUSH1 0 PUSH1 0 REVERT')
  const w = world(new Map([[SENDER, { balance: 10n ** 18n }], [A, { balance: 10n, code: a }], [B, { balance: 0n, code: b }]]))
  const events: string[] = []
  const observer: FrameObserver = {
    enter: (m) => events.push(`enter ${m.caller.toString(16)}->${m.recipient.toString(16)} ${m.value}`),
    exit: (_result, error) => events.push(`exit ${error ?? 'ok'}`),
    log: (address, topics) => events.push(`log ${address.toString(16)} ${topics.length}`),
    selfDestruct: (from, to, balance) => events.push(`selfdestruct ${from.toString(16)}->${to.toString(16)} ${balance}`),
  }
  const r = executeTransaction(w, block, rulesFor('cancun'), tx(A), { observer })
  assert.equal(r.status, Status.Success)
  assert.deepEqual(events, ['enter 5e7d00->a0 0', 'enter a0->b0 1', 'exit execution reverted', 'log a0 0', 'selfdestruct a0->c0 10', 'exit ok'])
  assert.equal(w.getBalance(HEIR), 10n)
})

test('a precompile table replaces the fork\'s for calls: a moved precompile answers, a removed one is a plain account', () => {
  const fake: Precompile = () => ({ ok: true, gasUsed: 5, output: new Uint8Array([42]) })
  const precompiles = new Map<bigint, Precompile>([[0x1234n, fake]])
  const w = world(new Map([[SENDER, { balance: 10n ** 18n }]]))
  assert.deepEqual([...executeTransaction(w, block, rulesFor('cancun'), tx(0x1234n), { precompiles, skipNonceCheck: true }).output], [42])
  assert.deepEqual([...executeTransaction(w, block, rulesFor('cancun'), tx(2n), { precompiles, skipNonceCheck: true }).output], [])
  assert.equal(executeTransaction(w, block, rulesFor('cancun'), tx(2n), { skipNonceCheck: true }).output.length, 32, 'without a table: SHA256')
})
