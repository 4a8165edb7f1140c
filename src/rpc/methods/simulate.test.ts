import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fakeNode, invoke } from './fake-node.ts'
import { simulateMethods } from './simulate.ts'
import { RawJson } from '../transport/messages.ts'

test('eth_simulateV1 parses the payload, defaults the block to latest and formats each block', async () => {
  const { node, calls } = fakeNode()
  const out = await invoke(simulateMethods(node), 'eth_simulateV1', [{ blockStateCalls: [{}], validation: true }])
  assert.deepEqual(out, new RawJson('[]'))
  assert.equal(calls[0]!.method, 'simulateV1Json')
  const [payload, block] = calls[0]!.args as [{ validation: boolean; blockStateCalls: unknown[] }, unknown]
  assert.equal(payload.validation, true)
  assert.equal(payload.blockStateCalls.length, 1)
  assert.deepEqual(block, { kind: 'tag', tag: 'latest' })
})

test('eth_simulateV1 takes a block number, tag or hash, and wants its payload', async () => {
  const { node, calls } = fakeNode()
  await invoke(simulateMethods(node), 'eth_simulateV1', [{ blockStateCalls: [{}] }, 'pending'])
  assert.deepEqual(calls[0]!.args[1], { kind: 'tag', tag: 'pending' })
  await assert.rejects(invoke(simulateMethods(node), 'eth_simulateV1', []), /missing value for required argument 0/)
  await assert.rejects(invoke(simulateMethods(node), 'eth_simulateV1', [{}, 'soon']), /invalid argument 1/)
})
