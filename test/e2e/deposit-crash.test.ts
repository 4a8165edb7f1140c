/**
 * An answered deposit is a promise too: on an `--op-stack` node sealing by hand, flashnode_sendDeposit's
 * hash is answered only once the deposit is in the store, and the write that journals the block opening with
 * it takes it out of the queue. kill -9 at three places (failpoints, src/primitives/failpoints.ts): right
 * after a deposit's hash was answered, after a seal's write but before the next block opens, and after the
 * opening with the deposits was journaled but before it was announced. After each restart every answered
 * deposit is in the chain exactly once, in the order sent, and nothing is included twice.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'

const DEPOSITOR = '0x00000000000000000000000000000000000d0d0d'
const RECEIVER = '0x00000000000000000000000000000000000000bb'
const MINT = 10n ** 15n

interface Block {
  number: string
  transactions: string[]
}

const start = (t: TestContext, dir: string, failpoint?: string): Promise<NodeProcess> =>
  spawnNode(t, ['--datadir', dir, '--op-stack', '--sealing', 'manual', '--log-level', 'warn'], failpoint === undefined ? {} : { FLASHNODE_FAILPOINT: failpoint })

const sendDeposit = (node: NodeProcess, value: bigint) =>
  rpc<string>(node.url, 'flashnode_sendDeposit', [{ from: DEPOSITOR, to: RECEIVER, mint: `0x${MINT.toString(16)}`, value: `0x${value.toString(16)}`, gas: '0x30000' }])

/** Every transaction of every sealed block after genesis. */
async function sealedTransactions(node: NodeProcess): Promise<string[]> {
  const head = Number(await rpc<string>(node.url, 'eth_blockNumber'))
  const out: string[] = []
  for (let n = 1; n <= head; n++) out.push(...(await rpc<Block>(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).transactions)
  return out
}

/** After the restart: two more blocks sealed; each answered deposit is in the chain once, in order, successful. */
async function checkAfterRestart(node: NodeProcess, answered: readonly string[]): Promise<void> {
  await rpc(node.url, 'evm_mine')
  await rpc(node.url, 'evm_mine')
  const all = await sealedTransactions(node)
  const found = all.filter((h) => answered.includes(h))
  assert.deepEqual(found, answered, 'every answered deposit once, in the order sent')
  for (const h of answered) assert.equal((await rpc<{ status: string }>(node.url, 'eth_getTransactionReceipt', [h])).status, '0x1')
  assert.equal(BigInt(await rpc<string>(node.url, 'eth_getBalance', [DEPOSITOR, 'latest'])) + BigInt(await rpc<string>(node.url, 'eth_getBalance', [RECEIVER, 'latest'])), MINT * BigInt(answered.length), 'minted once each')
  assert.equal(new Set(all).size, all.length, 'no transaction twice')
}

test('kill -9 right after a deposit\'s hash was answered: the deposit is in the next block', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const node = await start(t, dir, 'answer:send-deposit:2')
  const answered = [await sendDeposit(node, 1n), await sendDeposit(node, 2n)]
  await node.exited
  await checkAfterRestart(await start(t, dir), answered)
})

test('kill -9 inside a seal, after the block is written but before the next one opens with the deposits', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const node = await start(t, dir, 'seal:after-commit:1')
  const answered = [await sendDeposit(node, 1n), await sendDeposit(node, 2n)]
  await assert.rejects(rpc(node.url, 'evm_mine'))
  await node.exited
  await checkAfterRestart(await start(t, dir), answered)
})

test('kill -9 after the opening with the deposits is journaled, before it is announced: resumed, not included twice', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  // The first opening is block 1's, at the start; the second is block 2's, with the deposits.
  const node = await start(t, dir, 'open:after-journal:2')
  const answered = [await sendDeposit(node, 1n), await sendDeposit(node, 2n)]
  await assert.rejects(rpc(node.url, 'evm_mine'))
  await node.exited
  const restarted = await start(t, dir)
  const pending = await rpc<Block>(restarted.url, 'eth_getBlockByNumber', ['pending', false])
  assert.deepEqual(pending.transactions.slice(1), answered, 'the open block resumed from the journal with the deposits')
  await checkAfterRestart(restarted, answered)
})
