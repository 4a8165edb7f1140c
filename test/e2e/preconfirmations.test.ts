/**
 * Pre-confirmations through the public interface: viem over HTTP and WebSocket against a real server whose
 * sequencer runs on an injected clock (no sleeping for a tick): transfers and deployments visible through
 * `pending` after one flashblock and in `latest` after the seal, bursts with pending nonces, the contract's
 * four submission errors, subscriptions, and eth_sendRawTransactionSync.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import {
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  parseGwei,
  type Hex,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, DEV_CHAIN_ID, deployCode, testGenesis } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode, type RunningNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { LmdbStore } from '../../src/storage/db.ts'
import { keys } from '../../src/storage/keys.ts'
import type { TestContext } from 'node:test'

const chain = VIEM_DEV_CHAIN

const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
const ZERO_HASH = `0x${'00'.repeat(32)}` as const

async function sequencingNode(t: TestContext): Promise<{ running: RunningNode; clock: ManualScheduler; pub: PublicClient }> {
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblocksPerBlock: 10 },
  })
  await running.node.start()
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  return { running, clock, pub }
}

/** Moves the injected clock one interval and waits until the sequencer finished that tick. */
async function tick(running: RunningNode, clock: ManualScheduler, intervals = 1): Promise<void> {
  for (let i = 0; i < intervals; i++) {
    clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs)
    await running.node.sequencer!.idle()
  }
}

const wallet = (url: string, key: Hex) =>
  createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(url, { retryCount: 0 }) })

test('a transfer and a deployment show through pending after one flashblock, and in latest after the seal', async (t) => {
  const { running, clock, pub } = await sequencingNode(t)
  const w = wallet(running.url, ACCOUNTS[0]!.privateKey as Hex)
  const before = await pub.getBalance({ address: RECEIVER })
  const transfer = await w.sendTransaction({ to: RECEIVER, value: 1234n })
  const deploy = await w.sendTransaction({ data: deployCode('602a60005260206000f3') as Hex })
  const status = (await pub.request({ method: 'base_transactionStatus' as never, params: [transfer] as never })) as { status: string }
  assert.equal(status.status, 'Known', 'a pooled transaction is known before it is pre-confirmed')
  assert.equal((await pub.getTransaction({ hash: transfer })).blockNumber, null, 'a pooled transaction has no block yet')

  await tick(running, clock)
  assert.equal(await pub.getBalance({ address: RECEIVER, blockTag: 'pending' }), before + 1234n)
  assert.equal(await pub.getBalance({ address: RECEIVER, blockTag: 'latest' }), before, 'not sealed yet')
  const receipt = await pub.getTransactionReceipt({ hash: deploy })
  assert.equal(receipt.status, 'success')
  assert.equal(receipt.blockHash, ZERO_HASH, 'a pre-confirmed receipt carries 32 zero bytes as block hash')
  assert.equal(receipt.blockNumber, 1n, 'and the pending block\'s number')
  const created = receipt.contractAddress!
  assert.equal(await pub.getCode({ address: created, blockTag: 'pending' }), '0x602a60005260206000f3')
  assert.equal(await pub.getCode({ address: created, blockTag: 'latest' }), undefined)
  const pendingBlock = await pub.getBlock({ blockTag: 'pending' })
  assert.equal(pendingBlock.number, 1n)
  assert.deepEqual(pendingBlock.transactions, [transfer, deploy])

  await tick(running, clock, 9)
  assert.equal(await pub.getBlockNumber(), 1n)
  assert.equal(await pub.getBalance({ address: RECEIVER }), before + 1234n)
  assert.equal(await pub.getCode({ address: created }), '0x602a60005260206000f3')
  const sealed = await pub.getTransactionReceipt({ hash: deploy })
  assert.equal(sealed.blockNumber, 1n)
  assert.equal(sealed.gasUsed, receipt.gasUsed, 'the sealed receipt is the pre-confirmed one')
})

test('a burst from one sender using pending nonces lands whole and in order', async (t) => {
  const { running, clock, pub } = await sequencingNode(t)
  const w = wallet(running.url, ACCOUNTS[1]!.privateKey as Hex)
  const sent: Hex[] = []
  for (let i = 0; i < 25; i++) {
    const nonce = await pub.getTransactionCount({ address: w.account.address, blockTag: 'pending' })
    assert.equal(nonce, i, 'the pending nonce counts what the pool holds')
    sent.push(await w.sendTransaction({ to: RECEIVER, value: BigInt(i + 1), nonce, gas: 21_000n }))
  }
  await tick(running, clock)
  const block = await pub.getBlock({ blockTag: 'pending' })
  assert.deepEqual(block.transactions, sent)
  assert.equal(await pub.getTransactionCount({ address: w.account.address, blockTag: 'pending' }), 25)
})

test('each of the contract\'s four submission errors comes from a real submission', async (t) => {
  const { running, clock, pub } = await sequencingNode(t)
  const key = ACCOUNTS[2]!.privateKey as Hex
  const account = privateKeyToAccount(key)
  const sign = (nonce: number, tip: bigint, value = 1n) =>
    account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: tip })
  const send = (raw: Hex) => pub.request({ method: 'eth_sendRawTransaction', params: [raw] })
  const rpcError = async (raw: Hex) => {
    const res = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }) })
    return ((await res.json()) as { error?: { code: number; message: string } }).error
  }

  const first = await sign(0, parseGwei('1'))
  await send(first)
  const known = await rpcError(first)
  assert.equal(known?.code, -32000)
  assert.equal(known?.message, 'already known')

  const underpriced = await rpcError(await sign(0, parseGwei('1.05')))
  assert.equal(underpriced?.code, -32000)
  assert.equal(underpriced?.message, 'replacement transaction underpriced')

  await tick(running, clock)
  const low = await rpcError(await sign(0, parseGwei('2')))
  assert.equal(low?.code, -32000)
  assert.match(low!.message, /^nonce too low/)

  const poor = wallet(running.url, generatePrivateKey())
  const broke = await rpcError(await poor.account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value: 1n, nonce: 0, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: 1n }))
  assert.equal(broke?.code, -32000)
  assert.match(broke!.message, /^insufficient funds for gas \* price \+ value/)
})

test('WebSocket subscriptions deliver each pre-confirmed transaction exactly once', async (t) => {
  const { running, clock } = await sequencingNode(t)
  const ws = new WebSocket(running.url.replace('http', 'ws'))
  t.after(() => ws.close())
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const messages: { id?: number; result?: unknown; params?: { subscription: string; result: unknown } }[] = []
  ws.on('message', (m) => messages.push(JSON.parse(String(m))))
  const call = (id: number, method: string, params: unknown[]) =>
    new Promise<unknown>((resolve) => {
      const onMessage = (m: WebSocket.RawData) => {
        const msg = JSON.parse(String(m)) as { id?: number; result?: unknown }
        if (msg.id === id) {
          ws.off('message', onMessage)
          resolve(msg.result)
        }
      }
      ws.on('message', onMessage)
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
  const hashesSub = (await call(1, 'eth_subscribe', ['newFlashblockTransactions'])) as string
  const fullSub = (await call(2, 'eth_subscribe', ['newFlashblockTransactions', true])) as string
  const headsSub = (await call(3, 'eth_subscribe', ['newHeads'])) as string

  const w = wallet(running.url, ACCOUNTS[3]!.privateKey as Hex)
  const sent: Hex[] = []
  for (let i = 0; i < 3; i++) sent.push(await w.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n }))
  await tick(running, clock)
  sent.push(await w.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n }))
  await tick(running, clock, 9)
  // One more round trip, so every notification sent before it has arrived.
  await call(4, 'eth_chainId', [])

  const of = (sub: string) => messages.filter((m) => m.params?.subscription === sub).map((m) => m.params!.result)
  assert.deepEqual(of(hashesSub), sent)
  const full = of(fullSub) as { hash: string; status: string; blockHash: string; blockNumber: string; transactionIndex: string; gasUsed: string }[]
  assert.deepEqual(full.map((x) => x.hash), sent)
  for (const [i, x] of full.entries()) {
    assert.equal(x.status, '0x1')
    assert.equal(x.blockHash, ZERO_HASH)
    assert.equal(x.blockNumber, '0x1')
    assert.equal(x.transactionIndex, `0x${i.toString(16)}`)
    assert.equal(x.gasUsed, '0x5208')
  }
  // newHeads at its default cadence here: block 1 pending at each flashblock, then sealed (the one with a hash).
  const heads = of(headsSub) as { number: string; hash: string | null }[]
  assert.deepEqual(heads.filter((h) => h.hash !== null).map((h) => h.number), ['0x1'])
})

test('eth_sendRawTransactionSync answers with the receipt once the transaction is pre-confirmed', async (t) => {
  const { running, clock, pub } = await sequencingNode(t)
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const raw = await account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value: 7n, nonce: 0, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const answer = pub.request({ method: 'eth_sendRawTransactionSync' as never, params: [raw] as never }) as Promise<{ status: string; transactionHash: string }>
  // Wait (by asking, not sleeping) until the pool holds it, then let one flashblock happen.
  for (;;) {
    const s = (await pub.request({ method: 'base_transactionStatus' as never, params: [`0x${'00'.repeat(32)}`] as never })) as { status: string }
    assert.equal(s.status, 'Unknown')
    if (running.node.pool!.stats().pending > 0) break
  }
  await tick(running, clock)
  const receipt = await answer
  assert.equal(receipt.status, '0x1')
  const status = (await pub.request({ method: 'base_transactionStatus' as never, params: [receipt.transactionHash] as never })) as { status: string }
  assert.equal(status.status, 'Known')
})

test('transactions accepted into the pool but not yet pre-confirmed survive a restart', async (t) => {
  const dir = tempDir(t)
  const clock = new ManualScheduler(Date.now())
  const config = { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' as const, scheduler: clock } }
  const first = await startNode(t, dir, testGenesis(), config)
  await first.node.start()
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const sign = (nonce: number) =>
    account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value: 1n, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const pub1 = createPublicClient({ chain, transport: http(first.url, { retryCount: 0 }) })
  const hashes = [await pub1.request({ method: 'eth_sendRawTransaction', params: [await sign(0)] }), await pub1.request({ method: 'eth_sendRawTransaction', params: [await sign(1)] })]
  await first.stop()

  const second = await startNode(t, dir, testGenesis(), config)
  await second.node.start()
  const pub2 = createPublicClient({ chain, transport: http(second.url, { retryCount: 0 }) })
  assert.equal(await pub2.getTransactionCount({ address: account.address, blockTag: 'pending' }), 2, 'both are back in the pool')
  await pub2.request({ method: 'evm_mine' as never })
  for (const hash of hashes) assert.equal((await pub2.getTransactionReceipt({ hash })).blockNumber, 1n)
})

test('a rejected transaction leaves nothing stored: after a stop the pool holds exactly what was accepted', async (t) => {
  const dir = tempDir(t)
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, dir, testGenesis(), { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' as const, scheduler: clock } })
  await running.node.start()
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const pauper = privateKeyToAccount(generatePrivateKey())
  const sign = (from: typeof account, nonce: number, value: bigint) =>
    from.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const send = (raw: Hex) => pub.request({ method: 'eth_sendRawTransaction', params: [raw] })
  const first = await sign(account, 0, 1n)
  const accepted = await Promise.all([send(first), send(await sign(account, 1, 1n))])
  const refusals = await Promise.allSettled([
    send(first), // already known: its entry is the pooled transaction's and stays
    send(await sign(account, 0, 2n)), // same nonce, same fees: replacement underpriced
    send(await sign(pauper, 0, 1n)), // insufficient funds
    send((await sign(account, 2, 1n)).slice(0, -8) as Hex), // truncated: undecodable
  ])
  assert.deepEqual(refusals.map((r) => r.status), ['rejected', 'rejected', 'rejected', 'rejected'])
  await running.stop()

  const kv = new LmdbStore(dir)
  t.after(() => kv.close())
  const stored = [...kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())].map(({ value }) => keccak256(value)).sort()
  assert.deepEqual(stored, [...accepted].sort())
})

test('pendingLogs, newFlashblocks and logs subscriptions follow flashblocks and seals, filtered', async (t) => {
  const { running, clock, pub } = await sequencingNode(t)
  const w = wallet(running.url, ACCOUNTS[0]!.privateKey as Hex)
  // A contract that logs 0xaa (LOG0 of one word) when called.
  const deploy = await w.sendTransaction({ data: deployCode('60aa60005260206000a000') as Hex })
  await tick(running, clock)
  const emitter = (await pub.getTransactionReceipt({ hash: deploy })).contractAddress!

  const ws = new WebSocket(running.url.replace('http', 'ws'))
  t.after(() => ws.close())
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const messages: { id?: number; result?: unknown; params?: { subscription: string; result: unknown } }[] = []
  ws.on('message', (m) => messages.push(JSON.parse(String(m))))
  const call = async (id: number, method: string, params: unknown[]) => {
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    for (;;) {
      const hit = messages.find((m) => m.id === id)
      if (hit !== undefined) return hit.result
      await new Promise((resolve) => ws.once('message', resolve))
    }
  }
  const pendingLogs = (await call(1, 'eth_subscribe', ['pendingLogs', { address: emitter }])) as string
  const otherLogs = (await call(2, 'eth_subscribe', ['pendingLogs', { address: RECEIVER }])) as string
  const blocks = (await call(3, 'eth_subscribe', ['newFlashblocks'])) as string
  const sealedLogs = (await call(4, 'eth_subscribe', ['logs', {}])) as string

  const callTx = await w.sendTransaction({ to: emitter, gas: 50_000n })
  await tick(running, clock)
  const of = (sub: string) => messages.filter((m) => m.params?.subscription === sub).map((m) => m.params!.result as Record<string, unknown>)
  await call(5, 'eth_chainId', [])
  assert.deepEqual(of(pendingLogs).map((l) => [l.transactionHash, l.address, l.blockHash]), [[callTx, emitter, ZERO_HASH]])
  assert.equal(of(otherLogs).length, 0, 'the address filter holds')
  const fb = of(blocks)
  assert.equal(fb.length, 1)
  assert.deepEqual(fb[0]!.transactions && (fb[0]!.transactions as { hash: string }[]).map((x) => x.hash), [deploy, callTx])
  assert.equal(of(sealedLogs).length, 0, 'nothing sealed yet')

  await tick(running, clock, 8)
  await call(6, 'eth_chainId', [])
  const sealed = of(sealedLogs)
  assert.deepEqual(sealed.map((l) => [l.transactionHash, l.blockNumber]), [[callTx, '0x1']])
  assert.notEqual(sealed[0]!.blockHash, ZERO_HASH)
  assert.match(String(sealed[0]!.blockHash), /^0x[0-9a-f]{64}$/)
})

test('eth_call and eth_estimateGas at pending run in the pending block\'s own context and state', async (t) => {
  // Returns NUMBER, TIMESTAMP and COINBASE as three words.
  const ENV = '0x0000000000000000000000000000000000000e70'
  const genesis = testGenesis() as unknown as { alloc: Record<string, unknown> }
  genesis.alloc[ENV] = { balance: '0x0', code: '0x436000524260205241604052606060' + '00f3' }
  const clock = new ManualScheduler(Date.now())
  const coinbase = new Uint8Array(20).fill(0xcb)
  const running = await startNode(t, tempDir(t), genesis as never, {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, coinbase },
  })
  await running.node.start()
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const words = (hex: Hex | undefined) => (hex ?? '0x').slice(2).match(/.{64}/g)!.map((w) => BigInt(`0x${w}`))
  const [latestNumber, latestTime] = words((await pub.call({ to: ENV, blockTag: 'latest' })).data)
  const pendingBlock = await pub.getBlock({ blockTag: 'pending' })
  const [number, time, miner] = words((await pub.call({ to: ENV, blockTag: 'pending' })).data)
  assert.equal(latestNumber, 0n)
  assert.equal(number, pendingBlock.number, 'NUMBER is the pending block\'s')
  assert.equal(time, pendingBlock.timestamp)
  assert.ok(time! >= latestTime!)
  assert.equal(miner, BigInt(`0x${'cb'.repeat(20)}`), 'COINBASE is the sequencer\'s')

  // A transfer pre-confirmed in this block changes what estimateGas and eth_call see at pending only.
  const w = wallet(running.url, ACCOUNTS[0]!.privateKey as Hex)
  const fresh = '0x00000000000000000000000000000000000000bb' as const
  await w.sendTransaction({ to: fresh, value: 10n ** 18n, gas: 21_000n })
  await tick(running, clock)
  assert.equal(await pub.getBalance({ address: fresh, blockTag: 'pending' }), 10n ** 18n)
  await pub.estimateGas({ account: fresh, to: RECEIVER, value: 10n ** 17n, blockTag: 'pending' } as never)
  await assert.rejects(pub.estimateGas({ account: fresh, to: RECEIVER, value: 10n ** 17n, blockTag: 'latest' } as never), /insufficient funds/i)
})

test('newPendingTransactions announces a transaction when it becomes executable in the pool, as geth does', async (t) => {
  const { running } = await sequencingNode(t)
  const ws = new WebSocket(running.url.replace('http', 'ws'))
  t.after(() => ws.close())
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const messages: { id?: number; result?: unknown; error?: unknown; params?: { subscription: string; result: unknown } }[] = []
  ws.on('message', (m) => messages.push(JSON.parse(String(m))))
  let nextId = 1
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const id = nextId++
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    for (;;) {
      const reply = messages.find((m) => m.id === id)
      if (reply !== undefined) {
        if (reply.error !== undefined) throw new Error(JSON.stringify(reply.error))
        return reply.result
      }
      await new Promise((resolve) => ws.once('message', resolve))
    }
  }
  const hashes = (await call('eth_subscribe', ['newPendingTransactions'])) as string
  const full = (await call('eth_subscribe', ['newPendingTransactions', true])) as string
  const of = (sub: string) => messages.filter((m) => m.params?.subscription === sub).map((m) => m.params!.result)

  const account = privateKeyToAccount(ACCOUNTS[3]!.privateKey as Hex)
  const sign = (nonce: number) =>
    account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value: 1n, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const raw1 = await sign(1)
  const raw0 = await sign(0)
  await call('eth_sendRawTransaction', [raw1])
  await call('eth_chainId', [])
  assert.deepEqual(of(hashes), [], 'a transaction waiting behind a nonce gap is not announced')
  await call('eth_sendRawTransaction', [raw0])
  await call('eth_chainId', [])
  assert.deepEqual(of(hashes), [keccak256(raw0), keccak256(raw1)], 'the gap closed: both, in nonce order')
  const txs = of(full) as Record<string, unknown>[]
  assert.deepEqual(txs.map((x) => [x.hash, x.nonce, x.from]), [[keccak256(raw0), '0x0', account.address.toLowerCase()], [keccak256(raw1), '0x1', account.address.toLowerCase()]])
  for (const x of txs) for (const k of ['blockHash', 'blockNumber', 'transactionIndex']) assert.equal(x[k], null, `a pool transaction has no ${k}`)

  assert.equal(await call('eth_unsubscribe', [hashes]), true)
  await call('eth_sendRawTransaction', [await sign(2)])
  await call('eth_chainId', [])
  assert.equal(of(hashes).length, 2, 'nothing after eth_unsubscribe')
  assert.equal(of(full).length, 3)
})
