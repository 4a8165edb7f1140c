/**
 * The EVM and transaction rules that differ on an OP Stack chain, through the public interface: a node on
 * the CLI's `--op-stack` dev chain (Bedrock through Jovian at genesis) served on loopback, read with viem.
 *
 * - P256VERIFY at 0x100 (RIP-7212, from Fjord): op-geth's vectors (Wycheproof inputs, test/fixtures/op-geth)
 *   answer as the vectors say, at the vectors' Fjord gas as the call tracer sees the precompile's frame; the
 *   precompile is warm like every precompile, so eth_createAccessList leaves it out; eth_simulateV1 has it too.
 * - Jovian's bn256 pairing limit: the most pairs within 81984 bytes pair, one pair more fails.
 * - No blob transactions (the OP specs' exec-engine.md, "Ecotone: disable Blob-transactions"): a signed type-3
 *   transaction is refused at eth_sendRawTransaction with op-geth's -32000 `transaction type not supported`.
 *   eth_call with blob fields runs as op-geth runs it (its call path has no OP rule for them): BLOBHASH sees
 *   the hashes and BLOBBASEFEE is 1, as on every OP block (excess blob gas always 0; from Jovian the header's
 *   blobGasUsed is the block's DA footprint, the sum its receipts' blobGasUsed give).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { concatHex, createPublicClient, createWalletClient, http, numberToHex, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { opStackCliConfig } from '../support/op-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const VECTORS = (
  JSON.parse(readFileSync(new URL('../fixtures/op-geth/p256verify-vectors.json', import.meta.url), 'utf8')) as {
    vectors: { name: string; input: string; expected: string; gas: number }[]
  }
).vectors
const L1 = { l1BaseFee: 1_000_000_000n, l1BlobBaseFee: 1n, baseFeeScalar: 0n, blobBaseFeeScalar: 0n, operatorFeeScalar: 0n, operatorFeeConstant: 0n }

const P256 = '0x0000000000000000000000000000000000000100'
const PAIRING = '0x0000000000000000000000000000000000000008'
/** Jovian's bn256Pairing input limit (specs jovian/exec-engine.md, "Precompile Input Size Restrictions": 427 pairs). */
const JOVIAN_PAIRING_LIMIT = 81_984
const PAIR_BYTES = 192

/** Runtime: STATICCALL 0x100 with the call data, return what it returned. */
const P256_PROXY = ('0x' + '365f5f37' + '60205f365f6101005afa' + '503d5f5f3e3d5ff3') as Hex
/** Runtime: return BLOBHASH(0) ‖ BLOBBASEFEE. */
const BLOB_READER = ('0x' + '5f495f52' + '4a60205260405ff3') as Hex
/** Initcode deploying `runtime` (≤ 255 bytes). */
const deploying = (runtime: Hex): Hex => {
  const length = (runtime.length - 2) / 2
  return concatHex([`0x60${length.toString(16).padStart(2, '0')}600a5f39` as Hex, `0x60${length.toString(16).padStart(2, '0')}5ff3` as Hex, runtime])
}

interface Frame {
  readonly to: string
  readonly gasUsed: Hex
  readonly output?: Hex
  readonly calls?: readonly Frame[]
}

test('OP EVM rules on the --op-stack chain: P256VERIFY, the pairing limit, no blob transactions', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), L1)
  const running = await startNode(t, join(dir, 'chain'), config.genesis, { sequencer: config.sequencer })
  await running.node.start()
  const chainId = Number(running.node.rules.chainId)
  const client = createPublicClient({ transport: http(running.url) })
  const rpc = <T>(method: string, params: unknown[]): Promise<T> => client.request({ method, params } as never) as Promise<T>
  const account = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const wallet = createWalletClient({ account, transport: http(running.url) })
  const chain = { id: chainId, name: 'op', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [running.url] } } } as const

  // The proxy, deployed by a transaction as any contract would be.
  const deployHash = await wallet.sendTransaction({ chain, data: deploying(P256_PROXY), gas: 200_000n })
  await running.node.sequencer!.seal()
  const proxy = (await client.getTransactionReceipt({ hash: deployHash })).contractAddress!
  assert.ok(proxy !== null)

  await t.test('P256VERIFY answers op-geth\'s vectors at 0x100, at their Fjord gas', async () => {
    const valid = VECTORS.filter((v) => v.expected !== '').slice(0, 3)
    const invalid = VECTORS.filter((v) => v.expected === '').slice(0, 3)
    for (const v of [...valid, ...invalid]) {
      const { data } = await client.call({ to: P256, data: `0x${v.input}` })
      assert.equal(data ?? '0x', `0x${v.expected}`, v.name)
      const trace = await rpc<Frame>('debug_traceCall', [{ to: proxy, data: `0x${v.input}`, gas: numberToHex(1_000_000) }, 'latest', { tracer: 'callTracer' }])
      const inner = trace.calls?.[0]
      assert.equal(inner?.to, P256, v.name)
      assert.equal(Number(inner.gasUsed), v.gas, `${v.name}: the precompile's gas`)
      assert.equal(trace.output ?? '0x', v.expected === '' ? '0x' : `0x${v.expected}`, v.name)
    }
  })

  await t.test('eth_simulateV1 runs the OP fork\'s precompiles too', async () => {
    const v = VECTORS.find((x) => x.expected !== '')!
    const [block] = await rpc<{ calls: { status: Hex; returnData: Hex }[] }[]>('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: account.address, to: proxy, data: `0x${v.input}` }] }] }, 'latest'])
    assert.equal(block!.calls[0]!.status, '0x1')
    assert.equal(block!.calls[0]!.returnData, `0x${v.expected}`)
  })

  await t.test('0x100 is warm as a precompile: eth_createAccessList leaves it out', async () => {
    const v = VECTORS.find((x) => x.expected !== '')!
    const result = await rpc<{ accessList: { address: string }[] }>('eth_createAccessList', [{ from: account.address, to: proxy, data: `0x${v.input}` }, 'latest'])
    assert.deepEqual(result.accessList.map((e) => e.address.toLowerCase()).filter((a) => a === P256), [])
  })

  await t.test('the bn256 pairing takes the most whole pairs within Jovian\'s limit and fails one pair over', async () => {
    const most = Math.floor(JOVIAN_PAIRING_LIMIT / PAIR_BYTES)
    const within = toHex(new Uint8Array(most * PAIR_BYTES))
    const over = toHex(new Uint8Array((most + 1) * PAIR_BYTES))
    const { data } = await client.call({ to: PAIRING, data: within, gas: 40_000_000n })
    assert.equal(BigInt(data!), 1n, `${most} pairs at infinity pair to one`)
    await assert.rejects(client.call({ to: PAIRING, data: over, gas: 40_000_000n }), `${most + 1} pairs (${(most + 1) * PAIR_BYTES} bytes) fail`)
  })

  await t.test('a blob transaction is refused at admission with op-geth\'s error', async () => {
    const nonce = await client.getTransactionCount({ address: account.address })
    const raw = await account.signTransaction({
      type: 'eip4844',
      chainId,
      nonce,
      to: proxy,
      gas: 100_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      maxFeePerBlobGas: 10n,
      blobVersionedHashes: [`0x01${'ab'.repeat(31)}`],
    })
    await assert.rejects(rpc('eth_sendRawTransaction', [raw]), (e: { cause?: { code?: number; details?: string } }) => {
      assert.equal(e.cause?.code, -32000)
      assert.equal(e.cause?.details, 'transaction type not supported')
      return true
    })
    assert.equal(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }), nonce, 'nothing was pooled')
  })

  await t.test('eth_call with blob fields runs as op-geth runs it; BLOBBASEFEE is 1, excess blob gas 0, blobGasUsed the DA footprint', async () => {
    const hash = `0x01${'cd'.repeat(31)}`
    const out = await rpc<Hex>('eth_call', [
      { from: account.address, to: proxy, blobVersionedHashes: [hash], maxFeePerBlobGas: '0x1', maxFeePerGas: numberToHex(10_000_000_000n) },
      'latest',
      { [proxy]: { code: BLOB_READER } },
    ])
    assert.equal(out, concatHex([hash as Hex, numberToHex(1n, { size: 32 })]))
    const block = await rpc<{ blobGasUsed: Hex; excessBlobGas: Hex; number: Hex }>('eth_getBlockByNumber', ['latest', false])
    const receipts = await rpc<{ blobGasUsed?: Hex }[]>('eth_getBlockReceipts', [block.number])
    const footprint = receipts.reduce((sum, r) => sum + BigInt(r.blobGasUsed ?? 0), 0n)
    assert.ok(footprint > 0n, 'the deployment has a DA footprint')
    assert.equal(BigInt(block.blobGasUsed), footprint)
    assert.equal(BigInt(block.excessBlobGas), 0n)
    assert.equal(BigInt(await rpc<Hex>('eth_blobBaseFee', [])), 1n)
  })
})
