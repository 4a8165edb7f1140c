/**
 * eth_estimateGas after geth's estimator, through the node's facade on a dev chain (no server): the
 * plain-transfer answer of 21000, the binary search's stopping rule (the answer succeeds and lies within
 * geth's 1.5% of the least gas that succeeds, found here independently by running eth_call with explicit gas),
 * and the errors at the upper bound. Contracts are placed in the genesis.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS } from './create-node.ts'
import { testGenesis, ACCOUNTS } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LATEST } from '../primitives/block-id.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { FlashnodeError } from '../errors/errors.ts'
import type { CallRequest, NodeApi } from './api.ts'

const GWEI = 1_000_000_000n
const STORER = '0x00000000000000000000000000000000000057e1' // SSTORE(0, 1)
const GATE = '0x00000000000000000000000000000000000067a7' // reverts unless 100,000 gas are left on entry
const REVERTER = '0x000000000000000000000000000000000000dead' // REVERT(0, 0)
const EOA = '0x00000000000000000000000000000000000000e0'
const POOR = '0x0000000000000000000000000000000000000b00' // holds 25,000 gas at 1 gwei

async function node(t: TestContext): Promise<NodeApi> {
  const genesis = testGenesis() as unknown as { alloc: Record<string, { balance: string; code?: string }> }
  genesis.alloc[STORER] = { balance: '0x0', code: '0x600160005500' }
  genesis.alloc[GATE] = { balance: '0x0', code: '0x5a620186a011600a57005b600080fd' }
  genesis.alloc[REVERTER] = { balance: '0x0', code: '0x600080fd' }
  genesis.alloc[POOR] = { balance: `0x${(25_000n * GWEI).toString(16)}` }
  const n = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis: genesis as never })
  t.after(() => n.close())
  return n.api
}

const from = hexToBytes(ACCOUNTS[0]!.address)
const req = (to: string, extra: Partial<CallRequest> = {}): CallRequest => ({ from, to: hexToBytes(to), ...extra })

/** The least gas with which eth_call succeeds, by bisection over eth_call itself. */
async function leastGas(api: NodeApi, r: CallRequest): Promise<bigint> {
  const ok = (gas: bigint) => api.call({ ...r, gas }, LATEST).then(() => true, () => false)
  let lo = 20_999n
  let hi = 10_000_000n
  assert.ok(await ok(hi))
  while (lo + 1n < hi) {
    const mid = (lo + hi) / 2n
    if (await ok(mid)) hi = mid
    else lo = mid
  }
  return hi
}

test('a plain transfer to an account without code is estimated at 21000 exactly, as geth answers', async (t) => {
  const api = await node(t)
  assert.equal(await api.estimateGas(req(EOA), LATEST), 21_000n)
  assert.equal(await api.estimateGas(req(EOA, { value: 5n, maxFeePerGas: 2n * GWEI }), LATEST), 21_000n)
})

test('anything else is searched: the answer succeeds and is within geth\'s 1.5% of the least gas that does', async (t) => {
  const api = await node(t)
  const cases: [string, CallRequest][] = [
    ['data to an account without code', req(EOA, { data: new Uint8Array([1, 2, 3, 0]) })],
    ['a storage write', req(STORER)],
    ['a contract that checks the gas it is given', req(GATE)],
  ]
  for (const [what, r] of cases) {
    const estimate = await api.estimateGas(r, LATEST)
    const least = await leastGas(api, r)
    assert.ok(estimate >= least, `${what}: ${estimate} succeeds (least ${least})`)
    assert.ok(Number(estimate - least) / Number(estimate) < 0.015, `${what}: ${estimate} is within 1.5% of ${least}`)
  }
})

test('at the upper bound: too little gas is `gas required exceeds allowance (bound)`, a revert is the revert', async (t) => {
  const api = await node(t)
  await assert.rejects(api.estimateGas(req(STORER, { gas: 30_000n }), LATEST), (e: FlashnodeError) => {
    assert.equal(e.message, 'gas required exceeds allowance (30000)')
    return true
  })
  // The bound is what the sender's balance pays at its fee cap.
  await assert.rejects(api.estimateGas({ from: hexToBytes(POOR), to: hexToBytes(STORER), maxFeePerGas: GWEI }, LATEST), (e: FlashnodeError) => {
    assert.equal(e.message, 'gas required exceeds allowance (25000)')
    return true
  })
  await assert.rejects(api.estimateGas(req(REVERTER), LATEST), (e: FlashnodeError) => {
    assert.equal(e.kind, 'executionReverted')
    assert.equal(e.data, '0x')
    return true
  })
})

test('a fee cap with no balance behind it is `insufficient funds for transfer`, even with no value, as in geth', async (t) => {
  const api = await node(t)
  const nobody = { from: hexToBytes('0x0000000000000000000000000000000000000bad'), to: hexToBytes(EOA), maxFeePerGas: GWEI }
  await assert.rejects(api.estimateGas(nobody, LATEST), /^FlashnodeError: insufficient funds for transfer$/)
  assert.equal(await api.estimateGas({ ...nobody, maxFeePerGas: undefined }, LATEST), 21_000n, 'no fee cap: no balance needed')
})
