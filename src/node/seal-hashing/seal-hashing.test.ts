import assert from 'node:assert/strict'
import { test } from 'node:test'
import { orderedTrieRoot } from '../../execution/ordered-trie.ts'
import { bytesToHex, hexToBytes } from '../../primitives/hex.ts'
import { ACCOUNTS, devNode, nextBlockEnv, openOnHead, signedTx } from '../../../test/support/dev-chain.ts'
import { holoceneExtraData, ISTHMUS_AT_GENESIS, isthmusL1Info, l1InfoDeposit, opGenesis, opNode, userDeposit } from '../../../test/support/op-chain.ts'
import type { ExecutedBlock } from '../../execution/block-runner.ts'
import { packLists, unpackLists } from './lists-wire.ts'
import { SealHashing, WORKER_FROM_ITEMS } from './seal-hashing.ts'

/** Values of varied lengths (0 to 300 bytes), deterministic. */
function values(count: number, seed: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => Uint8Array.from({ length: (i * 37 + seed) % 301 }, (_, j) => (i * 7 + j * 13 + seed) & 0xff))
}

test('lists cross in one buffer and read back equal, empty lists and empty values included', () => {
  const lists = [values(5, 1), [], [new Uint8Array()], values(300, 2)]
  assert.deepEqual(unpackLists(packLists(lists)), lists)
})

test('the worker answers each list\'s ordered-trie root, as computed on this thread', async (t) => {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  hashing.start()
  await hashing.whenReady()
  const lists = [values(0, 0), values(1, 3), values(17, 4), values(1_000, 5)]
  const [first, second] = await Promise.all([hashing.roots(lists), hashing.roots(lists.slice(2))])
  assert.deepEqual(first.map(bytesToHex), lists.map((l) => bytesToHex(orderedTrieRoot(l))))
  assert.deepEqual(second.map(bytesToHex), first.slice(2).map(bytesToHex))
  await hashing.close()
  assert.deepEqual((await hashing.roots(lists)).map(bytesToHex), first.map(bytesToHex), 'closed: computed here, the same')
})

test('a block sealed with its roots hashed on the worker is the block sealed on the main thread', async (t) => {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  hashing.start()
  await hashing.whenReady()
  const sealedHashes: string[] = []
  for (const options of [{}, { orderedRoots: hashing.roots }]) {
    const node = await devNode(t)
    const block = await openOnHead(node, undefined, options)
    for (let nonce = 0n; nonce < 40n; nonce++) {
      const tx = signedTx(node, 0, nonce, { to: ACCOUNTS[1]!.address, value: nonce + 1n, gasLimit: 21_000n })
      await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
    }
    const sealed = await block.seal()
    node.writer.commit(sealed)
    sealedHashes.push(bytesToHex(sealed.stored.hash))
  }
  assert.equal(sealedHashes[1], sealedHashes[0])
})

test('the worker starts with the first block large enough to pay for it, not before', async (t) => {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  const small = [values(WORKER_FROM_ITEMS / 2 - 1, 6), values(WORKER_FROM_ITEMS / 2, 7)]
  assert.deepEqual((await hashing.roots(small)).map(bytesToHex), small.map((l) => bytesToHex(orderedTrieRoot(l))))
  assert.equal(hashing.running, false)
  const large = [values(WORKER_FROM_ITEMS / 2, 8), values(WORKER_FROM_ITEMS / 2, 9)]
  assert.deepEqual((await hashing.roots(large)).map(bytesToHex), large.map((l) => bytesToHex(orderedTrieRoot(l))), 'computed here while the worker loads')
  assert.equal(hashing.running, true)
  await hashing.whenReady()
  assert.deepEqual((await hashing.roots(large)).map(bytesToHex), large.map((l) => bytesToHex(orderedTrieRoot(l))))
})

test('an OP Stack block fed to the worker (deposits first, a refused one among them) seals as hashed on the main thread, and imports elsewhere', async (t) => {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  hashing.start()
  await hashing.whenReady()
  const FEES = { baseFee: 30_000_000_000n, blobBaseFee: 2_000_000_000n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 0n, operatorFeeConstant: 0n }
  const plain = { isSystemTx: false, data: new Uint8Array(0) }
  const alice = hexToBytes('0x00000000000000000000000000000000000a11ce')
  // Made once: each user deposit has a source hash of its own.
  const deposits = [
    l1InfoDeposit(isthmusL1Info(FEES)),
    userDeposit({ from: alice, to: hexToBytes(ACCOUNTS[2]!.address), mint: 10n ** 18n, value: 1n, gas: 100_000n, ...plain }),
    userDeposit({ from: alice, to: hexToBytes(ACCOUNTS[2]!.address), mint: 1n, value: 10n ** 30n, gas: 60_000n, ...plain }),
  ]
  const sealed: ExecutedBlock[] = []
  for (const options of [{ rootsFeed: hashing.feed }, {}]) {
    const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
    const block = await openOnHead(node, { ...nextBlockEnv(node), extraData: holoceneExtraData(250, 6) }, options)
    const [, , refused] = deposits.map((d) => block.addDeposit(d))
    assert.equal(refused!.failed, true)
    for (let nonce = 0n; nonce < 400n; nonce++) {
      const tx = signedTx(node, 0, nonce, { to: ACCOUNTS[1]!.address, value: nonce + 1n, gasLimit: 21_000n })
      await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
    }
    const executed = await block.seal()
    node.writer.commit(executed)
    sealed.push(executed)
  }
  assert.deepEqual(hashing.answered, { fed: 1, whole: 0, here: 0 })
  assert.equal(bytesToHex(sealed[0]!.stored.hash), bytesToHex(sealed[1]!.stored.hash))
  const other = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  assert.equal((await other.writer.importRlp(sealed[0]!.stored.blockRlp)).imported, 1, 'its roots check out on import')
})
