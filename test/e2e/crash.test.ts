/**
 * A pre-confirmation is a promise: kill -9 the node under load, between flashblocks and inside a seal,
 * restart it, and every transaction that was ever reported pre-confirmed must be in the chain, in the
 * reported order, with the reported receipt.
 *
 * The node runs as a real process with fast flashblocks; crashes inside a seal are placed with failpoints
 * (FLASHNODE_FAILPOINT, see src/primitives/failpoints.ts), the crash between flashblocks by a plain kill -9
 * from the test. Load is bounded (at most 600 transactions, 20 s per run).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { rpc, spawnNode } from '../support/node-process.ts'
import { LOAD_NODE_ARGS, sendTransfersUntilDeath } from '../support/transfer-load.ts'
import { tempDir } from '../support/temp-dir.ts'

interface Reported {
  hash: string
  blockNumber: string
  transactionIndex: string
  status: string
  gasUsed: string
  cumulativeGasUsed: string
}

const BOUNDS = { maxTxs: 600, runMs: 20_000 }

async function loadUntilDeath(url: string, reported: Reported[], killAfterFlashblocks?: () => void): Promise<void> {
  const ws = new WebSocket(url.replace('http', 'ws'))
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  ws.on('error', () => undefined)
  let flashblocks = 0
  ws.on('message', (m) => {
    const msg = JSON.parse(String(m)) as { params?: { result: Reported } }
    if (msg.params !== undefined) {
      reported.push(msg.params.result)
      flashblocks++
      if (flashblocks === 40) killAfterFlashblocks?.()
    }
  })
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions', true] }))
  await sendTransfersUntilDeath(url, BOUNDS)
  ws.terminate()
}

async function crashAndCheck(t: import('node:test').TestContext, env: Record<string, string>, killFromTest: boolean): Promise<void> {
  const dir = tempDir(t)
  const args = ['--datadir', dir, ...LOAD_NODE_ARGS]
  const first = await spawnNode(t, [...args, '--flashblock-interval', '25', '--flashblocks-per-block', '4'], env)
  const reported: Reported[] = []
  await loadUntilDeath(first.url, reported, killFromTest ? () => void first.kill9() : undefined)
  if (killFromTest) await first.kill9()
  assert.equal(await first.exited, 'SIGKILL', `the node died by SIGKILL (stderr: ${first.stderr()})`)
  assert.ok(reported.length > 0, 'transactions were reported pre-confirmed before the crash')

  const second = await spawnNode(t, [...args, '--sealing', 'manual'])
  await rpc(second.url, 'evm_mine')
  for (const r of reported) {
    const receipt = await rpc<Reported & { blockHash: string }>(second.url, 'eth_getTransactionReceipt', [r.hash])
    assert.ok(receipt !== null, `reported transaction ${r.hash} is in the chain`)
    assert.notEqual(receipt.blockHash, `0x${'00'.repeat(32)}`, `${r.hash} is sealed`)
    for (const field of ['blockNumber', 'transactionIndex', 'status', 'gasUsed', 'cumulativeGasUsed'] as const) {
      assert.equal(receipt[field], r[field], `${r.hash}: ${field} as reported`)
    }
  }
  await second.stop()
}

test('kill -9 between flashblocks: everything reported pre-confirmed survives, in order, with its receipt', { timeout: 120_000 }, async (t) => {
  await crashAndCheck(t, {}, true)
})

test('kill -9 after a flashblock is journaled but before it is published', { timeout: 120_000 }, async (t) => {
  await crashAndCheck(t, { FLASHNODE_FAILPOINT: 'flashblock:after-journal:30' }, false)
})

test('kill -9 inside a seal, before the block is written', { timeout: 120_000 }, async (t) => {
  await crashAndCheck(t, { FLASHNODE_FAILPOINT: 'seal:before-commit:5' }, false)
})

test('kill -9 inside a seal, after the block is written but before the next one opens', { timeout: 120_000 }, async (t) => {
  await crashAndCheck(t, { FLASHNODE_FAILPOINT: 'seal:after-commit:5' }, false)
})
