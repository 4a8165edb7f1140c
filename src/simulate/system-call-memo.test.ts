/**
 * The block-end system calls replayed from recordings give exactly what running them gives: checked against
 * blocks the sequencer sealed (which runs them for real), with a withdrawal request that changes what the
 * EIP-7002 call reads, and against the same simulation run again (every call then replayed).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { signedTx } from '../../test/support/dev-chain.ts'
import { SYSTEM_CONTRACTS } from '../node/system-contracts.ts'
import { isPureCode, SystemCallMemo } from './system-call-memo.ts'
import { replayOf, sequencingNode } from './test-kit.ts'

const WITHDRAWALS = SYSTEM_CONTRACTS.find((c) => c.name.includes('7002'))!

test('the request contracts are pure; environment reads, calls and GAS are not; push data is skipped', () => {
  for (const c of SYSTEM_CONTRACTS.filter((c) => /7002|7251/.test(c.name))) assert.equal(isPureCode(hexToBytes(c.code)), true, c.name)
  assert.equal(isPureCode(hexToBytes('0x4200')), false, 'TIMESTAMP')
  assert.equal(isPureCode(hexToBytes('0x5a00')), false, 'GAS')
  assert.equal(isPureCode(hexToBytes('0x5f5f5f5f5f5f5ff100')), false, 'CALL')
  assert.equal(isPureCode(hexToBytes('0x5c00')), false, 'TLOAD')
  assert.equal(isPureCode(hexToBytes('0x614243f300')), true, 'PUSH2 0x4243 is data')
})

/** Counts the system calls that really ran (were not replayed). */
function countRuns(t: TestContext): { runs: number } {
  const counter = { runs: 0 }
  const original = SystemCallMemo.prototype.call
  SystemCallMemo.prototype.call = function (this: SystemCallMemo, opts, host, run) {
    return original.call(this, opts, host, (o) => {
      counter.runs++
      return run(o)
    })
  }
  t.after(() => {
    SystemCallMemo.prototype.call = original
  })
  return counter
}

/** Runs `fn` with every system call run for real. */
async function withMemoOff<T>(t: TestContext, fn: () => Promise<T>): Promise<T> {
  const original = SystemCallMemo.prototype.isSystemCall
  SystemCallMemo.prototype.isSystemCall = () => false
  try {
    return await fn()
  } finally {
    SystemCallMemo.prototype.isSystemCall = original
  }
}

test('replayed and re-run system calls give the sealed blocks\' state roots and requests hashes', async (t) => {
  const node = await sequencingNode(t, { computeStateRoot: true })
  await node.api.mine() // block 1: empty queues
  // Block 2: a withdrawal request (48-byte key, 8-byte amount; the fee is 1 wei with no excess).
  const request = signedTx(node, 0, 0n, { to: WITHDRAWALS.address, value: 1n, data: `0x${'ab'.repeat(48)}${'00'.repeat(7)}01`, gasLimit: 200_000n })
  await node.api.sendRawTransaction(request.serialize())
  await node.api.mine()
  await node.api.mine() // block 3: the queue is empty again
  assert.equal(node.chain.receipts(2n)![0]!.status, 1, 'the request was accepted')
  const emptyRequests = bytesToHex(node.chain.header(1n)!.requestsHash!)
  assert.notEqual(bytesToHex(node.chain.header(2n)!.requestsHash!), emptyRequests, 'block 2 carries the request')

  const input = { blockStateCalls: [1n, 2n, 3n].map((n) => replayOf(node, n)), traceTransfers: false, validation: true, returnFullTransactions: false }
  const simulate = () => node.api.simulateV1(input, { kind: 'number', number: 0n })
  const withoutMemo = await withMemoOff(t, simulate)
  // Block 3's parent is the simulated block 2 (its unsigned call hashes differently): only 1 and 2 compare.
  for (const [i, sim] of withoutMemo.slice(0, 2).entries()) {
    const sealed = node.chain.header(BigInt(i + 1))!
    assert.equal(bytesToHex(sim.block.header.stateRoot), bytesToHex(sealed.stateRoot), `state root of block ${i + 1}`)
    assert.equal(bytesToHex(sim.block.header.requestsHash!), bytesToHex(sealed.requestsHash!), `requests hash of block ${i + 1}`)
  }

  const counter = countRuns(t)
  assert.deepEqual(await simulate(), withoutMemo)
  // Block 1 records both calls; EIP-7251's is replayed in blocks 2 and 3. EIP-7002's reads differ in block 2
  // (the queued request) and in block 3 (the fee paid stays in the contract's balance): it runs three times.
  assert.equal(counter.runs, 4)
  assert.deepEqual(await simulate(), withoutMemo)
  assert.equal(counter.runs, 4, 'the second time every system call is replayed')
})
