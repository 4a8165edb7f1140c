/**
 * eth_sendRawTransactionSync waits at most the node's configured maximum: a timeout asked above it gives up at
 * the maximum (error 4, the transaction hash as data, still in the pool), one below it is honoured. The node
 * seals manually, so nothing is pre-confirmed and every wait runs out; the maximum is small (300 ms), so no
 * test waits long, and the client gives up after 20 s rather than waiting out a wrong timeout.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, DEV_CHAIN_ID, testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const MAX_MS = 300

interface RpcError {
  code: number
  message: string
  data?: unknown
}

test('eth_sendRawTransactionSync with a timeout above the configured maximum gives up at the maximum', { timeout: 60_000 }, async (t) => {
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()), syncTimeoutMs: MAX_MS },
  })
  await running.node.start()
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const sign = (nonce: number) =>
    account.signTransaction({ chainId: Number(DEV_CHAIN_ID), type: 'eip1559', to: '0x00000000000000000000000000000000000000aa', value: 1n, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const call = async (method: string, params: unknown[]): Promise<{ result?: unknown; error?: RpcError; ms: number }> => {
    const started = performance.now()
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(20_000),
    })
    const body = (await res.json()) as { result?: unknown; error?: RpcError }
    return { ...body, ms: performance.now() - started }
  }
  const timedOut = (wait: number) => `The transaction was added to the mempool but wasn't processed in ${wait}ms.`

  const above = await sign(0)
  const capped = await call('eth_sendRawTransactionSync', [above, 600_000])
  assert.deepEqual(capped.error, { code: 4, message: timedOut(MAX_MS), data: keccak256(above) }, 'the wait is the maximum, not the 600 s asked')
  assert.ok(capped.ms >= MAX_MS - 5, `it waited the maximum (${capped.ms.toFixed(0)} ms)`)
  assert.deepEqual((await call('base_transactionStatus', [keccak256(above)])).result, { status: 'Known' }, 'the transaction stays in the pool')

  const hexAbove = await sign(1)
  const cappedHex = await call('eth_sendRawTransactionSync', [hexAbove, '0x927c0'])
  assert.equal(cappedHex.error?.message, timedOut(MAX_MS), 'a hex quantity above the maximum is capped too')

  const below = await sign(2)
  const shorter = await call('eth_sendRawTransactionSync', [below, 100])
  assert.equal(shorter.error?.message, timedOut(100), 'a timeout below the maximum is honoured')

  const none = await sign(3)
  assert.equal((await call('eth_sendRawTransactionSync', [none])).error?.message, timedOut(MAX_MS), 'no timeout: the maximum')
})
