import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import { SimState } from './sim-state.ts'

const CODE = hexToBytes('0x600160005500')
const DELEGATED = hexToBytes(`0xef0100${'11'.repeat(20)}`)
const empty: StateReader = { getAccount: () => undefined, getStorage: () => new Uint8Array(0), getCode: () => new Uint8Array(0) }
const at = (n: number) => new Address(new Uint8Array(20).fill(n))

test('an armed contract sender reads as code-less until written back, and every write-back keeps its code', async () => {
  const state = new SimState(empty)
  const sender = at(1)
  await state.putAccount(sender, new Account(0n, 10n))
  await state.putCode(sender, CODE)
  state.armSender(sender)
  const read = (await state.getAccount(sender))!
  assert.equal(bytesToHex(read.codeHash), bytesToHex(KECCAK256_NULL), 'the EIP-3607 check sees an EOA')
  read.balance = 9n
  await state.putAccount(sender, read)
  read.nonce = 1n
  await state.putAccount(sender, read) // the runner writes the same object again
  const after = (await state.getAccount(sender))!
  assert.equal(bytesToHex(after.codeHash), bytesToHex(keccak_256(CODE)))
  assert.deepEqual([after.nonce, after.balance], [1n, 9n])
  state.armSender(undefined)
  assert.equal(bytesToHex((await state.getCode(sender))), bytesToHex(CODE))
})

test('EOAs and delegated senders are not masked', async () => {
  const state = new SimState(empty)
  const delegated = at(2)
  await state.putCode(delegated, DELEGATED)
  state.armSender(delegated)
  assert.equal(bytesToHex((await state.getAccount(delegated))!.codeHash), bytesToHex(keccak_256(DELEGATED)))
  state.armSender(at(3))
  assert.equal(await state.getAccount(at(3)), undefined)
})
