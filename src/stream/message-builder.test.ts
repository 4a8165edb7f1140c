import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MessageBuilder, type StreamMessage } from './message-builder.ts'
import { rpc } from '../../test/support/sequencing-node.ts'
import { signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { initCode, STORE_TWO_CONSTRUCTOR } from '../../test/support/contracts.ts'
import { BlockRebuilder, checkAgainstNode, ZERO_HASH, type FlashblocksPayloadV1 } from '../../test/support/flashblocks-consumer.ts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../node/create-node.ts'
import { ManualScheduler } from '../sequencer/scheduler.ts'
import type { TestContext } from 'node:test'

/** Runtime: MSTORE 0xaa · LOG1(topic 0x77) of that word · SSTORE slot 2 = CALLVALUE + 1. */
const LOGGER_RUNTIME = '60aa600052' + '607760206000a1' + '3460010160025500'

/** A manual-sealing node whose feed a builder hears from the start, as the publisher does; messages go through JSON text. */
async function streamingNode(t: TestContext): Promise<{ node: FlashNode; wire: FlashblocksPayloadV1[] }> {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  t.after(() => node.close())
  const { wire } = listen(node)
  await node.start()
  return { node, wire }
}

function listen(node: FlashNode): { messages: StreamMessage[]; wire: FlashblocksPayloadV1[] } {
  let sequence = 100
  const builder = new MessageBuilder(() => sequence++)
  const messages: StreamMessage[] = []
  const wire: FlashblocksPayloadV1[] = []
  const keep = (m: StreamMessage) => {
    messages.push(m)
    wire.push(JSON.parse(JSON.stringify(m.payload)) as FlashblocksPayloadV1)
  }
  node.feed!.on('flashblock', (s) => keep(builder.flashblock(s)))
  node.feed!.on('sealed', (b) => keep(builder.sealed(b)))
  return { messages, wire }
}

async function send(node: FlashNode, from: number, nonce: number, fields: Parameters<typeof signedTx>[3] = {}): Promise<void> {
  await node.api.sendRawTransaction(signedTx(node, from, BigInt(nonce), fields).serialize())
}

test('a consumer written from Base\'s types rebuilds every sealed block from the messages: transactions, roots, hash, receipts, state', async (t) => {
  const { node, wire } = await streamingNode(t)
  // Block 1: deployments (code, constructor storage), transfers over two flashblocks and an empty one.
  await send(node, 0, 0, { data: initCode(STORE_TWO_CONSTRUCTOR, LOGGER_RUNTIME), gasLimit: 300_000n })
  await send(node, 1, 0, { to: '0x00000000000000000000000000000000000000aa', value: 5n, gasLimit: 21_000n })
  await node.sequencer!.flashblock()
  await node.sequencer!.flashblock()
  const logger = (await rpc(node, 'eth_getTransactionReceipt', [(await rpc(node, 'eth_getBlockByNumber', ['pending', false])).transactions[0]])).contractAddress
  await send(node, 2, 0, { to: logger, value: 3n, gasLimit: 100_000n })
  await send(node, 1, 1, { to: logger, gasLimit: 100_000n })
  await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  // Block 2: transactions only in the flashblock the seal makes; block 3: empty.
  await send(node, 3, 0, { to: logger, value: 9n, gasLimit: 100_000n })
  await node.sequencer!.seal()
  await node.sequencer!.seal()

  const rebuilder = new BlockRebuilder()
  for (const p of wire) rebuilder.push(p)
  assert.deepEqual(rebuilder.blocks.map((b) => b.number), [1n, 2n, 3n])
  assert.deepEqual(rebuilder.blocks.map((b) => b.transactions.length), [4, 1, 0])
  for (const block of rebuilder.blocks) await checkAgainstNode((m, p) => rpc(node, m, p), block)
  assert.ok(rebuilder.blocks[0]!.storage.size >= 2, 'constructor and call storage streamed')
  assert.notEqual(rebuilder.blocks[0]!.close.logs_bloom, `0x${'00'.repeat(256)}`)
  // Sequence numbers: one more per message, across blocks; previous_sequence says which came before.
  const sequences = wire.map((p) => p.metadata.sequence)
  assert.deepEqual(sequences, sequences.map((_, i) => 100 + i))
  assert.deepEqual(wire.map((p) => p.metadata.previous_sequence), [null, ...sequences.slice(0, -1)])
  // The open block's (block 4) opening is the last message: index 0, base, no roots.
  const last = wire.at(-1)!
  assert.equal(last.index, 0)
  assert.equal(last.metadata.block_number, 4)
  assert.equal(last.diff.block_hash, ZERO_HASH)
})

test('the closing message follows the last flashblock with the next index and carries what the seal itself changed', async (t) => {
  const { node, wire } = await streamingNode(t)
  await send(node, 0, 0, { to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n })
  await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  const block1 = wire.filter((p) => p.metadata.block_number === 1)
  assert.deepEqual(block1.map((p) => p.index), [0, 1, 2, 3])
  assert.deepEqual(block1.map((p) => p.diff.block_hash !== ZERO_HASH), [false, false, false, true])
  assert.deepEqual(block1.map((p) => p.diff.transactions.length), [0, 1, 0, 0])
  assert.equal(new Set(block1.map((p) => p.payload_id)).size, 1)
  // Index 0 carries the block's system operations (EIP-4788 / EIP-2935 storage) as its state changes.
  assert.ok(Object.keys(block1[0]!.metadata.state_diff.storage).length > 0, 'system operations at index 0')
  // A later message lists only what changed since the previous one.
  assert.deepEqual(Object.keys(block1[2]!.metadata.state_diff.accounts), [])
  assert.deepEqual(Object.keys(block1[1]!.metadata.receipts).length, 1)
})
