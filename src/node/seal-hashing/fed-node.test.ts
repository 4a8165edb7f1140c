/**
 * A sequencing node with its seal-hashing worker (`sealHashingWorker`: its blocks fed to the worker as they
 * grow), through its public interface: viem sends 600 transfers over HTTP, flashblocks build them, evm_mine
 * seals; the sealed block's transactions root is the library trie's (@ethereumjs/mpt) of the bytes sent, and
 * another node imports the block's raw bytes (debug_getRawBlock), checking every root on its own path.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createPublicClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { servedManualNode } from '../../../test/support/sequencing-node.ts'
import { ACCOUNTS, DEV_CHAIN_ID, devNode } from '../../../test/support/dev-chain.ts'
import { hexToBytes } from '../../primitives/hex.ts'

const COUNT = 600

test('a block fed to the seal-hashing worker while it is built has the roots of its transactions and receipts', async (t) => {
  const { url } = await servedManualNode(t, {}, { sealHashingWorker: true })
  const client = createPublicClient({ transport: http(url) })
  const signer = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const raws: Hex[] = []
  for (let nonce = 0; nonce < COUNT; nonce++) {
    raws.push(await signer.signTransaction({ type: 'eip1559', chainId: Number(DEV_CHAIN_ID), nonce, to: ACCOUNTS[1]!.address as Hex, value: BigInt(nonce + 1), gas: 21_000n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }))
  }
  // Two blocks: the first starts the worker (a block large enough), the second is fed to it from its start.
  for (const half of [raws.slice(0, COUNT / 2), raws.slice(COUNT / 2)]) {
    for (const raw of half) await client.sendRawTransaction({ serializedTransaction: raw })
    for (let i = 0; i < 3; i++) await client.request({ method: 'flashnode_flashblock' as never, params: [] as never })
    await client.request({ method: 'evm_mine' as never, params: [] as never })
  }
  const importer = await devNode(t)
  for (const [n, half] of [raws.slice(0, COUNT / 2), raws.slice(COUNT / 2)].entries()) {
    const block = await client.getBlock({ blockNumber: BigInt(n + 1) })
    assert.equal(block.transactions.length, COUNT / 2)
    const trie = new MerklePatriciaTrie()
    for (const [i, raw] of half.entries()) await trie.put(RLP.encode(i), hexToBytes(raw))
    assert.equal(block.transactionsRoot, `0x${Buffer.from(trie.root()).toString('hex')}`, `block ${n + 1}'s transactions root`)
    const rlp = await client.request({ method: 'debug_getRawBlock' as never, params: [`0x${(n + 1).toString(16)}`] as never }) as Hex
    assert.equal((await importer.writer.importRlp(hexToBytes(rlp))).imported, 1, `block ${n + 1} imports (its receipts root checks out)`)
  }
})
