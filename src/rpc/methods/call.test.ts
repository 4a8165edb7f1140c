import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { FlashnodeError } from '../../errors/errors.ts'
import type { BlockOverrides, CallRequest, StateOverrides } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { callMethods } from './call.ts'
import { fakeNode, invoke } from './fake-node.ts'

const TO = '0x9344b07175800259691961298ca11c824e65032d'
const ADDR = '0xc000000000000000000000000000000000000000'

function recordedParams(name: string): unknown[] {
  const lines = readFileSync(new URL(`../../../../shared/rpc-compat/tests/eth_call/${name}`, import.meta.url), 'utf8').split('\n')
  return (JSON.parse(lines.find((l) => l.startsWith('>>'))!.slice(3)) as { params: unknown[] }).params
}

test('eth_call: the rpc-compat call reaches the node parsed; the result is hex data', async () => {
  const { node, calls } = fakeNode()
  const out = await invoke(callMethods(node), 'eth_call', recordedParams('call-callenv-options-eip1559.io'))
  assert.equal(out, '0xffee')
  const [req, block, state, blockOverrides] = calls[0]!.args as [CallRequest, unknown, unknown, unknown]
  assert.equal(bytesToHex(req.to!), TO)
  assert.equal(bytesToHex(req.data!), '0x333435')
  assert.equal(req.maxFeePerGas, 0x1a21398n)
  assert.deepEqual(block, { kind: 'tag', tag: 'latest' })
  assert.equal(state, undefined)
  assert.equal(blockOverrides, undefined)
})

test('eth_call: block defaults to latest; state and block overrides are forwarded', async () => {
  const { node, calls } = fakeNode()
  const m = callMethods(node)
  await invoke(m, 'eth_call', [{ to: TO }])
  assert.deepEqual(calls[0]!.args[1], { kind: 'tag', tag: 'latest' })
  await invoke(m, 'eth_call', [{ to: TO }, 'pending', { [ADDR]: { balance: '0x1' } }, { number: '0x99' }])
  const [, block, state, blockOverrides] = calls[1]!.args as [unknown, unknown, StateOverrides, BlockOverrides]
  assert.deepEqual(block, { kind: 'tag', tag: 'pending' })
  assert.equal(state.get(ADDR)?.balance, 1n)
  assert.equal(blockOverrides.number, 0x99n)
})

test('eth_call: argument errors carry their index', async () => {
  const m = callMethods(fakeNode().node)
  const rejects = (params: unknown[], message: string) =>
    assert.rejects(invoke(m, 'eth_call', params), (e: unknown) => e instanceof FlashnodeError && e.message === message)
  await rejects([{ to: TO, input: '0x01', data: '0x02' }], 'invalid argument 0: both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
  await rejects([{ to: TO }, 'latest', { [ADDR]: { state: {}, stateDiff: {} } }], `invalid argument 2: ${ADDR}: account 0xC000000000000000000000000000000000000000 has both 'state' and 'stateDiff'`)
  await rejects([{ to: TO }, 'latest', null, { beaconRoot: `0x${'00'.repeat(32)}` }], 'invalid argument 3: block override "beaconRoot" is not supported for this RPC method')
  await rejects([{ to: TO }, 'latest', null, null, null], 'too many arguments, want at most 4')
  await rejects([], 'missing value for required argument 0')
})

test('eth_estimateGas: quantity result, block default pending (the state the transaction will run on), overrides forwarded, no fourth argument', async () => {
  const { node, calls } = fakeNode()
  const m = callMethods(node)
  assert.equal(await invoke(m, 'eth_estimateGas', [{ from: ADDR, to: TO, value: '0x1' }]), '0x5208')
  assert.deepEqual(calls[0]!.args[1], { kind: 'tag', tag: 'pending' })
  await invoke(m, 'eth_estimateGas', [{ to: TO }, '0x1', { [ADDR]: { nonce: '0x2' } }])
  assert.equal((calls[1]!.args[2] as StateOverrides).get(ADDR)?.nonce, 2n)
  await assert.rejects(invoke(m, 'eth_estimateGas', [{ to: TO }, 'latest', null, {}]), /too many arguments, want at most 3/)
})

test('eth_createAccessList: formatted result; state overrides are refused until the node takes them', async () => {
  const { node, calls } = fakeNode({
    createAccessList: async () => ({ accessList: [{ address: new Uint8Array(20), storageKeys: [] }], gasUsed: 0x6000n, error: 'execution reverted' }),
  })
  const m = callMethods(node)
  assert.deepEqual(await invoke(m, 'eth_createAccessList', [{ to: TO }]), {
    accessList: [{ address: `0x${'00'.repeat(20)}`, storageKeys: [] }],
    error: 'execution reverted',
    gasUsed: '0x6000',
  })
  assert.deepEqual(calls[0]!.args[1], { kind: 'tag', tag: 'pending' }, 'block default pending, as eth_estimateGas')
  assert.ok(await invoke(m, 'eth_createAccessList', [{ to: TO }, 'latest', {}]))
  await assert.rejects(
    invoke(m, 'eth_createAccessList', [{ to: TO }, 'latest', { [ADDR]: { balance: '0x1' } }]),
    (e: unknown) => e instanceof FlashnodeError && e.message === 'invalid argument 2: state overrides are not supported by eth_createAccessList',
  )
})
