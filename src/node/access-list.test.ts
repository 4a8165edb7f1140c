/**
 * eth_createAccessList after geth's tracer, through the node's facade on a dev chain: what the opcodes
 * touch is listed, the sender, the recipient (or created address) and precompiles only as bare addresses
 * (their slots stay), entries sorted, and a revert reported as geth reports it. Contracts are placed in the
 * genesis as hand-written bytecode.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS } from './create-node.ts'
import { testGenesis, ACCOUNTS } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LATEST } from '../primitives/block-id.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { AccessListResult, CallRequest, NodeApi } from './api.ts'
import { privateKeyToAccount } from 'viem/accounts'

const COUNTER = '0x000000000000000000000000000000000000c001' // slot 0 += 1
const PROBER = '0x000000000000000000000000000000000000c002' // BALANCE(0xbb), CALL(COUNTER), STATICCALL(ecrecover), BALANCE(CALLER)
const REVERTER = '0x000000000000000000000000000000000000c003' // SLOAD(5), REVERT
const AUTH_PROBE = '0x000000000000000000000000000000000000c004' // BALANCE(ACCOUNTS[1])
const OTHER = '0x00000000000000000000000000000000000000bb'
const SENDER = ACCOUNTS[0]!.address.toLowerCase()

const word = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`
// CALL(gas, to, 0, 0, 0, 0, 0) pushed in reverse: out size, out offset, in size, in offset, value, to, gas.
const call = (op: string, to: string, withValue: boolean): string =>
  `6000600060006000${withValue ? '6000' : ''}73${to.slice(2)}5a${op}50`
const PROBER_CODE = `0x73${OTHER.slice(2)}3150${call('f1', COUNTER, true)}${call('fa', '0x0000000000000000000000000000000000000001', false)}333150`

async function node(t: TestContext): Promise<NodeApi> {
  const genesis = testGenesis() as unknown as { alloc: Record<string, { balance: string; code?: string }> }
  genesis.alloc[COUNTER] = { balance: '0x0', code: '0x60005460010160005500' }
  genesis.alloc[PROBER] = { balance: '0x0', code: PROBER_CODE }
  genesis.alloc[REVERTER] = { balance: '0x0', code: '0x6005545060006000fd' }
  genesis.alloc[AUTH_PROBE] = { balance: '0x0', code: `0x73${ACCOUNTS[1]!.address.slice(2)}3150` }
  const n = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis: genesis as never })
  t.after(() => n.close())
  return n.api
}

const req = (to: string | null, extra: Partial<CallRequest> = {}): CallRequest => ({
  from: hexToBytes(SENDER),
  to: to === null ? null : hexToBytes(to),
  ...extra,
})
const shown = (r: AccessListResult) => r.accessList.map((e) => [bytesToHex(e.address), e.storageKeys.map(bytesToHex)])

test('the called contract\'s own slots stay in the list: only the bare recipient is left out', async (t) => {
  const api = await node(t)
  const r = await api.createAccessList(req(COUNTER), LATEST)
  assert.deepEqual(shown(r), [[COUNTER, [word(0)]]])
  assert.equal(r.error, undefined)
})

test('addresses touched by BALANCE and calls are listed, with a called contract\'s slots; precompiles and the sender are not', async (t) => {
  const api = await node(t)
  const r = await api.createAccessList(req(PROBER), LATEST)
  assert.deepEqual(shown(r), [[OTHER, []], [COUNTER, [word(0)]]], 'sorted by address; no ecrecover (0x01), no sender, no bare PROBER')
})

test('a given list is kept (an entry for an excluded address is dropped), and the result is sorted', async (t) => {
  const api = await node(t)
  const given = [
    { address: hexToBytes('0x00000000000000000000000000000000000000ff'), storageKeys: [hexToBytes(word(9)), hexToBytes(word(2))] },
    { address: hexToBytes(SENDER), storageKeys: [hexToBytes(word(1))] },
  ]
  const r = await api.createAccessList(req(COUNTER, { accessList: given }), LATEST)
  assert.deepEqual(shown(r), [
    ['0x00000000000000000000000000000000000000ff', [word(2), word(9)]],
    [COUNTER, [word(0)]],
  ])
})

test('a creation: the address it creates is left out as a bare address, the slots its init code writes stay', async (t) => {
  const api = await node(t)
  // init code: BALANCE(ADDRESS), nothing else
  assert.deepEqual(shown(await api.createAccessList(req(null, { data: hexToBytes('0x303150') }), LATEST)), [])
  // init code: BALANCE(ADDRESS), SSTORE(1, 7)
  const r = await api.createAccessList(req(null, { data: hexToBytes('0x303150600760015500') }), LATEST)
  assert.equal(r.accessList.length, 1)
  assert.deepEqual(r.accessList[0]!.storageKeys.map(bytesToHex), [word(1)])
  assert.notEqual(bytesToHex(r.accessList[0]!.address), SENDER)
})

test('a revert still answers the list, with geth\'s plain `execution reverted`', async (t) => {
  const api = await node(t)
  const r = await api.createAccessList(req(REVERTER), LATEST)
  assert.deepEqual(shown(r), [[REVERTER, [word(5)]]])
  assert.equal(r.error, 'execution reverted')
})

test('the authority of an authorization is left out as a bare address; an unusable authorization\'s is not', async (t) => {
  const api = await node(t)
  const authority = privateKeyToAccount(ACCOUNTS[1]!.privateKey as `0x${string}`)
  const authorization = async (chainId: number) => {
    const a = await authority.signAuthorization({ chainId, address: COUNTER, nonce: 0 })
    return { chainId: BigInt(a.chainId), address: hexToBytes(a.address), nonce: BigInt(a.nonce), yParity: BigInt(a.yParity ?? 0), r: BigInt(a.r), s: BigInt(a.s) }
  }
  const valid = await api.createAccessList(req(AUTH_PROBE, { authorizationList: [await authorization(31337)] }), LATEST)
  assert.deepEqual(shown(valid), [])
  const otherChain = await api.createAccessList(req(AUTH_PROBE, { authorizationList: [await authorization(5)] }), LATEST)
  assert.deepEqual(shown(otherChain), [[authority.address.toLowerCase(), []]])
})
