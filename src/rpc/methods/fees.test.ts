import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { feeMethods } from './fees.ts'

test('price suggestions are quantities', async () => {
  const m = feeMethods(fakeNode().node)
  assert.equal(await invoke(m, 'eth_gasPrice', []), '0x3b9aca07')
  assert.equal(await invoke(m, 'eth_maxPriorityFeePerGas', []), '0x3b9aca00')
  assert.equal(await invoke(m, 'eth_blobBaseFee', []), '0x1')
})

test('eth_feeHistory: count as hex or decimal, newest block, percentiles only when non-empty', async () => {
  const { node, calls } = fakeNode({
    feeHistory: async () => ({
      oldestBlock: 0x35n,
      baseFeePerGas: [1n, 2n],
      gasUsedRatio: [0.5],
      baseFeePerBlobGas: [1n, 1n],
      blobGasUsedRatio: [0],
      reward: [[5n]],
    }),
  })
  const m = feeMethods(node)
  const out = (await invoke(m, 'eth_feeHistory', ['0x1', 'latest', [50]])) as Record<string, unknown>
  assert.deepEqual(calls[0]!.args, [1, { kind: 'tag', tag: 'latest' }, [50]])
  assert.deepEqual(out.reward, [['0x5']])
  assert.equal(out.oldestBlock, '0x35')
  await invoke(m, 'eth_feeHistory', [4, '0x36'])
  assert.deepEqual(calls[1]!.args, [4, { kind: 'number', number: 0x36n }, undefined])
  await invoke(m, 'eth_feeHistory', ['10', 'pending', []])
  assert.deepEqual(calls[2]!.args, [10, { kind: 'tag', tag: 'pending' }, undefined])
})

test('eth_feeHistory: percentile and count errors', async () => {
  const m = feeMethods(fakeNode().node)
  const rejects = (params: unknown[], message: string) =>
    assert.rejects(invoke(m, 'eth_feeHistory', params), (e: unknown) => e instanceof FlashnodeError && e.message === message)
  await rejects(['0x1', 'latest', [60, 50]], 'invalid argument 2: invalid reward percentile: #0:60.000000 >= #1:50.000000')
  await rejects(['x', 'latest'], 'invalid argument 0: invalid hex or decimal integer "x"')
  await rejects(['0x1'], 'missing value for required argument 1')
})
