/**
 * The library oracle answers as the protocol says (expected values derived from the yellow paper and the
 * EIPs, not from the oracle's own output), refuses what a transaction may not do, stays correct when runs
 * overlap on its pooled VMs, and reproduces a state-test fixture's post-state root.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { InvalidTransaction, Status, type BlockEnv, type TxInput } from '../../src/evm/types.ts'
import { blockEnvWith } from '../../src/evm/test-kit.ts'
import { bytesToHex } from '../../src/primitives/hex.ts'
import { runWithLibrary } from './library-oracle.ts'
import { accountState, stateRootOf, type WorldSnapshot } from '../state-tests/world.ts'
import { CANCUN_CORPUS } from '../state-tests/fixtures.ts'
import { buildBlockEnv, buildPreState, buildTxInput } from '../state-tests/build.ts'

const SENDER = 0xa94f5374fce5edbc8e2a8697c15331677e6ebf0bn
const RECIPIENT = 0x1000n
const COINBASE = 0xc0ffeen
const ETHER = 10n ** 18n

function block(overrides: Partial<BlockEnv> = {}): BlockEnv {
  return blockEnvWith({ timestamp: 1000n, coinbase: COINBASE, baseFee: 7n, prevRandao: 0x1234n, ...overrides })
}

const pre: WorldSnapshot = new Map([[SENDER, accountState({ balance: ETHER })]])

const transfer: TxInput = { type: 0, from: SENDER, nonce: 0n, gasLimit: 50_000n, to: RECIPIENT, value: 1000n, data: new Uint8Array(0), gasPrice: 10n }

test('a plain transfer: 21000 gas, value moved, fee split between burn and tip (London)', async () => {
  const { result, post, stateRoot } = await runWithLibrary(pre, block(), 'cancun', transfer)
  assert.equal(result.status, Status.Success)
  assert.equal(result.gasUsed, 21000n)
  assert.equal(result.logs.length, 0)
  assert.equal(post.get(SENDER)?.balance, ETHER - 1000n - 21000n * 10n)
  assert.equal(post.get(SENDER)?.nonce, 1n)
  assert.equal(post.get(RECIPIENT)?.balance, 1000n)
  // EIP-1559: the coinbase gets only the tip, gasPrice - baseFee per gas.
  assert.equal(post.get(COINBASE)?.balance, 21000n * 3n)
  assert.equal(bytesToHex(stateRoot), bytesToHex(stateRootOf(post)))
})

test('before London the coinbase gets the whole gas price', async () => {
  const { post } = await runWithLibrary(pre, block({ baseFee: 0n }), 'istanbul', transfer)
  assert.equal(post.get(COINBASE)?.balance, 21000n * 10n)
})

test('code runs: SSTORE of CALLVALUE, a LOG1 and a revert are reported', async () => {
  // 0x34 CALLVALUE, 0x6000 PUSH1 0, 0x55 SSTORE, 0x6001 0x6000 0x6000 0xa1 (LOG1 topic 1, empty data), 0x00 STOP
  const code = Uint8Array.from([0x34, 0x60, 0x00, 0x55, 0x60, 0x01, 0x60, 0x00, 0x60, 0x00, 0xa1, 0x00])
  const world: WorldSnapshot = new Map([...pre, [RECIPIENT, accountState({ code })]])
  const { result, post } = await runWithLibrary(world, block(), 'cancun', { ...transfer, gasLimit: 100_000n, value: 5n })
  assert.equal(result.status, Status.Success)
  assert.equal(post.get(RECIPIENT)?.storage.get(0n), 5n)
  assert.deepEqual(result.logs.map((l) => [l.address, l.topics]), [[RECIPIENT, [1n]]])
  // 0x60 0x2a 0x60 0x00 0x52 0x60 0x20 0x60 0x00 0xfd: REVERT with 32 bytes holding 42
  const reverting = Uint8Array.from([0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xfd])
  const world2: WorldSnapshot = new Map([...pre, [RECIPIENT, accountState({ code: reverting })]])
  const reverted = await runWithLibrary(world2, block(), 'cancun', { ...transfer, gasLimit: 100_000n })
  assert.equal(reverted.result.status, Status.Revert)
  assert.equal(reverted.result.output.length, 32)
  assert.equal(reverted.result.output[31], 42)
  assert.equal(reverted.post.get(RECIPIENT)?.balance ?? 0n, 0n, 'the value transfer is undone')
})

test('refused transactions throw InvalidTransaction', async () => {
  await assert.rejects(runWithLibrary(pre, block(), 'cancun', { ...transfer, nonce: 1n }), InvalidTransaction)
  await assert.rejects(runWithLibrary(pre, block(), 'cancun', { ...transfer, gasLimit: 20_999n }), InvalidTransaction)
  await assert.rejects(runWithLibrary(pre, block(), 'cancun', { ...transfer, gasPrice: 6n }), InvalidTransaction, 'below the base fee')
  await assert.rejects(runWithLibrary(pre, block(), 'istanbul', { ...transfer, type: 2, gasPrice: undefined, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, accessList: [] }), InvalidTransaction)
})

test('overlapping runs on pooled VMs answer as sequential ones', async () => {
  const txs = [0n, 1n, 2n, 3n].map((v) => ({ ...transfer, value: v * 100n }))
  const sequential = []
  for (const tx of txs) sequential.push(bytesToHex((await runWithLibrary(pre, block(), 'cancun', tx)).stateRoot))
  const together = await Promise.all(txs.map(async (tx) => bytesToHex((await runWithLibrary(pre, block(), 'cancun', tx)).stateRoot)))
  assert.deepEqual(together, sequential)
  assert.equal(new Set(sequential).size, 4)
})

test('a state-test fixture: the post-state root the fixture expects', { skip: !CANCUN_CORPUS.available() && 'no corpus beside the repository' }, async () => {
  const cases = CANCUN_CORPUS.loadFixture('stExample/add11.json')
  const c = Object.values(cases)[0]!
  const entry = c.post.Cancun![0]!
  const { stateRoot } = await runWithLibrary(buildPreState(c.pre), buildBlockEnv(c.env, 'cancun'), 'cancun', buildTxInput(c.transaction, entry.indexes))
  assert.equal(bytesToHex(stateRoot), entry.hash)
})
