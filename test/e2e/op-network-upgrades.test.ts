/**
 * OP forks activating after genesis, through the public interface: a chain from a genesis file (Regolith at
 * genesis, Canyon, Ecotone, Fjord, Isthmus and Jovian a few seconds apart after it; the predeploys behind their Proxy as on a real OP
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
 * - Isthmus's first block: its eight upgrade deposits (the OperatorFeeVault behind its proxy, EIP-2935's
 *   contract), isIsthmus() true, and the next block's transfer pays the operator fee the oracle quotes (slot 8 of
 *   L1Block set at genesis) by Isthmus's formula; Jovian's first block: its five deposits, isJovian() true, and
 *   the operator fee by Jovian's formula after it. Each fork's next block calls its own L1-attributes layout.
 * - The follower ends on the same blocks (hashes) with the same code at the new addresses; a node importing the
 *   blocks' bytes accepts every one.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, keccak256, parseAbi, serializeTransaction, toFunctionSelector, toHex, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { serve } from '../../src/cli/serve.ts'
import { SequencerClient } from '../../src/follower/sequencer-client.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { tempDir } from '../support/temp-dir.ts'
import { until } from '../support/follower-kit.ts'
import { SOURCE_HASHES } from '../fixtures/op-upgrades/source-hashes.ts'

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/op-upgrades/bedrock-predeploys.json'), 'utf8')) as Record<
  'proxy' | 'l1Block' | 'gasPriceOracle',
  { runtimeCode: Hex }
>

const G = 1_800_000_000
const CANYON = G + 2
const ECOTONE = G + 4
const FJORD = G + 6
const ISTHMUS = G + 8
const JOVIAN = G + 10

const L1_BLOCK = '0x4200000000000000000000000000000000000015'
const GPO = '0x420000000000000000000000000000000000000f'
const PROXY_ADMIN = '0x4200000000000000000000000000000000000018'
const L1_BLOCK_IMPL = '0xc0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d30015'
const GPO_IMPL = '0xc0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3000f'
const OPERATOR_FEE_VAULT = '0x420000000000000000000000000000000000001b'
const HISTORY_STORAGE = '0x0000F90827F1C53a10cb7A02335B175320002935'
/** L1Block slot 8 as the genesis sets it (operatorFeeConstant u64 low, operatorFeeScalar u32 above). */
const OPERATOR_FEE_SCALAR = 1_000n
const OPERATOR_FEE_CONSTANT = 7_000n
const CREATE2_DEPLOYER = '0x13b0D85CcB8bf860b6b79AF3029fCA081AE9beF2'
const BEACON_ROOTS = '0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02'
/** EIP-1967's implementation and admin slots. */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'
const ADMIN_SLOT = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103'
const RECEIVER = '0x00000000000000000000000000000000000000bb'

/** What specs/protocol/ecotone/derivation.md and fjord/derivation.md (ethereum-optimism/specs, CC0) state. */
const SPECS = {
  ecotone: {
    sourceHashes: SOURCE_HASHES.ecotone,
    l1Block: { address: '0x07dbe8500fc591d1852B76feE44d5a05e13097Ff', codeHash: '0xc88a313aa75dc4fbf0b6850d9f9ae41e04243b7008cf3eadb29256d4a71c1dfd' },
    gasPriceOracle: { address: '0xb528D11cC114E026F138fE568744c6D45ce6Da7A', codeHash: '0x8b71360ea773b4cfaf1ae6d2bd15464a4e1e2e360f786e475f63aeaed8da0ae5' },
  },
  fjord: {
    sourceHashes: SOURCE_HASHES.fjord,
    gasPriceOracle: { address: '0xa919894851548179A0750865e7974DA599C0Fac7', codeHash: '0xa88fa50a2745b15e6794247614b5298483070661adacb8d32d716434ed24c6b2' },
  },
  isthmus: {
    sourceHashes: SOURCE_HASHES.isthmus,
    l1Block: { address: '0xFf256497D61dcd71a9e9Ff43967C13fdE1F72D12', codeHash: '0x8e3fe7a416d3e5f3b7be74ddd4e7e58e516fa3f80b67c6d930e3cd7297da4a4b' },
    gasPriceOracle: { address: '0x93e57A196454CB919193fa9946f14943cf733845', codeHash: '0x4d195a9d7caf9fb6d4beaf80de252c626c853afd5868c4f4f8d19c9d301c2679' },
    operatorFeeVault: { address: '0x4fa2Be8cd41504037F1838BcE3bCC93bC68Ff537', codeHash: '0x57dc55c9c09ca456fa728f253fe7b895d3e6aae0706104935fe87c7721001971' },
    historyStorageCodeHash: '0x6e49e66782037c0555897870e29fa5e552daf4719552131a0abce779daec0a5d',
  },
  /** Jovian: the source hashes of op-node's and Base's node's intents (base/base jovian.rs tests); the code hashes of specs/protocol/jovian/derivation.md. */
  jovian: {
    sourceHashes: SOURCE_HASHES.jovian,
    l1Block: { address: '0x3Ba4007f5C922FBb33C454B41ea7a1f11E83df2C', codeHash: '0x5f885ca815d2cf27a203123e50b8ae204fdca910b6995d90b2d7700cbb9240d1' },
    gasPriceOracle: { address: '0x4f1db3c6AbD250ba86E0928471A8F7DB3AFd88F1', codeHash: '0xe9fc7c96c4db0d6078e3d359d7e8c982c350a513cb2c31121adf5e1e8a446614' },
  },
} as const
/** The L1-attributes calls' selectors (the specs' layouts). */
const SET_L1_BLOCK_VALUES = toFunctionSelector('setL1BlockValues(uint64,uint64,uint256,bytes32,uint64,bytes32,uint256,uint256)')
const SET_L1_BLOCK_VALUES_ECOTONE = toFunctionSelector('setL1BlockValuesEcotone()')
const SET_L1_BLOCK_VALUES_ISTHMUS = toFunctionSelector('setL1BlockValuesIsthmus()')
const SET_L1_BLOCK_VALUES_JOVIAN = toFunctionSelector('setL1BlockValuesJovian()')

const gpoAbi = parseAbi([
  'function isEcotone() view returns (bool)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
  'function getOperatorFee(uint256) view returns (uint256)',
  'function getL1Fee(bytes) view returns (uint256)',
  'function version() view returns (string)',
])
const versionAbi = parseAbi(['function version() view returns (string)'])

const word = (v: bigint | string): Hex => toHex(BigInt(v), { size: 32 })

/** A pre-Ecotone OP chain: the dev accounts, L1Block and GasPriceOracle behind proxies, Bedrock's fee values. */
function preEcotoneGenesis(): GethGenesis {
  const g = testGenesis() as unknown as { config: Record<string, unknown>; alloc: Record<string, Record<string, unknown>>; timestamp: string; extraData: string }
  for (const key of ['cancunTime', 'pragueTime', 'osakaTime']) delete g.config[key]
  // No system contract at genesis: Ecotone deploys the beacon roots contract itself.
  for (const [address, entry] of Object.entries(g.alloc)) if (entry.code !== undefined) delete g.alloc[address]
  Object.assign(g.config, {
    shanghaiTime: CANYON,
    cancunTime: ECOTONE,
    pragueTime: ISTHMUS,
    bedrockBlock: 0,
    regolithTime: 0,
    canyonTime: CANYON,
    deltaTime: CANYON,
    ecotoneTime: ECOTONE,
    fjordTime: FJORD,
    graniteTime: ISTHMUS,
    holoceneTime: ISTHMUS,
    isthmusTime: ISTHMUS,
    jovianTime: JOVIAN,
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
    [word(8n)]: word((OPERATOR_FEE_SCALAR << 64n) | OPERATOR_FEE_CONSTANT), // read from Isthmus on
  })
  g.alloc[GPO] = proxy(GPO_IMPL)
  // A predeploy proxy with no implementation yet, as every unused 0x4200…00XX slot of a real OP genesis.
  g.alloc[OPERATOR_FEE_VAULT] = { balance: '0x0', code: fixture.proxy.runtimeCode, storage: { [ADMIN_SLOT]: word(PROXY_ADMIN) } }
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

/** The genesis with a block gas limit of `gasLimit`. */
function withGasLimit(genesis: GethGenesis, gasLimit: bigint): GethGenesis {
  return { ...genesis, gasLimit: toHex(gasLimit) } as GethGenesis
}

const codeHash = async (client: PublicClient, address: string) => keccak256((await client.getCode({ address: address as Hex }))!)

test('Canyon, Ecotone, Fjord, Isthmus and Jovian activate after genesis: their upgrade deposits, the new oracle formulas, a follower and an importer agree', { timeout: 120_000 }, async (t) => {
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
  /**
   * A transfer sealed in the next block (at `at`): its L1 fee equals the oracle's getL1Fee of its unsigned bytes
   * (a small transfer: both at Fjord's 100-byte floor), and the operator fee vault's gain equals the oracle's
   * getOperatorFee of its gas used.
   */
  const paidFees = async (at: number) => {
    const hash = await wallet.sendTransaction({ to: RECEIVER, value: 3n, gas: 21_000n })
    await node.sequencer!.flashblock()
    const block = await sealAt(at)
    const receipt = await client.getTransactionReceipt({ hash })
    assert.equal(receipt.blockNumber, block.number)
    const l1Fee = BigInt((receipt as unknown as { l1Fee: Hex }).l1Fee)
    const quoted = await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'getL1Fee', args: [unsignedOf(await client.getTransaction({ hash }))], blockNumber: block.number })
    assert.equal(l1Fee, quoted, 'the oracle\'s L1 fee')
    const vault = async (n: bigint) => client.getBalance({ address: OPERATOR_FEE_VAULT, blockNumber: n })
    const operatorFee = (await vault(block.number)) - (await vault(block.number - 1n))
    assert.equal(operatorFee, await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'getOperatorFee', args: [receipt.gasUsed], blockNumber: block.number }), 'the oracle\'s operator fee')
    return { block, gasUsed: receipt.gasUsed, operatorFee }
  }

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
  const deposit = await client.request({ method: 'flashnode_sendDeposit' as never, params: [{ from: RECEIVER, to: RECEIVER, mint: '0x64', value: '0x0', gas: '0x30000' }] as never }) as Hex
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
  assert.deepEqual(block4.transactions.slice(1).map((tx) => tx.hash), [deposit, waiting], 'the user deposit queued for the fork\'s first block, then the pool transaction, one block later')
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

  // Block 7 (Isthmus's first; Granite and Holocene too): the Ecotone-layout call, then Isthmus's eight deposits.
  const block7 = await sealAt(ISTHMUS)
  assert.equal(block7.timestamp, BigInt(ISTHMUS))
  assert.equal(block7.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_ECOTONE)
  assert.deepEqual(block7.transactions.slice(1).map((tx) => (tx as unknown as { sourceHash: Hex }).sourceHash), SPECS.isthmus.sourceHashes)
  for (const tx of block7.transactions) assert.equal((await client.getTransactionReceipt({ hash: tx.hash })).status, 'success', `upgrade deposit ${tx.hash}`)
  for (const [proxy, deployed] of [[L1_BLOCK, SPECS.isthmus.l1Block], [GPO, SPECS.isthmus.gasPriceOracle], [OPERATOR_FEE_VAULT, SPECS.isthmus.operatorFeeVault]] as const) {
    assert.equal(await codeHash(client, deployed.address), deployed.codeHash)
    assert.equal(await implementation(client, proxy, 7n), deployed.address.toLowerCase())
  }
  assert.equal(await codeHash(client, HISTORY_STORAGE), SPECS.isthmus.historyStorageCodeHash)
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'isIsthmus' }), true)

  // Block 8: the Isthmus-layout call; a transfer pays the L1 fee the oracle quotes and the operator fee it quotes.
  const fees8 = await paidFees(ISTHMUS)
  assert.equal(fees8.block.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_ISTHMUS)
  assert.ok(fees8.operatorFee > OPERATOR_FEE_CONSTANT)
  assert.equal(fees8.operatorFee, (fees8.gasUsed * OPERATOR_FEE_SCALAR) / 1_000_000n + OPERATOR_FEE_CONSTANT, 'Isthmus\'s operator fee formula')

  // Block 9 (Jovian's first): the Isthmus-layout call, then Jovian's five deposits.
  const block9 = await sealAt(JOVIAN)
  assert.equal(block9.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_ISTHMUS)
  assert.deepEqual(block9.transactions.slice(1).map((tx) => (tx as unknown as { sourceHash: Hex }).sourceHash), SPECS.jovian.sourceHashes)
  for (const tx of block9.transactions) assert.equal((await client.getTransactionReceipt({ hash: tx.hash })).status, 'success', `upgrade deposit ${tx.hash}`)
  for (const [proxy, deployed] of [[L1_BLOCK, SPECS.jovian.l1Block], [GPO, SPECS.jovian.gasPriceOracle]] as const) {
    assert.equal(await codeHash(client, deployed.address), deployed.codeHash)
    assert.equal(await implementation(client, proxy, 9n), deployed.address.toLowerCase())
  }
  assert.equal(await client.readContract({ address: GPO, abi: gpoAbi, functionName: 'isJovian' }), true)

  // Block 10: the Jovian-layout call; the operator fee by Jovian's formula.
  const fees10 = await paidFees(JOVIAN)
  assert.equal(fees10.block.transactions[0]!.input.slice(0, 10), SET_L1_BLOCK_VALUES_JOVIAN)
  assert.equal(fees10.operatorFee, fees10.gasUsed * OPERATOR_FEE_SCALAR * 100n + OPERATOR_FEE_CONSTANT, 'Jovian\'s operator fee formula')

  // The follower verified and holds the same blocks.
  const last = await client.getBlockNumber()
  await until(`the follower at block ${last}`, async () => ((await followerClient.getBlockNumber()) >= last ? true : undefined))
  for (let n = 1n; n <= last; n++) {
    assert.equal((await followerClient.getBlock({ blockNumber: n })).hash, (await client.getBlock({ blockNumber: n })).hash, `block ${n}`)
  }
  assert.equal(await codeHash(followerClient, SPECS.jovian.gasPriceOracle.address), SPECS.jovian.gasPriceOracle.codeHash)
  assert.equal(await followerClient.readContract({ address: GPO, abi: gpoAbi, functionName: 'isJovian' }), true)

  // A node importing the blocks' bytes (as `flashnode import` does) runs and checks them too.
  const importer = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis })
  t.after(() => importer.close())
  for (let n = 1n; n <= last; n++) {
    const raw = await client.request({ method: 'debug_getRawBlock' as never, params: [toHex(n)] as never }) as Hex
    assert.equal((await importer.writer.importRlp(Buffer.from(raw.slice(2), 'hex'))).imported, 1, `import of block ${n}`)
  }
  assert.equal(importer.chain.head(), last)
})

test('a fork\'s first block whose gas limit cannot hold its upgrade deposits is refused, not built without them', async (t) => {
  const clock = new ManualScheduler((G + 1) * 1000)
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: withGasLimit(preEcotoneGenesis(), 2_500_000n),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: clock },
  })
  t.after(() => node.close())
  await node.start()
  clock.advance((ECOTONE - G - 1) * 1000)
  await assert.rejects(node.sequencer!.seal(), /network-upgrade deposits need 1805000 gas beside the L1-attributes deposit: more than the gas limit 2500000/)
})
