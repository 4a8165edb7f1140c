/**
 * One sequencing node, two endpoints: `preconf` (pre-confirmations, the default) and `sealed`
 * (`preconfirmations: false`), driven through viem over HTTP and WebSocket on an injected clock. On the
 * sealed endpoint `pending` reads `latest`; receipts, logs and a transaction's block appear once the block
 * is sealed (before, the transaction reads as pending); eth_simulateV1 is not served;
 * eth_sendRawTransactionSync answers with the sealed receipt; flashblock subscriptions are refused and
 * newHeads announces sealed blocks. The pending nonce still counts every transaction sent, so a second send
 * right after the first works on both. The pre-confirmation endpoint shows the same transactions at once.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import {
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  parseGwei,
  webSocket,
  type Hex,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, deployCode } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { endpoint, startEndpoints, type EndpointsNode } from '../support/endpoints.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const chain = VIEM_DEV_CHAIN
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
/** Runtime code: LOG1 with topic CALLVALUE and no data, then stop. */
const EMITTER_RUNTIME = '3460006000a100'
const TOPIC_OF_7 = `0x${'00'.repeat(31)}07` as const

interface TwoEndpoints {
  readonly running: EndpointsNode
  readonly clock: ManualScheduler
  readonly preconf: PublicClient
  readonly sealed: PublicClient
  readonly urls: { readonly preconf: string; readonly sealed: string }
}

async function twoEndpoints(t: TestContext): Promise<TwoEndpoints> {
  const clock = new ManualScheduler(Date.now())
  const running = await startEndpoints(t, [endpoint('preconf'), endpoint('sealed', { preconfirmations: false })], {
    node: { sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, syncTimeoutMs: 30_000 } },
  })
  const urls = { preconf: running.endpoints.get('preconf')!.url, sealed: running.endpoints.get('sealed')!.url }
  const client = (url: string) => createPublicClient({ chain, transport: http(url, { retryCount: 0 }) })
  return { running, clock, preconf: client(urls.preconf), sealed: client(urls.sealed), urls }
}

/** Moves the injected clock `intervals` flashblock intervals, each tick finished before the next. */
async function tick({ running, clock }: TwoEndpoints, intervals = 1): Promise<void> {
  for (let i = 0; i < intervals; i++) {
    clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs)
    await running.node.sequencer!.idle()
  }
}

const wallet = (url: string, index: number) =>
  createWalletClient({ account: privateKeyToAccount(ACCOUNTS[index]!.privateKey as Hex), chain, transport: http(url, { retryCount: 0 }) })

async function rpcError(client: PublicClient, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await client.request({ method: method as never, params: params as never })
  } catch (e) {
    const err = e as { code: number; details: string }
    return { code: err.code, message: err.details }
  }
  throw new Error(`${method} did not fail`)
}

test('without pre-confirmations, a sent transaction shows only once sealed; with them, at once', async (t) => {
  const two = await twoEndpoints(t)
  const { preconf, sealed } = two
  const w = wallet(two.urls.sealed, 0)
  const before = await sealed.getBalance({ address: RECEIVER })

  const transfer = await w.sendTransaction({ to: RECEIVER, value: 1234n })
  // A second send right after the first: viem takes the pending nonce, which counts the first.
  const deploy = await w.sendTransaction({ data: deployCode(EMITTER_RUNTIME) as Hex })
  await tick(two)

  // Pre-confirmed: the pre-confirmation endpoint sees it all.
  assert.equal(await preconf.getBalance({ address: RECEIVER, blockTag: 'pending' }), before + 1234n)
  const created = (await preconf.getTransactionReceipt({ hash: deploy })).contractAddress!
  assert.equal(await preconf.getCode({ address: created, blockTag: 'pending' }), `0x${EMITTER_RUNTIME}`)

  // The sealed endpoint: pending is latest, nothing of the open block shows.
  assert.equal(await sealed.getBalance({ address: RECEIVER, blockTag: 'pending' }), before)
  assert.equal(await sealed.getCode({ address: created, blockTag: 'pending' }), undefined)
  await assert.rejects(sealed.getTransactionReceipt({ hash: deploy }), { name: 'TransactionReceiptNotFoundError' })
  const pendingTx = await sealed.getTransaction({ hash: transfer })
  assert.equal(pendingTx.blockNumber, null, 'a pre-confirmed transaction reads as pending')
  assert.equal(pendingTx.blockHash, null)
  const [latestBlock, pendingBlock] = await Promise.all([sealed.getBlock({ blockTag: 'latest' }), sealed.getBlock({ blockTag: 'pending' })])
  assert.equal(pendingBlock.hash, latestBlock.hash)
  assert.equal(pendingBlock.number, 0n)
  assert.deepEqual(
    await sealed.request({ method: 'eth_getBlockReceipts' as never, params: ['pending'] as never }),
    await sealed.request({ method: 'eth_getBlockReceipts' as never, params: ['latest'] as never }),
  )
  assert.equal(await sealed.getTransactionCount({ address: w.account.address, blockTag: 'latest' }), 0)
  assert.equal(await sealed.getTransactionCount({ address: w.account.address, blockTag: 'pending' }), 2, 'the pending nonce counts what was sent')
  assert.equal(await preconf.getTransactionCount({ address: w.account.address, blockTag: 'pending' }), 2)

  // A log of the open block: on the pre-confirmation endpoint at pending, on the sealed one not yet.
  // (Its gas is given: an estimate on this endpoint runs at latest, where the contract is not yet.)
  const emit = await w.sendTransaction({ to: created, value: 7n, gas: 100_000n })
  await tick(two)
  const filter = { address: created, fromBlock: 'latest', toBlock: 'pending' } as const
  assert.deepEqual((await preconf.getLogs(filter)).map((l) => [l.transactionHash, l.topics[0]]), [[emit, TOPIC_OF_7]])
  assert.deepEqual(await sealed.getLogs(filter), [])
  assert.equal(await sealed.getTransactionCount({ address: w.account.address, blockTag: 'pending' }), 3)

  // Sealed: both endpoints agree, with the block's real hash.
  await tick(two, 8)
  const block = await sealed.getBlock({ blockTag: 'latest' })
  assert.equal(block.number, 1n)
  assert.deepEqual(block.transactions, [transfer, deploy, emit])
  for (const client of [sealed, preconf]) {
    const receipt = await client.getTransactionReceipt({ hash: deploy })
    assert.equal(receipt.blockHash, block.hash)
    assert.equal(receipt.contractAddress, created)
    assert.equal((await client.getTransaction({ hash: transfer })).blockHash, block.hash)
    assert.deepEqual((await client.getLogs({ address: created, fromBlock: 1n, toBlock: 'latest' })).map((l) => l.transactionHash), [emit])
    assert.equal(await client.getBalance({ address: RECEIVER, blockTag: 'latest' }), before + 1234n)
  }
  assert.equal(await sealed.getBalance({ address: RECEIVER, blockTag: 'pending' }), before + 1234n)
  assert.equal(await sealed.getCode({ address: created, blockTag: 'pending' }), `0x${EMITTER_RUNTIME}`)
})

test('without pre-confirmations: no eth_simulateV1, and eth_sendRawTransactionSync answers once sealed', async (t) => {
  const two = await twoEndpoints(t)
  const { preconf, sealed } = two
  const simulate = [{ blockStateCalls: [{ calls: [{ to: RECEIVER }] }] }, 'pending']
  assert.deepEqual(await rpcError(sealed, 'eth_simulateV1', simulate), { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' })
  assert.equal(((await preconf.request({ method: 'eth_simulateV1' as never, params: simulate as never })) as unknown[]).length, 1)

  const account = privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex)
  const sign = (nonce: number) =>
    account.signTransaction({ chainId: chain.id, type: 'eip1559', to: RECEIVER, value: 5n, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  const viaSealed = await sign(0)
  const viaPreconf = await sign(1)
  type Receipt = { transactionHash: Hex; blockHash: Hex | null; blockNumber: Hex }
  let sealedAnswered = false
  const sealedAnswer = (sealed.request({ method: 'eth_sendRawTransactionSync' as never, params: [viaSealed] as never }) as Promise<Receipt>).then((r) => {
    sealedAnswered = true
    return r
  })
  // Ask (not sleep) until the pool holds it, then send the next one through the pre-confirmation endpoint.
  while (!(await two.running.node.api.transactionStatus(Buffer.from(keccak256(viaSealed).slice(2), 'hex'))).startsWith('Known')) {
    await new Promise((resolve) => setImmediate(resolve))
  }
  const preconfAnswer = preconf.request({ method: 'eth_sendRawTransactionSync' as never, params: [viaPreconf] as never }) as Promise<Receipt>
  while (two.running.node.pool!.stats().pending < 2) await new Promise((resolve) => setImmediate(resolve))

  await tick(two)
  const preconfirmed = await preconfAnswer
  assert.equal(preconfirmed.transactionHash, keccak256(viaPreconf))
  assert.equal(preconfirmed.blockNumber, '0x1')
  assert.equal(sealedAnswered, false, 'the sealed endpoint has not answered at the pre-confirmation')

  await tick(two, 9)
  const receipt = await sealedAnswer
  const block = await sealed.getBlock({ blockTag: 'latest' })
  assert.equal(receipt.transactionHash, keccak256(viaSealed))
  assert.equal(receipt.blockHash, block.hash, 'the receipt of the sealed block')
  assert.equal(receipt.blockNumber, '0x1')
})

test('without pre-confirmations, flashblock subscriptions are refused and newHeads announces sealed blocks', async (t) => {
  const two = await twoEndpoints(t)
  const ws = (name: 'preconf' | 'sealed') => {
    const client = createPublicClient({ chain, transport: webSocket(two.running.endpoints.get(name)!.wsUrl!, { retryCount: 0 }) })
    t.after(async () => (await client.transport.getRpcClient()).close())
    return client
  }
  const sealedWs = ws('sealed')
  const preconfWs = ws('preconf')
  for (const kind of ['newFlashblocks', 'newFlashblockTransactions', 'pendingLogs']) {
    await assert.rejects(
      sealedWs.transport.subscribe({ params: [kind] as never, onData: () => {}, onError: () => {} }),
      (e: { code?: number; message?: string }) => e.code === -32602 && e.message === `no "${kind}" subscription in eth namespace`,
      kind,
    )
  }
  const heads: { number: Hex }[] = []
  const flashblocks: { number: Hex }[] = []
  await sealedWs.transport.subscribe({ params: ['newHeads'] as never, onData: (d) => void heads.push((d as { result: { number: Hex } }).result), onError: () => {} })
  await preconfWs.transport.subscribe({ params: ['newFlashblocks'] as never, onData: (d) => void flashblocks.push((d as { result: { number: Hex } }).result), onError: () => {} })

  await wallet(two.urls.sealed, 2).sendTransaction({ to: RECEIVER, value: 1n })
  await tick(two, 10)
  // One more round trip on each socket, so every notification sent before it has arrived.
  await sealedWs.getChainId()
  await preconfWs.getChainId()
  assert.deepEqual(heads.map((h) => h.number), ['0x1'])
  assert.ok(flashblocks.length >= 10, `the pre-confirmation endpoint announced flashblocks (${flashblocks.length})`)
})
