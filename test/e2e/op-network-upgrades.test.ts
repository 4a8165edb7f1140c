/**
 * OP forks activating after genesis, through the public interface: a chain from a genesis file (Regolith at
 * genesis, Canyon, Ecotone and Fjord a few seconds later; the predeploys behind their Proxy as on a real OP
 * chain, L1Block and GasPriceOracle at their pre-Ecotone versions 1.1.0), sequenced by a real node on loopback
 * in manual mode with an injected clock, read with viem, followed by a second node (`--follow`'s setup: the
 * sequencer's HTTP URL and its flashblock stream).
 *
 * - Canyon's first block installs the create2Deployer (op-geth's EnsureCreate2Deployer), which the genesis lacks.
 * - Ecotone's first block: the L1-attributes deposit still calls the Bedrock setL1BlockValues, then come the six
 *   upgrade deposits with the specs' source hashes; afterwards the deployed code hashes are the ones the specs
 *   state, the proxies point at the new implementations, the beacon roots contract is at EIP-4788's address,
 *   isEcotone() is true, and the oracle's getL1Fee (its own bytecode's Ecotone formula) equals the L1 fee the
 *   next block's receipt charges. A transaction sent while that first block is open waits for the next one
 *   (op-node's noTxPool).
 * - Fjord's first block: the three upgrade deposits; the new oracle implementation (its code hash the specs'),
 *   isFjord() true, and its getL1Fee (FastLZ, Fjord's formula) equals the receipt's L1 fee.
 * - The follower ends on the same blocks (hashes) with the same code at the new addresses.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, keccak256, parseAbi, serializeTransaction, toHex, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { serve } from '../../src/cli/serve.ts'
import { SequencerClient } from '../../src/follower/sequencer-client.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { tempDir } from '../support/temp-dir.ts'
import { until } from '../support/follower-kit.ts'

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/op-upgrades/bedrock-predeploys.json'), 'utf8')) as Record<
  'proxy' | 'l1Block' | 'gasPriceOracle',
  { runtimeCode: Hex }
>

const G = 1_800_000_000
const CANYON = G + 2
const ECOTONE = G + 4
const FJORD = G + 6

const L1_BLOCK = '0x4200000000000000000000000000000000000015'
const GPO = '0x420000000000000000000000000000000000000f'
const PROXY_ADMIN = '0x4200000000000000000000000000000000000018'
const L1_BLOCK_IMPL = '0xc0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d30015'
const GPO_IMPL = '0xc0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3000f'
const CREATE2_DEPLOYER = '0x13b0D85CcB8bf860b6b79AF3029fCA081AE9beF2'
const BEACON_ROOTS = '0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02'
/** EIP-1967's implementation and admin slots. */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const ADMIN_SLOT = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103'
const RECEIVER = '0x00000000000000000000000000000000000000bb'

/** What specs/protocol/ecotone/derivation.md and fjord/derivation.md (ethereum-optimism/specs, CC0) state. */
const SPECS = {
  ecotone: {
    sourceHashes: [
      '0x877a6077205782ea15a6dc8699fa5ebcec5e0f4389f09cb8eda09488231346f8',
      '0xa312b4510adf943510f05fcc8f15f86995a5066bd83ce11384688ae20e6ecf42',
      '0x18acb38c5ff1c238a7460ebc1b421fa49ec4874bdf1e0a530d234104e5e67dbc',
      '0xee4f9385eceef498af0be7ec5862229f426dec41c8d42397c7257a5117d9230a',
      '0x0c1cb38e99dbc9cbfab3bb80863380b0905290b37eb3d6ab18dc01c1f3e75f93',
      '0x69b763c48478b9dc2f65ada09b3d92133ec592ea715ec65ad6e7f3dc519dc00c',
    ],
    l1Block: { address: '0x07dbe8500fc591d1852B76feE44d5a05e13097Ff', codeHash: '0xc88a313aa75dc4fbf0b6850d9f9ae41e04243b7008cf3eadb29256d4a71c1dfd' },
    gasPriceOracle: { address: '0xb528D11cC114E026F138fE568744c6D45ce6Da7A', codeHash: '0x8b71360ea773b4cfaf1ae6d2bd15464a4e1e2e360f786e475f63aeaed8da0ae5' },
  },
  fjord: {
    sourceHashes: [
      '0x86122c533fdcb89b16d8713174625e44578a89751d96c098ec19ab40a51a8ea3',
      '0x1e6bb0c28bfab3dc9b36ffb0f721f00d6937f33577606325692db0965a7d58c6',
      '0xbac7bb0d5961cad209a345408b0280a0d4686b1b20665e1b0f9cdafd73b19b6b',
    ],
    gasPriceOracle: { address: '0xa919894851548179A0750865e7974DA599C0Fac7', codeHash: '0xa88fa50a2745b15e6794247614b5298483070661adacb8d32d716434ed24c6b2' },
  },
} as const
/** The Bedrock setL1BlockValues selector and the Ecotone one (the specs' L1-attributes layouts). */
const SET_L1_BLOCK_VALUES = '0x015d8eb9'
const SET_L1_BLOCK_VALUES_ECOTONE = '0x440a5e20'

const gpoAbi = parseAbi([
  'function isEcotone() view returns (bool)',
  'function isFjord() view returns (bool)',
  'function getL1Fee(bytes) view returns (uint256)',
  'function version() view returns (string)',
])
const versionAbi = parseAbi(['function version() view returns (string)'])

const word = (v: bigint | string): Hex => toHex(BigInt(v), { size: 32 })

/** A pre-Ecotone OP chain: the dev accounts, L1Block and GasPriceOracle behind proxies, Bedrock's fee values. */
function preEcotoneGenesis(): GethGenesis {
  const g = testGenesis() as unknown as { config: Record<string, unknown>; alloc: Record<string, Record<string, unknown>>; timestamp: string; extraData: string }
  for (const key of ['cancunTime', 'pragueTime', 'osakaTime', 'blobSchedule']) delete g.config[key]
  // No system contract at genesis: Ecotone deploys the beacon roots contract itself.
  for (const [address, entry] of Object.entries(g.alloc)) if (entry.code !== undefined) delete g.alloc[address]
  Object.assign(g.config, {
    shanghaiTime: CANYON,
    cancunTime: ECOTONE,
    bedrockBlock: 0,
    regolithTime: 0,
    canyonTime: CANYON,
    deltaTime: CANYON,
    ecotoneTime: ECOTONE,
    fjordTime: FJORD,
    optimism: { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 },
  })
  g.timestamp = toHex(G)
  const proxy = (implementation: string, storage: Record<Hex, Hex> = {}) => ({
    balance: '0x0',
    code: fixture.proxy.runtimeCode,
    storage: { [IMPLEMENTATION_SLOT]: word(implementation), [ADMIN_SLOT]: word(PROXY_ADMIN), ...storage },
  })
  g.alloc[L1_BLOCK] = proxy(L1_BLOCK_IMPL, {
    [word(1n)]: word(1_000_000_000n), // basefee
    [word(4n)]: word(0x5050f69a9786f081509234f1a7f4684b5e5b76c9n), // batcherHash
    [word(5n)]: word(188n), // l1FeeOverhead
    [word(6n)]: word(684_000n), // l1FeeScalar
  })
  g.alloc[GPO] = proxy(GPO_IMPL)
  g.alloc[L1_BLOCK_IMPL] = { balance: '0x0', code: fixture.l1Block.runtimeCode }
  g.alloc[GPO_IMPL] = { balance: '0x0', code: fixture.gasPriceOracle.runtimeCode }
  return g as unknown as GethGenesis
}

async function served(t: { after(fn: () => Promise<void>): void }, node: Awaited<ReturnType<typeof createNode>>) {
  const server = await serve(node, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'], preconfirmations: true })
  t.after(async () => {
    await server.close()
    await node.close()
  })
  return server.url
}

const implementation = async (client: PublicClient, proxy: string, blockNumber: bigint) =>
  `0x${(await client.getStorageAt({ address: proxy as Hex, slot: IMPLEMENTATION_SLOT, blockNumber }))!.slice(26)}`.toLowerCase()

type Transfer = Awaited<ReturnType<PublicClient['getTransaction']>>

/** An EIP-1559 transfer's unsigned serialization (what the oracle's getL1Fee is given). */
const unsignedOf = (tx: Transfer): Hex =>
  serializeTransaction({ chainId: tx.chainId!, type: 'eip1559', nonce: tx.nonce, to: tx.to!, value: tx.value, gas: tx.gas, maxFeePerGas: tx.maxFeePerGas!, maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, data: tx.input })

/** A transaction's signed bytes (what the node charges the L1 fee on), checked against its hash. */
async function signedBytes(client: PublicClient, hash: Hex): Promise<Hex> {
  const tx = await client.getTransaction({ hash })
  const raw = serializeTransaction({ chainId: tx.chainId!, type: 'eip1559', nonce: tx.nonce, to: tx.to!, value: tx.value, gas: tx.gas, maxFeePerGas: tx.maxFeePerGas!, maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, data: tx.input }, { r: tx.r, s: tx.s, yParity: tx.yParity! })
  assert.equal(keccak256(raw), hash)
  return raw
}

const codeHash = async (client: PublicClient, address: string) => keccak256((await client.getCode({ address: address as Hex }))!)

test('Canyon, Ecotone and Fjord activate after genesis: their upgrade deposits, the new oracle formulas, a follower agrees', { timeout: 120_000 }, async (t) => {
  const genesis = preEcotoneGenesis()
  const clock = new ManualScheduler((G + 1) * 1000)
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: clock },
  })
  const url = await served(t, node)
  await node.start()
  const client = createPublicClient({ transport: http(url) })
  const account = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const chain = { id: Number(node.rules.chainId), name: 'op', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } } as const
  const wallet = createWalletClient({ account, chain, transport: http(url) })
  /** Seals the open block and opens the next at `at` (seconds; the clock only moves forward). */
  const sealAt = async (at: number) => {
    if (clock.now() < at * 1000) clock.advance(at * 1000 - clock.now())
    await node.sequencer!.seal()
    return client.getBlock({ blockTag: 'latest', includeTransactions: true })
  }
  const pendingBlock = () => client.getBlock({ blockTag: 'pending', includeTransactions: true })

  const follower = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis,
    follow: { sealed: new SequencerClient(url), streamUrl: `${url.replace(/^http/, 'ws')}/flashblocks`, maxAgeMs: 3_600_000, now: () => clock.now() },
  })
  const followerUrl = await served(t, follower)
  await follower.start()
  const followerClient = createPublicClient({ transport: http(followerUrl) })

  // Block 1 (Regolith): the Bedrock L1-attributes call; the oracle is the pre-Ecotone one (no isEcotone()).
  const block1 = await sealAt(CANYON)
  assert.equal(block1.transactions.length, 1)
  assert.equal(block1.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES)
  assert.equal(await client.getCode({ address: CREATE2_DEPLOYER, blockNumber: 1n }), undefined, 'no create2Deployer before Canyon')
  await assert.rejects(client.readContract({ address: GPO, abi: gpoAbi, functionName: 'isEcotone', blockNumber: 1n }))

  // Block 2 (Canyon's first): the create2Deployer is installed.
  const block2 = await sealAt(ECOTONE)
  assert.equal(block2.timestamp, BigInt(CANYON))
  assert.equal(await codeHash(client, CREATE2_DEPLOYER), '0xb0550b5b431e30d38000efb7107aaa0ade03d48a7198a140edda9d27134468b2')

  // Block 3 (Ecotone's first) is open: its opening flashblock holds the L1-attributes deposit and the upgrade.
  const opening = await pendingBlock()
  assert.equal(opening.timestamp, BigInt(ECOTONE))
  assert.equal(opening.transactions.length, 7)
  const waiting = await wallet.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })
  await node.sequencer!.flashblock()
  const block3 = await sealAt(ECOTONE)
  assert.equal(block3.transactions.length, 7, 'no pool transaction in the fork\'s first block')
  assert.deepEqual(block3.transactions.map((tx) => tx.typeHex), Array(7).fill('0x7e'))
  assert.equal(block3.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES, 'the first Ecotone block still calls the Bedrock setL1BlockValues')
  assert.deepEqual(
    block3.transactions.slice(1).map((tx) => (tx as unknown as { sourceHash: Hex }).sourceHash),
    SPECS.ecotone.sourceHashes,
  )
  for (const tx of block3.transactions) assert.equal((await client.getTransactionReceipt({ hash: tx.hash })).status, 'success', `upgrade deposit ${tx.hash}`)
  assert.equal(await codeHash(client, SPECS.ecotone.l1Block.address), SPECS.ecotone.l1Block.codeHash)
  assert.equal(await codeHash(client, SPECS.ecotone.gasPriceOracle.address), SPECS.ecotone.gasPriceOracle.codeHash)
  assert.equal(await implementation(client, L1_BLOCK, 3n), SPECS.ecotone.l1Block.address.toLowerCase())
  assert.equal(await implementation(client, GPO, 3n), SPECS.ecotone.gasPriceOracle.address.toLowerCase())
  assert.equal(await implementation(client, L1_BLOCK, 2n), L1_BLOCK_IMPL)
  assert.ok(((await client.getCode({ address: BEACON_ROOTS })) ?? '0x').length > 2, 'the EIP-4788 contract is deployed')
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'isEcotone' }), true)
  assert.equal(await client.readContract({ address: L1_BLOCK, abi: versionAbi, functionName: 'version' }), '1.2.0')

  // Block 4: the Ecotone setL1BlockValuesEcotone call; the waiting transaction pays the Ecotone L1 fee.
  const block4 = await sealAt(ECOTONE + 1)
  assert.equal(block4.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_ECOTONE)
  assert.deepEqual(block4.transactions.slice(1).map((tx) => tx.hash), [waiting])
  const receipt4 = await client.getTransactionReceipt({ hash: waiting })
  assert.equal(receipt4.status, 'success')
  const l1Fee4 = BigInt((receipt4 as unknown as { l1Fee: Hex }).l1Fee)
  assert.ok(l1Fee4 > 0n)
  // The oracle adds 68 non-zero bytes for the signature: the same zero and non-zero counts as the signed bytes.
  const signed = await signedBytes(client, waiting)
  const bytes = Buffer.from(signed.slice(2), 'hex')
  const zeroes = bytes.filter((b) => b === 0).length
  const sameCounts = toHex(Buffer.concat([Buffer.alloc(zeroes), Buffer.alloc(bytes.length - zeroes - 68, 1)]))
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'getL1Fee', args: [sameCounts], blockNumber: 4n }), l1Fee4)

  // Block 5 (Fjord's first): the Ecotone-layout L1-attributes call, then Fjord's three upgrade deposits.
  const block5 = await sealAt(FJORD)
  assert.equal(block5.timestamp, BigInt(FJORD))
  assert.equal(block5.transactions.length, 4)
  assert.equal(block5.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_ECOTONE)
  assert.deepEqual(block5.transactions.slice(1).map((tx) => (tx as unknown as { sourceHash: Hex }).sourceHash), SPECS.fjord.sourceHashes)
  for (const tx of block5.transactions) assert.equal((await client.getTransactionReceipt({ hash: tx.hash })).status, 'success', `upgrade deposit ${tx.hash}`)
  assert.equal(await codeHash(client, SPECS.fjord.gasPriceOracle.address), SPECS.fjord.gasPriceOracle.codeHash)
  assert.equal(await implementation(client, GPO, 5n), SPECS.fjord.gasPriceOracle.address.toLowerCase())
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'isFjord' }), true)

  // Block 6: a small transfer pays Fjord's L1 fee (its size estimate at the 100-byte floor, as the oracle's).
  const sent = await wallet.sendTransaction({ to: RECEIVER, value: 2n, gas: 21_000n })
  await node.sequencer!.flashblock()
  await sealAt(FJORD)
  const receipt6 = await client.getTransactionReceipt({ hash: sent })
  assert.equal(receipt6.blockNumber, 6n)
  const l1Fee6 = BigInt((receipt6 as unknown as { l1Fee: Hex }).l1Fee)
  const unsigned = unsignedOf(await client.getTransaction({ hash: sent }))
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'getL1Fee', args: [unsigned], blockNumber: 6n }), l1Fee6)

  // The follower verified and holds the same blocks.
  await until('the follower at block 6', async () => ((await followerClient.getBlockNumber()) >= 6n ? true : undefined))
  for (let n = 1n; n <= 6n; n++) {
    assert.equal((await followerClient.getBlock({ blockNumber: n })).hash, (await client.getBlock({ blockNumber: n })).hash, `block ${n}`)
  }
  assert.equal(await codeHash(followerClient, SPECS.fjord.gasPriceOracle.address), SPECS.fjord.gasPriceOracle.codeHash)
  assert.equal(await followerClient.readContract({ address: GPO, abi: gpoAbi, functionName: 'isFjord' }), true)
})
