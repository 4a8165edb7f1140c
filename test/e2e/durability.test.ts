/**
 * Durability before publication, end to end: the node process is killed (SIGKILL, by a failpoint, see
 * src/primitives/failpoints.ts) right at one announcement of a pre-confirmation: a WebSocket subscription
 * message written, an eth_sendRawTransactionSync answer written, a pre-confirmed receipt answered at
 * `pending`. Restarted with manual sealing, and BEFORE any new flashblock is made, the open block must
 * already hold every announced transaction at its announced place with its announced receipt. That can only
 * come from the journal, which is replayed at start: a transaction whose journal write was lost would be back
 * in the pool (its persisted copy is deleted in the same batch), and the pool is only sequenced at the next
 * flashblock. Then a seal must keep them as announced.
 *
 * Each run: block 1 sealed with two transactions, then in block 2 a flashblock of two and, last, a flashblock
 * of a single transaction whose announcement is the one the process dies at.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { keccak256, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, DEV_CHAIN_ID } from '../support/dev-chain.ts'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'

interface Announced {
  hash: string
  blockNumber: string
  transactionIndex: string
  status: string
  gasUsed: string
  cumulativeGasUsed: string
}

// No worker threads: they play no part in announcing, and the processes start faster on a shared machine.
const ARGS = ['--accounts', '4', '--chain-id', String(DEV_CHAIN_ID), '--sealing', 'manual', '--sync-timeout', '60000', '--execution-workers', '0', '--recovery-workers', '0', '--seal-workers', '0']
const SENDERS = ACCOUNTS.map((a) => privateKeyToAccount(a.privateKey as Hex))
const FIELDS = ['blockNumber', 'transactionIndex', 'status', 'gasUsed', 'cumulativeGasUsed'] as const

const transfer = (from: number, nonce: number): Promise<Hex> =>
  SENDERS[from]!.signTransaction({
    chainId: Number(DEV_CHAIN_ID),
    type: 'eip1559',
    to: '0x00000000000000000000000000000000000000aa',
    value: 1n,
    nonce,
    gas: 21_000n,
    maxFeePerGas: parseGwei('50'),
    maxPriorityFeePerGas: parseGwei('1'),
  })

/** Block 1 sealed with two transactions; block 2 open with a flashblock of two. */
async function prelude(url: string): Promise<void> {
  await rpc(url, 'eth_sendRawTransaction', [await transfer(0, 0)])
  await rpc(url, 'eth_sendRawTransaction', [await transfer(1, 0)])
  await rpc(url, 'flashnode_flashblock')
  await rpc(url, 'evm_mine')
  await rpc(url, 'eth_sendRawTransaction', [await transfer(0, 1)])
  await rpc(url, 'eth_sendRawTransaction', [await transfer(2, 0)])
  await rpc(url, 'flashnode_flashblock')
}

/** The block hash of a pre-confirmed receipt: 32 zero bytes until its block is sealed. */
const PRECONFIRMED_HASH = `0x${'00'.repeat(32)}`

/** The last transaction: alone in its flashblock. */
const LAST = () => transfer(3, 0)

/** A request the dying node may or may not answer. */
const regardless = (p: Promise<unknown>): Promise<unknown> => p.catch(() => undefined)

async function start(t: TestContext, dir: string, failpoint?: string): Promise<NodeProcess> {
  return spawnNode(t, ['--datadir', dir, ...ARGS], failpoint === undefined ? {} : { FLASHNODE_FAILPOINT: failpoint })
}

/** Restarts on `dir` and checks the announced transactions before and after a seal. */
async function restartAndCheck(t: TestContext, dir: string, announced: Announced[]): Promise<void> {
  assert.ok(announced.length > 0)
  const node = await start(t, dir)
  const pending = await rpc<{ number: string; transactions: string[] }>(node.url, 'eth_getBlockByNumber', ['pending', false])
  for (const a of announced) {
    const receipt = await rpc<(Announced & { blockHash: string | null }) | null>(node.url, 'eth_getTransactionReceipt', [a.hash])
    assert.ok(receipt !== null, `announced ${a.hash} is known after the restart, before any flashblock`)
    for (const f of FIELDS) assert.equal(receipt[f], a[f], `${a.hash}: ${f} as announced`)
    if (a.blockNumber === pending.number) {
      assert.equal(receipt.blockHash, PRECONFIRMED_HASH, `${a.hash} is pre-confirmed in the open block, not yet sealed`)
      assert.equal(pending.transactions[Number(a.transactionIndex)], a.hash, `${a.hash} holds its place in the pending block`)
    }
  }
  await rpc(node.url, 'evm_mine')
  for (const a of announced) {
    const sealed = await rpc<Announced & { blockHash: string | null }>(node.url, 'eth_getTransactionReceipt', [a.hash])
    assert.match(sealed.blockHash ?? '', /^0x[0-9a-f]{64}$/)
    assert.notEqual(sealed.blockHash, PRECONFIRMED_HASH, `${a.hash} is sealed`)
    for (const f of FIELDS) assert.equal(sealed[f], a[f], `${a.hash}: ${f} as announced, once sealed`)
  }
  await node.stop()
}

test('killed right after a subscription message: the announced transactions are in the open block at restart', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  // Five notifications in all (two in block 1, two then one in block 2): die right after the fifth is written.
  const node = await start(t, dir, 'subscription:sent:5')
  const ws = new WebSocket(node.url.replace('http', 'ws'))
  t.after(() => ws.terminate())
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  ws.on('error', () => undefined)
  const announced: Announced[] = []
  let subscribed: (id: string) => void
  const subscription = new Promise<string>((resolve) => (subscribed = resolve))
  ws.on('message', (m) => {
    const msg = JSON.parse(String(m)) as { id?: number; result?: string; params?: { result: Announced } }
    if (msg.id === 1) subscribed(msg.result!)
    else if (msg.params !== undefined) announced.push(msg.params.result)
  })
  const closed = new Promise((resolve) => ws.once('close', resolve))
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions', true] }))
  await subscription
  await prelude(node.url)
  await rpc(node.url, 'eth_sendRawTransaction', [await LAST()])
  await regardless(rpc(node.url, 'flashnode_flashblock'))
  assert.equal(await node.exited, 'SIGKILL', `the node died at the failpoint (stderr: ${node.stderr()})`)
  await closed
  assert.equal(announced.length, 5, 'every notification written before the kill arrived')
  assert.deepEqual(announced.map((a) => a.blockNumber), ['0x1', '0x1', '0x2', '0x2', '0x2'])
  await restartAndCheck(t, dir, announced)
})

test('killed right after an eth_sendRawTransactionSync answer: its receipt is the open block\'s at restart', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const node = await start(t, dir, 'answer:sync-send:1')
  await prelude(node.url)
  const raw = await LAST()
  const answer = rpc<Announced & { transactionHash: string }>(node.url, 'eth_sendRawTransactionSync', [raw])
  answer.catch(() => undefined)
  // Wait (by asking, not sleeping) until the pool holds it, then make the flashblock it is answered from.
  while ((await rpc<{ status: string }>(node.url, 'base_transactionStatus', [keccak256(raw)])).status !== 'Known');
  await regardless(rpc(node.url, 'flashnode_flashblock'))
  const receipt = await answer
  assert.equal(await node.exited, 'SIGKILL', `the node died at the failpoint (stderr: ${node.stderr()})`)
  assert.equal(receipt.blockNumber, '0x2')
  assert.equal(receipt.transactionIndex, '0x2', 'the third transaction of block 2')
  await restartAndCheck(t, dir, [{ ...receipt, hash: receipt.transactionHash }])
})

test('killed right after a receipt answered at pending: that receipt is the open block\'s at restart', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const node = await start(t, dir, 'answer:pending-receipt:1')
  await prelude(node.url)
  const hash = await rpc<string>(node.url, 'eth_sendRawTransaction', [await LAST()])
  await rpc(node.url, 'flashnode_flashblock')
  const receipt = await rpc<Announced & { blockHash: string | null }>(node.url, 'eth_getTransactionReceipt', [hash])
  assert.equal(await node.exited, 'SIGKILL', `the node died at the failpoint (stderr: ${node.stderr()})`)
  assert.equal(receipt.blockHash, PRECONFIRMED_HASH, 'answered as pre-confirmed')
  assert.equal(receipt.transactionIndex, '0x2')
  await restartAndCheck(t, dir, [{ ...receipt, hash }])
})
