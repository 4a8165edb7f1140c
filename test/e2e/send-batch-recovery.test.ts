/**
 * eth_sendRawTransaction through the sender-recovery worker, over HTTP: a JSON-RPC batch of sends arrives in one
 * turn of the event loop, so its transactions are recovered together (one message to the worker); each item must
 * still get its own answer: the good ones their hashes (keccak of the bytes, computed by viem), a malformed or
 * badly signed one and a stale nonce each their own error, the same error as when sent alone; and the pool holds
 * the good ones in nonce order.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256, parseGwei, serializeTransaction, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, DEV_CHAIN_ID, testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const RECEIVER = '0x00000000000000000000000000000000000000aa' as const

interface Answer {
  id: number
  result?: Hex
  error?: { code: number; message: string }
}

async function rpc(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  assert.equal(res.status, 200)
  return res.json()
}

const send = (id: number, raw: Hex) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })

async function transfer(from: number, nonce: number, value = 1n): Promise<Hex> {
  return privateKeyToAccount(ACCOUNTS[from]!.privateKey as Hex).signTransaction({
    chainId: Number(DEV_CHAIN_ID),
    type: 'eip1559',
    nonce,
    to: RECEIVER,
    value,
    gas: 21_000n,
    maxFeePerGas: parseGwei('20'),
    maxPriorityFeePerGas: parseGwei('1'),
  })
}

/** `raw` with its signature's s above half the curve order (EIP-2 refuses it); viem's s is the last 32 bytes. */
function withHighS(raw: Hex): Hex {
  return `${raw.slice(0, -64)}ff${raw.slice(-62)}` as Hex
}

test('a batch of sends recovered together: each item gets its own hash or its own error, as if sent alone', { timeout: 60_000 }, async (t) => {
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, tempDir(t), testGenesis(), {
    recoveryWorkers: 1,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblocksPerBlock: 10 },
  })
  await running.node.start()
  const url = running.url

  // The first submission starts the worker; once it answers flashnode_memory it has loaded and takes work.
  const first = await transfer(0, 0)
  assert.deepEqual(await rpc(url, send(1, first)), { jsonrpc: '2.0', id: 1, result: keccak256(first) })
  clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs) // pre-confirms it: its nonce is now taken in state
  await running.node.sequencer!.idle()
  const deadline = Date.now() + 30_000
  for (;;) {
    const memory = (await rpc(url, { jsonrpc: '2.0', id: 2, method: 'flashnode_memory', params: [] })) as { result: { threads: { thread: string }[] } }
    if (memory.result.threads.some((th) => th.thread.startsWith('recovery#'))) break
    assert.ok(Date.now() < deadline, 'the recovery worker did not load within 30 s')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  const good = [await transfer(1, 0, 11n), await transfer(1, 1, 12n), await transfer(2, 0, 13n), await transfer(1, 2, 14n)]
  const malformed = '0x02c001' as Hex
  const highS = withHighS(await transfer(3, 0))
  const stale = await transfer(0, 0, 99n) // account 0's nonce 0 is taken by `first`, pre-confirmed
  assert.notEqual(keccak256(stale), keccak256(first))
  // An unsigned-looking type-2 body: a valid transaction's fields with the signature cut off.
  const unsigned = serializeTransaction({ chainId: Number(DEV_CHAIN_ID), type: 'eip1559', nonce: 0, to: RECEIVER, value: 1n, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })

  const items: Hex[] = [good[0]!, malformed, good[1]!, highS, good[2]!, stale, unsigned, good[3]!]
  const answers = ((await rpc(url, items.map((raw, i) => send(100 + i, raw)))) as Answer[]).sort((a, b) => a.id - b.id)
  assert.deepEqual(answers.map((a) => a.id), items.map((_, i) => 100 + i))

  for (const [i, raw] of items.entries()) {
    const answer = answers[i]!
    if (good.includes(raw)) {
      assert.deepEqual(answer, { jsonrpc: '2.0', id: 100 + i, result: keccak256(raw) }, `item ${i}`)
      continue
    }
    assert.ok(answer.error !== undefined && answer.result === undefined, `item ${i} must fail: ${JSON.stringify(answer)}`)
  }
  assert.deepEqual(answers[1]!.error, { code: -32602, message: 'failed to decode signed transaction' })
  assert.deepEqual(answers[6]!.error, { code: -32602, message: 'failed to decode signed transaction' })
  assert.equal(answers[3]!.error!.code, -32000)
  assert.match(answers[3]!.error!.message, /invalid transaction v, r, s values/)
  assert.match(answers[5]!.error!.message, /^nonce too low/)
  assert.equal(answers[5]!.error!.code, -32000)

  // Each refused one, sent alone now, gets the error it got in the batch.
  for (const i of [1, 3, 5, 6]) {
    const alone = (await rpc(url, send(200 + i, items[i]!))) as Answer
    assert.deepEqual(alone.error, answers[i]!.error, `item ${i} alone`)
  }

  // The accepted ones wait in the pool in nonce order: account 1 at nonces 0..2, account 2 at 0.
  const nonce = async (address: string) => ((await rpc(url, { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionCount', params: [address, 'pending'] })) as { result: Hex }).result
  assert.equal(await nonce(ACCOUNTS[1]!.address), '0x3')
  assert.equal(await nonce(ACCOUNTS[2]!.address), '0x1')
  assert.equal(await nonce(ACCOUNTS[3]!.address), '0x0')
})
