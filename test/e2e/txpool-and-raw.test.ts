/**
 * The txpool namespace and the small methods tools probe, through the public interface: viem over HTTP
 * against a real sequencing node on a loopback port, sealing by hand (flashnode_flashblock, evm_mine; no
 * sleeping). Expectations come from what the test sent: the signed bytes come back byte-identical from
 * debug_getRawTransaction, a raw header hashes to the block's hash, raw receipts build (in an independent
 * trie, @ethereumjs/mpt) the block's receiptsRoot; a public endpoint lists neither debug nor txpool.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, getAddress, http, keccak256, toHex, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createMPT } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode, type RunningNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { serve } from '../../src/cli/serve.ts'

const chain = VIEM_DEV_CHAIN
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
const COINBASE = '0x00000000000000000000000000000000c0ffee01' as const
/** Init code that logs one byte (PUSH1 1 PUSH1 0 LOG0) and deploys nothing: a receipt with a log. */
const LOGGING_INIT = '0x60016000a000' as const

async function sequencingNode(t: TestContext): Promise<{ running: RunningNode; pub: PublicClient }> {
  const clock = new ManualScheduler(Date.now())
  const coinbase = Uint8Array.from(Buffer.from(COINBASE.slice(2), 'hex'))
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: clock, coinbase },
  })
  await running.node.start()
  return { running, pub: createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) }) }
}

const call = <T>(pub: PublicClient, method: string, params: unknown[] = []): Promise<T> =>
  pub.request({ method: method as never, params: params as never }) as Promise<T>

async function signed(url: string, nonce: number, tx: { to?: Hex; value?: bigint; data?: Hex; legacy?: boolean }): Promise<Hex> {
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const w = createWalletClient({ account, chain, transport: http(url, { retryCount: 0 }) })
  const request = await w.prepareTransactionRequest({
    nonce,
    gas: 100_000n,
    ...(tx.to !== undefined ? { to: tx.to } : {}),
    ...(tx.value !== undefined ? { value: tx.value } : {}),
    ...(tx.data !== undefined ? { data: tx.data } : {}),
    ...(tx.legacy === true ? { type: 'legacy' as const, gasPrice: 3_000_000_000n } : { type: 'eip1559' as const, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1n }),
  } as never)
  return w.signTransaction(request as never)
}

test('txpool_*: pooled transactions by checksummed sender and decimal nonce; pre-confirmed ones leave the pool', async (t) => {
  const { running, pub } = await sequencingNode(t)
  const sender = getAddress(ACCOUNTS[0]!.address as Hex)
  const first = await signed(running.url, 0, { to: RECEIVER, value: 5n })
  const gapped = await signed(running.url, 3, { to: RECEIVER, value: 9n })
  const firstHash = await pub.sendRawTransaction({ serializedTransaction: first })
  const gappedHash = await pub.sendRawTransaction({ serializedTransaction: gapped })

  assert.deepEqual(await call(pub, 'txpool_status'), { pending: '0x1', queued: '0x1' })
  type Content = { pending: Record<string, Record<string, { hash: Hex; blockHash: Hex | null }>>; queued: Record<string, Record<string, { hash: Hex }>> }
  const content = await call<Content>(pub, 'txpool_content')
  assert.equal(content.pending[sender]!['0']!.hash, firstHash)
  assert.equal(content.pending[sender]!['0']!.blockHash, null)
  assert.equal(content.queued[sender]!['3']!.hash, gappedHash)
  const from = await call<Content['pending'][string] & object>(pub, 'txpool_contentFrom', [sender.toLowerCase()])
  assert.deepEqual(from, { pending: content.pending[sender], queued: content.queued[sender] })
  const inspect = await call<{ pending: Record<string, Record<string, string>> }>(pub, 'txpool_inspect')
  assert.equal(inspect.pending[sender]!['0'], `${getAddress(RECEIVER)}: 5 wei + 100000 gas × 3000000000 wei`)
  assert.equal(await call(pub, 'debug_getRawTransaction', [firstHash]), first, 'a pooled transaction\'s signed bytes')

  await call(pub, 'flashnode_flashblock')
  assert.deepEqual(await call(pub, 'txpool_status'), { pending: '0x0', queued: '0x1' }, 'pre-confirmed: no longer in the pool')
  assert.deepEqual((await call<Content>(pub, 'txpool_content')).pending, {})
  assert.equal(await call(pub, 'debug_getRawTransaction', [firstHash]), first, 'a pre-confirmed transaction\'s signed bytes')
  assert.equal(await call(pub, 'debug_getRawTransaction', [keccak256('0x01')]), '0x', 'geth answers empty bytes for an unknown hash')
})

test('headers, raw headers, raw receipts and raw transactions of a sealed block agree with the block', async (t) => {
  const { running, pub } = await sequencingNode(t)
  const raws = [
    await signed(running.url, 0, { to: RECEIVER, value: 1n }),
    await signed(running.url, 1, { to: RECEIVER, value: 2n, legacy: true }),
    await signed(running.url, 2, { data: LOGGING_INIT }),
  ]
  const hashes = []
  for (const raw of raws) hashes.push(await pub.sendRawTransaction({ serializedTransaction: raw }))
  await call(pub, 'evm_mine')

  const block = await call<Record<string, unknown>>(pub, 'eth_getBlockByNumber', ['0x1', false])
  assert.deepEqual(block.transactions, hashes)
  const header = await call<Record<string, unknown>>(pub, 'eth_getHeaderByNumber', ['0x1'])
  const expected = Object.fromEntries(Object.entries(block).filter(([k]) => !['size', 'transactions', 'uncles', 'withdrawals'].includes(k)))
  assert.deepEqual(header, expected, 'the block\'s fields without size, transactions, uncles and withdrawals')
  assert.deepEqual(await call(pub, 'eth_getHeaderByHash', [block.hash]), header)
  assert.equal(await call(pub, 'eth_getHeaderByNumber', ['0x99']), null)
  assert.equal((await call<{ hash: null }>(pub, 'eth_getHeaderByNumber', ['pending'])).hash, null, 'the open block has no hash yet')

  const rawHeader = await call<Hex>(pub, 'debug_getRawHeader', ['0x1'])
  assert.equal(keccak256(rawHeader), block.hash, 'keccak(rlp(header)) is the block hash')
  const rawBlock = await call<Hex>(pub, 'debug_getRawBlock', ['0x1'])
  assert.equal(toHex(RLP.encode((RLP.decode(rawBlock) as Uint8Array[])[0]!)), rawHeader, 'the raw block\'s first item')

  for (const [i, hash] of hashes.entries()) assert.equal(await call(pub, 'debug_getRawTransaction', [hash]), raws[i], 'byte-identical')

  const receipts = await call<Hex[]>(pub, 'debug_getRawReceipts', ['0x1'])
  assert.equal(receipts.length, raws.length)
  assert.equal(receipts[1]!.startsWith('0xf9') || receipts[1]!.startsWith('0xf8'), true, 'a legacy receipt has no type byte')
  assert.equal(receipts[0]!.slice(0, 4), '0x02')
  const trie = await createMPT()
  for (const [i, r] of receipts.entries()) await trie.put(RLP.encode(i), Buffer.from(r.slice(2), 'hex'))
  assert.equal(toHex(trie.root()), block.receiptsRoot, 'the raw receipts build the block\'s receiptsRoot')
  await assert.rejects(call(pub, 'debug_getRawHeader', ['0x99']), /header not found/)
  await assert.rejects(call(pub, 'debug_getRawReceipts', ['0x99']), /block not found/)
  assert.deepEqual(await call(pub, 'debug_getBadBlocks'), [])
})

test('identity probes, and rpc_modules by endpoint: a public endpoint lists no debug or txpool', async (t) => {
  const { running, pub } = await sequencingNode(t)
  assert.equal(await call(pub, 'eth_coinbase'), COINBASE)
  assert.equal(await call(pub, 'net_listening'), true)
  assert.equal(await call(pub, 'net_peerCount'), '0x0')
  assert.equal(await call(pub, 'web3_sha3', ['0x68656c6c6f']), keccak256('0x68656c6c6f'))
  type Fork = { activationTime: number; chainId: Hex; forkId: Hex; precompiles: Record<string, Hex>; systemContracts: Record<string, Hex> }
  const config = await call<{ current: Fork; next: Fork | null; last: Fork | null }>(pub, 'eth_config')
  assert.equal(config.current.activationTime, 0, 'the dev chain\'s forks are active at genesis')
  assert.equal(config.current.chainId, toHex(chain.id))
  assert.match(config.current.forkId, /^0x[0-9a-f]{8}$/)
  assert.equal(config.current.precompiles.ECREC, '0x0000000000000000000000000000000000000001')
  assert.equal(config.current.systemContracts.HISTORY_STORAGE_ADDRESS, '0x0000f90827f1c53a10cb7a02335b175320002935', 'EIP-2935')
  assert.equal(config.next, null)
  assert.equal(config.last, null)
  const modules = await call<Record<string, string>>(pub, 'rpc_modules')
  for (const ns of ['debug', 'eth', 'net', 'rpc', 'txpool', 'web3']) assert.equal(modules[ns], '1.0', ns)

  const server = await serve(running.node, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'], profile: 'public', rateLimit: false })
  t.after(() => server.close())
  const publicClient = createPublicClient({ chain, transport: http(server.url, { retryCount: 0 }) })
  const publicModules = await call<Record<string, string>>(publicClient, 'rpc_modules')
  assert.equal('debug' in publicModules, false)
  assert.equal('txpool' in publicModules, false)
  assert.equal(publicModules.eth, '1.0')
  await assert.rejects(call(publicClient, 'debug_getRawHeader', ['0x0']), /does not exist/)
})
