import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import type { LocatedLog, LogFilter } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { logMethods } from './logs.ts'

const ADDR = `0x${'b1'.repeat(20)}`
const TOPIC = `0x${'e6'.repeat(32)}`

test('eth_getLogs: the parsed filter reaches the node; logs come back in the geth shape', async () => {
  const log: LocatedLog = {
    log: { address: new Uint8Array(20).fill(0xb1), topics: [new Uint8Array(32).fill(0xe6)], data: new Uint8Array([1]) },
    context: { blockHash: new Uint8Array(32).fill(0xd2), preconfirmed: false, blockNumber: 0x36n, blockTimestamp: 0x21cn },
    transactionHash: new Uint8Array(32).fill(0x49),
    transactionIndex: 1,
    logIndex: 6,
  }
  const { node, calls } = fakeNode({ getLogs: async () => [log] })
  const out = (await invoke(logMethods(node), 'eth_getLogs', [{ fromBlock: '0x1', address: [ADDR], topics: [TOPIC] }])) as Record<string, unknown>[]
  const filter = calls[0]!.args[0] as LogFilter
  assert.deepEqual(filter.fromBlock, { kind: 'number', number: 1n })
  assert.equal(filter.toBlock, undefined)
  assert.deepEqual(filter.addresses.map(bytesToHex), [ADDR])
  assert.deepEqual(filter.topics.map((p) => p?.map(bytesToHex)), [[TOPIC]])
  assert.equal(out.length, 1)
  assert.equal(out[0]!.logIndex, '0x6')
  assert.equal(out[0]!.blockTimestamp, '0x21c')
  assert.equal(out[0]!.address, ADDR)
})

test('eth_getLogs: filter errors come back as invalid params', async () => {
  const m = logMethods(fakeNode().node)
  await assert.rejects(invoke(m, 'eth_getLogs', [{ topics: [1] }]), (e: unknown) => e instanceof FlashnodeError && e.message === 'invalid argument 0: invalid topic(s)')
  await assert.rejects(invoke(m, 'eth_getLogs', [{ fromBlock: '0x9', toBlock: '0x2' }]), (e: unknown) => e instanceof FlashnodeError && e.message === 'invalid block range params')
})
