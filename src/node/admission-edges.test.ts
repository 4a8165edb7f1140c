/**
 * Admission at its edges, through the method table (in-process): a submission before the node has opened
 * its first block is refused plainly; every submission's result is counted by the reason it got
 * (accepted, a pool rule, undecodable, other); a sealed-only facade (an endpoint without pre-confirmations)
 * counts pre-confirmed and pooled transactions in the pending nonce and finds them by hash without a block;
 * eth_sendRawTransactionSync of a transaction behind a nonce gap answers at once with code 5.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createEthMethods } from '../rpc/methods/index.ts'
import { RawJson } from '../rpc/transport/messages.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { NodeApi } from './api.ts'
import { manualNode, rpc, unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { parseExposition, samplesOf } from '../../test/support/prometheus-text.ts'

const RECEIVER = `0x${'77'.repeat(20)}`

/** A call through the method table of `api`: its result, or its error as a client sees it. */
async function call(api: NodeApi, method: string, params: unknown[]): Promise<{ result?: any; error?: { code?: number; message: string; data?: unknown } }> {
  try {
    const answer = await createEthMethods(api).get(method)!(params, { signal: new AbortController().signal, endpoint: 'test' })
    return { result: JSON.parse(answer instanceof RawJson ? answer.json : JSON.stringify(answer)) }
  } catch (e) {
    const err = e as { message: string; code?: number; data?: unknown }
    return { error: { message: err.message, ...(err.code !== undefined ? { code: err.code } : {}), ...(err.data !== undefined ? { data: err.data } : {}) } }
  }
}

test('a submission before the first block opened is refused, and every submission is counted by its result', { timeout: 60_000 }, async (t) => {
  const node = await unstartedManualNode(t)
  const tx = (nonce: bigint) => bytesToHex(signedTx(node, 1, nonce, { to: RECEIVER, value: 1n, gasLimit: 21_000n }).serialize())
  const early = await call(node.api, 'eth_sendRawTransaction', [tx(0n)])
  assert.equal(early.error?.message, 'the node has not started: no pending block yet')
  await node.start()
  assert.ok((await call(node.api, 'eth_sendRawTransaction', [tx(0n)])).result)
  assert.equal((await call(node.api, 'eth_sendRawTransaction', [tx(0n)])).error?.message, 'already known')
  assert.ok((await call(node.api, 'eth_sendRawTransaction', ['0x02c0'])).error)
  const counted = parseExposition((await node.metrics!.exposition()).body).get('flashnode_txpool_admissions_total')!
  const count = (result: string) => samplesOf(counted, { result })[0]?.value ?? 0
  assert.deepEqual(
    { other: count('other'), accepted: count('accepted'), known: count('alreadyKnown'), undecodable: count('undecodable') },
    { other: 1, accepted: 1, known: 1, undecodable: 1 },
  )
})

test('a sealed-only facade counts pre-confirmed and pooled transactions in the pending nonce and finds them by hash', { timeout: 60_000 }, async (t) => {
  const node = await manualNode(t)
  const from = ACCOUNTS[1]!.address
  const send = (nonce: bigint) => rpc(node, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, 1, nonce, { to: RECEIVER, value: 1n, gasLimit: 21_000n }).serialize())])
  const preconfirmed = await send(0n)
  await node.sequencer!.flashblock()
  const pooled = await send(1n)
  const sealedOnly = node.sealedApi
  assert.equal((await call(sealedOnly, 'eth_getTransactionCount', [from, 'pending'])).result, '0x2')
  assert.equal((await call(sealedOnly, 'eth_getTransactionCount', [from, 'latest'])).result, '0x0')
  for (const hash of [preconfirmed, pooled]) {
    const found = (await call(sealedOnly, 'eth_getTransactionByHash', [hash])).result
    assert.equal(found?.hash, hash)
    assert.equal(found?.blockHash, null, 'not sealed: no block yet')
  }
  assert.equal((await call(sealedOnly, 'eth_getTransactionByHash', [`0x${'ab'.repeat(32)}`])).result, null)
  await node.sequencer!.seal()
  assert.equal((await call(sealedOnly, 'eth_getTransactionCount', [from, 'pending'])).result, '0x2')
})

test('eth_sendRawTransactionSync of a transaction behind a nonce gap answers at once with code 5', { timeout: 60_000 }, async (t) => {
  const node = await manualNode(t)
  const gapped = bytesToHex(signedTx(node, 2, 3n, { to: RECEIVER, value: 1n, gasLimit: 21_000n }).serialize())
  const answer = await call(node.api, 'eth_sendRawTransactionSync', [gapped])
  assert.equal(answer.error?.code, 5)
  assert.match(answer.error?.message ?? '', /missing nonce or insufficient funds/)
})
