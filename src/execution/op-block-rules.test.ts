/**
 * Canyon's irregular state change through the block builder and import: op-geth sets the create2Deployer's code
 * (consensus/misc/create2deployer.go EnsureCreate2Deployer) only in the block whose timestamp is Canyon's
 * activation time, before its transactions, keeping the account's balance and nonce. A chain with Canyon after
 * genesis (test/support/op-chain.ts's OP dev chain, Canyon at block 2's time): block 1 has no code there,
 * block 2 sets it, block 3 leaves it; another node importing the same blocks reaches the same state root.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { nextBlockEnv, openOnHead } from '../../test/support/dev-chain.ts'
import { opGenesis, opNode } from '../../test/support/op-chain.ts'
import { CREATE2_DEPLOYER_ADDRESS, CREATE2_DEPLOYER_CODE } from '../opstack/create2-deployer.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import type { GethGenesis } from './chain-config.ts'

const DEPLOYER = hexToBytes(CREATE2_DEPLOYER_ADDRESS.toLowerCase())

test('Canyon: the block at Canyon\'s time sets the create2Deployer\'s code (balance and nonce kept); no other block does; import agrees', async (t) => {
  const genesis = opGenesis({ bedrockBlock: 0, regolithTime: 0, canyonTime: 4 }) as unknown as { alloc: Record<string, unknown>; timestamp?: string }
  // An account already at the address (as on Base mainnet, whose nonce a deposit had bumped): only its code changes.
  genesis.alloc[CREATE2_DEPLOYER_ADDRESS] = { balance: '0x7', nonce: '0x3' }
  const node = await opNode(t, genesis as unknown as GethGenesis)
  assert.equal(node.chain.header(0n)!.timestamp, 0n)
  const blocks: Uint8Array[] = []
  for (const expected of [0, CREATE2_DEPLOYER_CODE.length, CREATE2_DEPLOYER_CODE.length]) {
    const block = await openOnHead(node, nextBlockEnv(node))
    const sealed = await block.seal()
    node.writer.commit(sealed)
    blocks.push(sealed.stored.blockRlp)
    const code = await node.api.getCode(DEPLOYER, LATEST)
    assert.equal(code.length, expected, `block ${sealed.stored.number} at time ${node.chain.header(sealed.stored.number)!.timestamp}`)
  }
  assert.deepEqual(await node.api.getCode(DEPLOYER, LATEST), CREATE2_DEPLOYER_CODE)
  assert.equal(await node.api.getBalance(DEPLOYER, LATEST), 7n)
  assert.equal(await node.api.getTransactionCount(DEPLOYER, LATEST), 3n)

  const other = await opNode(t, genesis as unknown as GethGenesis)
  for (const bytes of blocks) assert.equal((await other.writer.importRlp(bytes)).imported, 1)
  assert.deepEqual(await other.api.getCode(DEPLOYER, LATEST), CREATE2_DEPLOYER_CODE)
})
