import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { metaMethods } from './meta.ts'
import { NO_BLOCK_BUILDER, nodeInfo } from '../../node/node-info.ts'
import { keccak256, stringToHex, toHex } from 'viem'

test('identity and status encodings', async () => {
  const m = metaMethods(fakeNode().node, NO_BLOCK_BUILDER)
  assert.equal(await invoke(m, 'eth_chainId', []), '0xc72dd9d5e883e')
  assert.equal(await invoke(m, 'net_version', []), '3503995874084926')
  assert.equal(await invoke(m, 'web3_clientVersion', []), 'flashnode/test')
  assert.equal(await invoke(m, 'eth_blockNumber', []), '0x36')
  assert.equal(await invoke(m, 'eth_syncing', []), false)
  assert.deepEqual(await invoke(m, 'eth_accounts', []), [])
})

test('argument-less methods refuse arguments as geth does', async () => {
  const m = metaMethods(fakeNode().node, NO_BLOCK_BUILDER)
  await assert.rejects(invoke(m, 'eth_chainId', [1]), (e: unknown) => e instanceof FlashnodeError && e.message === 'too many arguments, want at most 0')
})

test('the small methods clients probe: net_listening, net_peerCount, web3_sha3', async () => {
  const m = metaMethods(fakeNode().node, NO_BLOCK_BUILDER)
  assert.equal(await invoke(m, 'net_listening', []), true)
  assert.equal(await invoke(m, 'net_peerCount', []), '0x0')
  const text = stringToHex('hello flashblocks')
  assert.equal(await invoke(m, 'web3_sha3', [text]), keccak256(text))
  assert.equal(await invoke(m, 'web3_sha3', ['0x']), keccak256('0x'))
  await assert.rejects(invoke(m, 'web3_sha3', []), /missing value for required argument 0/)
})

test('eth_coinbase: the fee recipient of a node that builds blocks, geth\'s error on one that builds none', async () => {
  const recipient = Uint8Array.from({ length: 20 }, (_, i) => i + 1)
  assert.equal(await invoke(metaMethods(fakeNode().node, nodeInfo(recipient)), 'eth_coinbase', []), toHex(recipient))
  await assert.rejects(
    invoke(metaMethods(fakeNode().node, NO_BLOCK_BUILDER), 'eth_coinbase', []),
    (e: unknown) => e instanceof FlashnodeError && e.message === 'etherbase must be explicitly specified',
  )
})
