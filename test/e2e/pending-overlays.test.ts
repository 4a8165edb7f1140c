/**
 * Overlays over sealed state, through viem: at `pending` and inside eth_simulateV1 (a later simulated block
 * reading an earlier one), a slot of an account whose storage was wiped reads zero, and an account deleted
 * reads as absent (balance 0, nonce 0, no code), never as its sealed state.
 *
 * On Shanghai rules, where SELFDESTRUCT deletes an existing contract with its storage: block 1 seals two
 * contracts with storage and balance (A and B, created by a CREATE2 factory); the open block 2 destroys A,
 * and destroys and re-creates B (same address, new storage). Reads go through eth_getStorageAt/Balance/
 * TransactionCount/Code, and through eth_call (a probe contract reads BALANCE, EXTCODESIZE and EXTCODEHASH;
 * the contracts' own getter reads their storage), both inline and on an execution worker (which gets the
 * pending snapshot in its wire form).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, http, numberToHex, pad, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../support/dev-chain.ts'
import {
  FACTORY_RUNTIME,
  GETTER_RUNTIME,
  MARKER_INIT,
  PROBE_RUNTIME,
  create2Address,
  factoryCall,
  probeCall,
  slotCall,
  words,
} from '../support/contracts.ts'
import { genesisWith } from '../support/genesis.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const FACTORY = '0x00000000000000000000000000000000000fac70' as const
const PROBE = '0x0000000000000000000000000000000000000b0e' as const
const A = create2Address(FACTORY, 1n, MARKER_INIT)
const B = create2Address(FACTORY, 2n, MARKER_INIT)
const word = (n: bigint): Hex => pad(numberToHex(n), { size: 32 })
const MARK = 0x2an

interface SimCall {
  from?: string
  to: string
  data?: Hex
  value?: Hex
}

/** Block 1 sealed with A (slot 5, balance 5) and B (slot 6, balance 6); block 2 open: A destroyed, B destroyed and re-created (slot 7, balance 7). */
async function openBlockDestroying(t: TestContext, executionWorkers: number) {
  const running = await startNode(t, tempDir(t), genesisWith({ code: { [FACTORY]: FACTORY_RUNTIME, [PROBE]: PROBE_RUNTIME }, shanghai: true }), {
    executionWorkers,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  await running.node.start()
  const chain = VIEM_DEV_CHAIN
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const w = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex), chain, transport: http(running.url, { retryCount: 0 }) })
  const create = (salt: bigint, value: bigint) => w.sendTransaction({ to: FACTORY, data: factoryCall(salt, MARKER_INIT), value, gas: 300_000n })
  await create(1n, 5n)
  await create(2n, 6n)
  await pub.request({ method: 'evm_mine' as never })
  const open = [await w.sendTransaction({ to: A, gas: 100_000n }), await w.sendTransaction({ to: B, gas: 100_000n }), await create(2n, 7n)]
  await pub.request({ method: 'flashnode_flashblock' as never })
  for (const hash of open) {
    const r = await pub.getTransactionReceipt({ hash })
    assert.equal(r.status, 'success')
    assert.equal(r.blockHash, `0x${'00'.repeat(32)}`, 'pre-confirmed, not sealed (32 zero bytes)')
  }
  const simulate = async (blocks: { calls: SimCall[]; stateOverrides?: Record<string, unknown> }[], base: 'latest' | 'pending') =>
    (
      (await pub.request({ method: 'eth_simulateV1' as never, params: [{ blockStateCalls: blocks }, base] as never })) as {
        calls: { status: string; returnData: Hex }[]
      }[]
    ).map((b) => b.calls.map((c) => (assert.equal(c.status, '0x1'), c.returnData)))
  return { pub, simulate }
}

async function pendingReads(t: TestContext, executionWorkers: number): Promise<void> {
  const { pub } = await openBlockDestroying(t, executionWorkers)
  const probe = async (blockTag: 'latest' | 'pending') => words((await pub.call({ to: PROBE, data: probeCall(A), blockTag })).data)
  const getter = async (address: Hex, slot: bigint, blockTag: 'latest' | 'pending') => (await pub.call({ to: address, data: slotCall(slot), blockTag })).data

  // A: deleted in the open block.
  assert.equal(await pub.getBalance({ address: A, blockTag: 'pending' }), 0n)
  assert.equal(await pub.getTransactionCount({ address: A, blockTag: 'pending' }), 0)
  assert.equal(await pub.getCode({ address: A, blockTag: 'pending' }), undefined)
  assert.equal(await pub.getStorageAt({ address: A, slot: word(5n), blockTag: 'pending' }), word(0n))
  assert.deepEqual(await probe('pending'), [0n, 0n, 0n], 'inside the EVM: no balance, no code, no account (EXTCODEHASH 0)')
  assert.equal(await getter(A, 5n, 'pending'), undefined, 'no code to call')
  // ... and as sealed.
  assert.equal(await pub.getBalance({ address: A, blockTag: 'latest' }), 5n)
  assert.equal(await pub.getTransactionCount({ address: A, blockTag: 'latest' }), 1)
  assert.equal(await pub.getCode({ address: A, blockTag: 'latest' }), `0x${GETTER_RUNTIME}`)
  assert.equal(await pub.getStorageAt({ address: A, slot: word(5n), blockTag: 'latest' }), word(MARK))
  const sealed = await probe('latest')
  assert.deepEqual(sealed.slice(0, 2), [5n, BigInt(GETTER_RUNTIME.length / 2)])

  // B: wiped and re-created in the open block.
  assert.equal(await pub.getStorageAt({ address: B, slot: word(6n), blockTag: 'pending' }), word(0n), 'wiped')
  assert.equal(await getter(B, 6n, 'pending'), word(0n), 'wiped, read by the contract')
  assert.equal(await pub.getStorageAt({ address: B, slot: word(7n), blockTag: 'pending' }), word(MARK))
  assert.equal(await getter(B, 7n, 'pending'), word(MARK))
  assert.equal(await pub.getBalance({ address: B, blockTag: 'pending' }), 7n)
  assert.equal(await pub.getStorageAt({ address: B, slot: word(6n), blockTag: 'latest' }), word(MARK))
  assert.equal(await getter(B, 6n, 'latest'), word(MARK))
}

test('at pending, a deleted account reads as absent and a wiped slot as zero, not as sealed (inline execution)', async (t) => {
  await pendingReads(t, 0)
})

test('at pending, a deleted account reads as absent and a wiped slot as zero, not as sealed (execution worker)', { timeout: 60_000 }, async (t) => {
  await pendingReads(t, 1)
})

async function simulatedReads(t: TestContext, executionWorkers: number): Promise<void> {
  const { simulate } = await openBlockDestroying(t, executionWorkers)
  const from = ACCOUNTS[1]!.address
  const destroy = (to: Hex): SimCall => ({ from, to })
  const recreateB = (value: bigint): SimCall => ({ from, to: FACTORY, data: factoryCall(2n, MARKER_INIT), value: numberToHex(value) })
  const probeA: SimCall = { to: PROBE, data: probeCall(A) }
  const read = (address: Hex, slot: bigint): SimCall => ({ to: address, data: slotCall(slot) })

  // On latest (A and B as block 1 sealed them): later simulated blocks read what earlier ones did.
  const [, second, third, fourth] = await simulate(
    [
      { calls: [destroy(A), destroy(B), recreateB(9n)] },
      { calls: [destroy(B), recreateB(10n), probeA] },
      { calls: [probeA, read(B, 6n), read(B, 9n), read(B, 10n)] },
      { stateOverrides: { [A]: { code: `0x${GETTER_RUNTIME}` } }, calls: [read(A, 5n)] },
    ],
    'latest',
  )
  assert.deepEqual(words(second![2]), [0n, 0n, 0n], 'A, deleted one simulated block earlier, is absent')
  assert.deepEqual(words(third![0]), [0n, 0n, 0n], 'and stays so two blocks later')
  assert.deepEqual(third!.slice(1).map((r) => words(r)[0]), [0n, 0n, MARK], 'B: wiped in block 1 (slot 6) and block 2 (slot 9); slot 10 written after')
  assert.deepEqual(words(fourth![0]), [0n], 'A given code back by an override: its storage is still wiped')

  // On pending (the open block already destroyed A and re-created B).
  const [onPending] = await simulate([{ calls: [probeA, read(B, 6n), read(B, 7n)] }], 'pending')
  assert.deepEqual(words(onPending![0]), [0n, 0n, 0n])
  assert.deepEqual(onPending!.slice(1).map((r) => words(r)[0]), [0n, MARK])
}

test('inside eth_simulateV1, a later block sees an earlier block\'s deletions and wipes, not the sealed state (inline execution)', async (t) => {
  await simulatedReads(t, 0)
})

test('inside eth_simulateV1, a later block sees an earlier block\'s deletions and wipes, not the sealed state (execution worker)', { timeout: 60_000 }, async (t) => {
  await simulatedReads(t, 1)
})
