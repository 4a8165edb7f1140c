/**
 * Storage written by constructors, read back from the archive through viem: eth_getStorageAt and an eth_call
 * getter at `latest`, at the deployment block's number and at later numbers (none before it). Also the archive
 * reader's wipe-and-write ordering: a contract self-destructed and re-created at one address within one block
 * (CREATE2) reads what the re-creation wrote, and nothing of what came before the wipe, whether the earlier
 * storage was written in the same transaction (Prague, EIP-6780) or by an earlier block (Shanghai).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, http, numberToHex, pad, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../support/dev-chain.ts'
import {
  FACTORY_RUNTIME,
  GETTER_RUNTIME,
  MARKER_INIT,
  STORE_TWO_CONSTRUCTOR,
  create2Address,
  factoryCall,
  initCode,
  slotCall,
} from '../support/contracts.ts'
import { genesisWith } from '../support/genesis.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const FACTORY = '0x00000000000000000000000000000000000fac70' as const
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
const word = (n: bigint): Hex => pad(numberToHex(n), { size: 32 })

async function chainNode(t: TestContext, shanghai = false) {
  const running = await startNode(t, tempDir(t), genesisWith({ code: { [FACTORY]: FACTORY_RUNTIME }, shanghai }), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  await running.node.start()
  const chain = VIEM_DEV_CHAIN
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const w = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex), chain, transport: http(running.url, { retryCount: 0 }) })
  const mine = () => pub.request({ method: 'evm_mine' as never })
  return { pub, w, mine }
}

type At = { blockNumber: bigint } | { blockTag: 'latest' | 'pending' }

/** A slot read twice: eth_getStorageAt, and the contract's own getter through eth_call. */
async function slot(pub: PublicClient, address: Hex, n: bigint, at: At): Promise<{ storage: Hex | undefined; call: Hex | undefined }> {
  return {
    storage: await pub.getStorageAt({ address, slot: word(n), ...at }),
    call: (await pub.call({ to: address, data: slotCall(n), ...at })).data,
  }
}

const holds = (value: bigint) => ({ storage: word(value), call: word(value) })

test('storage written by a constructor reads back at latest, at the deployment block and after it, not before', async (t) => {
  const { pub, w, mine } = await chainNode(t)
  await w.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })
  await mine() // block 1: before the deployment
  const deploy = await w.sendTransaction({ data: initCode(STORE_TWO_CONSTRUCTOR, GETTER_RUNTIME), gas: 200_000n })
  await pub.request({ method: 'flashnode_flashblock' as never })
  const address = (await pub.getTransactionReceipt({ hash: deploy })).contractAddress!
  assert.deepEqual(await slot(pub, address, 0n, { blockTag: 'pending' }), holds(0x2an), 'pre-confirmed')
  await mine() // block 2: the deployment
  const deployedIn = (await pub.getTransactionReceipt({ hash: deploy })).blockNumber
  assert.equal(deployedIn, 2n)
  await w.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })
  await mine() // block 3
  await mine() // block 4, empty

  for (const at of [{ blockTag: 'latest' }, { blockNumber: deployedIn }, { blockNumber: deployedIn + 1n }, { blockNumber: 4n }] as At[]) {
    assert.deepEqual(await slot(pub, address, 0n, at), holds(0x2an), `slot 0 at ${JSON.stringify(at, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`)
    assert.deepEqual(await slot(pub, address, 1n, at), holds(7n), 'slot 1')
    assert.deepEqual(await slot(pub, address, 2n, at), holds(0n), 'a slot the constructor did not write')
  }
  assert.equal(await pub.getStorageAt({ address, slot: word(0n), blockNumber: deployedIn - 1n }), word(0n), 'nothing before the deployment')
  assert.equal((await pub.call({ to: address, data: slotCall(0n), blockNumber: deployedIn - 1n })).data, undefined, 'no code before the deployment')
})

test('created, self-destructed and re-created at one address within one block (EIP-6780): the re-creation\'s storage reads back', async (t) => {
  const { pub, w, mine } = await chainNode(t)
  const address = create2Address(FACTORY, 1n, MARKER_INIT)
  // Value 0: the constructor writes slot 0, then self-destructs in its own creating transaction. Value 3: it
  // writes slot 3 and stays. Both in block 1, at the same address.
  const destroyed = await w.sendTransaction({ to: FACTORY, data: factoryCall(1n, MARKER_INIT), gas: 300_000n })
  const recreated = await w.sendTransaction({ to: FACTORY, data: factoryCall(1n, MARKER_INIT), value: 3n, gas: 300_000n })
  await mine()
  for (const hash of [destroyed, recreated]) assert.equal((await pub.getTransactionReceipt({ hash })).blockNumber, 1n)
  await mine() // block 2, empty

  for (const at of [{ blockNumber: 1n }, { blockNumber: 2n }, { blockTag: 'latest' }] as At[]) {
    assert.deepEqual(await slot(pub, address, 3n, at), holds(0x2an), 'written after the wipe, in the same block')
    assert.deepEqual(await slot(pub, address, 0n, at), holds(0n), 'written before the wipe')
    assert.equal(await pub.getBalance({ address, ...at }), 3n)
    assert.equal(await pub.getCode({ address, ...at }), `0x${GETTER_RUNTIME}`)
  }
  assert.equal(await pub.getCode({ address, blockNumber: 0n }), undefined)
})

test('self-destructed and re-created within one block on Shanghai: storage from earlier blocks is gone, the new storage reads back', async (t) => {
  const { pub, w, mine } = await chainNode(t, true)
  const address = create2Address(FACTORY, 2n, MARKER_INIT)
  await w.sendTransaction({ to: FACTORY, data: factoryCall(2n, MARKER_INIT), value: 5n, gas: 300_000n })
  await mine() // block 1: created with slot 5
  const destruct = await w.sendTransaction({ to: address, gas: 100_000n }) // no calldata: SELFDESTRUCT
  const recreate = await w.sendTransaction({ to: FACTORY, data: factoryCall(2n, MARKER_INIT), value: 6n, gas: 300_000n })
  await mine() // block 2: destroyed (with its storage), then created again with slot 6
  for (const hash of [destruct, recreate]) {
    const r = await pub.getTransactionReceipt({ hash })
    assert.equal(r.blockNumber, 2n)
    assert.equal(r.status, 'success')
  }
  await mine() // block 3, empty

  assert.deepEqual(await slot(pub, address, 5n, { blockNumber: 1n }), holds(0x2an))
  assert.deepEqual(await slot(pub, address, 6n, { blockNumber: 1n }), holds(0n))
  assert.equal(await pub.getBalance({ address, blockNumber: 1n }), 5n)
  for (const at of [{ blockNumber: 2n }, { blockNumber: 3n }, { blockTag: 'latest' }] as At[]) {
    assert.deepEqual(await slot(pub, address, 5n, at), holds(0n), 'written in block 1, wiped in block 2')
    assert.deepEqual(await slot(pub, address, 6n, at), holds(0x2an), 'written by the re-creation')
    assert.equal(await pub.getBalance({ address, ...at }), 6n)
  }
})
