import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { metaMethods } from './meta.ts'

test('identity and status encodings', async () => {
  const m = metaMethods(fakeNode().node)
  assert.equal(await invoke(m, 'eth_chainId', []), '0xc72dd9d5e883e')
  assert.equal(await invoke(m, 'net_version', []), '3503995874084926')
  assert.equal(await invoke(m, 'web3_clientVersion', []), 'flashnode/test')
  assert.equal(await invoke(m, 'eth_blockNumber', []), '0x36')
  assert.equal(await invoke(m, 'eth_syncing', []), false)
  assert.deepEqual(await invoke(m, 'eth_accounts', []), [])
})

test('argument-less methods refuse arguments as geth does', async () => {
  const m = metaMethods(fakeNode().node)
  await assert.rejects(invoke(m, 'eth_chainId', [1]), (e: unknown) => e instanceof FlashnodeError && e.message === 'too many arguments, want at most 0')
})
