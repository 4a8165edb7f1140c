/**
 * eth_subscribe("newHeads") follows its endpoint's heads cadence: at every flashblock where pre-confirmations
 * are on (the default, as Base's pre-confirmation endpoints), or at every seal (`"newHeads": "block"`, geth's;
 * the only cadence of an endpoint serving sealed state). A flashblock's head is the pending block's header as
 * eth_getBlockByNumber("pending") answers it at that moment; a seal's head is the sealed header, hash and all.
 * One node, three endpoints, real WebSocket clients (viem), flashblocks and seals made by hand.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, http, webSocket, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN as chain } from '../support/viem-chain.ts'
import { endpoint, startEndpoints } from '../support/endpoints.ts'

type Head = Record<string, unknown> & { number: Hex; hash: Hex | null }
const RECEIVER = '0x00000000000000000000000000000000000000aa'
/** The block's parts eth_getBlockByNumber adds to the header's fields. */
const BLOCK_PARTS = ['size', 'transactions', 'uncles', 'withdrawals']

function headerOf(block: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([k]) => !BLOCK_PARTS.includes(k)))
}

async function headsOf(t: TestContext, wsUrl: string): Promise<{ heads: Head[]; client: PublicClient }> {
  const client = createPublicClient({ chain, transport: webSocket(wsUrl, { retryCount: 0, reconnect: false }) })
  t.after(async () => (await client.transport.getRpcClient()).close())
  const heads: Head[] = []
  await client.transport.subscribe({ params: ['newHeads'] as never, onData: (d) => void heads.push((d as { result: Head }).result), onError: () => {} })
  return { heads, client }
}

test('newHeads announces every flashblock on a pre-confirmation endpoint, and every seal where asked or where pending is sealed state', async (t) => {
  const running = await startEndpoints(t, [endpoint('base'), endpoint('geth', { newHeads: 'block' }), endpoint('sealed', { preconfirmations: false })])
  const sequencer = running.node.sequencer!
  const url = (name: string) => running.endpoints.get(name)!.url
  const wsUrl = (name: string) => running.endpoints.get(name)!.wsUrl!
  const rpc = createPublicClient({ chain, transport: http(url('base'), { retryCount: 0 }) })
  const base = await headsOf(t, wsUrl('base'))
  const geth = await headsOf(t, wsUrl('geth'))
  const sealed = await headsOf(t, wsUrl('sealed'))
  const numbers: bigint[] = []
  const watchErrors: Error[] = []
  const unwatch = base.client.watchBlockNumber({ onBlockNumber: (n) => void numbers.push(n), onError: (e) => void watchErrors.push(e) })
  t.after(unwatch)
  // A round trip on each socket: every notification sent before it has arrived.
  const settle = () => Promise.all([base.client.getChainId(), geth.client.getChainId(), sealed.client.getChainId()])

  const w = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex), chain, transport: http(url('base'), { retryCount: 0 }) })
  const flashblocks = 3
  for (let i = 0; i < flashblocks; i++) {
    await w.sendTransaction({ to: RECEIVER, value: BigInt(i + 1), gas: 21_000n })
    await sequencer.flashblock()
    await settle()
    const pending = (await rpc.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as unknown as Record<string, unknown>
    assert.equal(base.heads.length, i + 1, `a head per flashblock (after flashblock ${i + 1})`)
    assert.deepEqual(base.heads.at(-1), headerOf(pending), 'the head is the pending block\'s header')
    assert.equal(base.heads.at(-1)!.hash, null, 'a pre-confirmed block has no hash yet')
    assert.equal(BigInt(base.heads.at(-1)!.gasUsed as Hex), 21_000n * BigInt(i + 1), 'each head carries what was pre-confirmed so far')
  }
  assert.deepEqual(geth.heads, [], 'the block cadence waits for the seal')
  assert.deepEqual(sealed.heads, [], 'an endpoint serving sealed state has only sealed heads')
  // viem's watchBlockNumber passes each head's number on as it comes: the open block's, once per flashblock.
  assert.deepEqual(numbers, Array.from({ length: flashblocks }, () => 1n), 'viem\'s watchBlockNumber hears every flashblock')
  assert.deepEqual(watchErrors, [])

  await sequencer.seal()
  await settle()
  const one = headerOf((await rpc.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as unknown as Record<string, unknown>)
  assert.notEqual(one.hash, null)
  assert.deepEqual(geth.heads, [one])
  assert.deepEqual(sealed.heads, [one])
  // seal() runs one last flashblock of block 1 before it seals; block 2's opening follows the seal.
  const at = base.heads.findIndex((h) => h.hash === one.hash)
  assert.ok(at >= flashblocks, 'the flashblock cadence also announces the sealed header, with its hash')
  assert.deepEqual(base.heads[at], one)
  for (const h of base.heads.slice(0, at)) assert.deepEqual([h.number, h.hash], ['0x1', null], 'before the seal: block 1 pending')
  const opened = base.heads.slice(at + 1)
  assert.ok(opened.length > 0, 'the next block\'s opening flashblock is announced')
  for (const h of opened) assert.deepEqual([h.number, h.hash, h.parentHash], ['0x2', null, one.hash], 'after the seal: block 2 pending')
})
