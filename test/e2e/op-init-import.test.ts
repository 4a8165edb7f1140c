/**
 * An OP Stack chain's files through the CLI, as an operator moves a chain (issue 41): a node started from a
 * geth-format genesis FILE with an `optimism` section (not the --op-stack flag) builds blocks holding the
 * L1-attributes deposit, user deposits (a mint, a contract creation, a reverting call) and user transactions
 * (an EIP-1559 and a legacy transfer, a call of the L2ToL1MessagePasser that changes Isthmus's withdrawals
 * root); its blocks are exported with debug_getRawBlock into one RLP file (geth's export format: blocks back
 * to back); `flashnode init --genesis FILE` makes a fresh data directory of the same genesis and `flashnode
 * import FILE` re-executes and checks every block. A read-only node on the imported directory then answers,
 * through viem's OP Stack formatters, the same blocks (hashes, state and withdrawals roots), the same
 * receipts with their OP fields (depositNonce and depositReceiptVersion on deposits; l1Fee, l1GasUsed,
 * l1GasPrice, l1BaseFeeScalar … on the others), the same raw receipts and the same balances at every block.
 *
 * Two genesis files: the CLI's OP dev genesis written out, with a word put into the L2ToL1MessagePasser's
 * storage, so that op-geth's Isthmus genesis rule (the header's withdrawalsRoot is that contract's storage
 * root, not the empty trie's) shows in the genesis hash both nodes compute and is checked against the root
 * eth_getProof walks; and a devnet genesis of op-node's form from Base's repository (MIT; test/fixtures/
 * base-builder-genesis: unprefixed alloc addresses, L1Block behind its proxy, no message passer).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, getContractAddress, http, parseAbi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainConfig } from 'viem/op-stack'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { parseCommandLine } from '../../src/cli/options.ts'
import { chooseGenesis } from '../../src/cli/chain-setup.ts'
import { L2_TO_L1_MESSAGE_PASSER_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import { FROM_SOURCES, REPO_ROOT, spawnNode } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'

const cli = (args: string[]) => spawnSync(process.execPath, [...FROM_SOURCES, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 })

const DEPOSITOR = '0x00000000000000000000000000000000000000d0' as const
const RECEIVER = '0x0000000000000000000000000000000000000ccc' as const
/** Init code whose runtime always reverts (PUSH5 60006000fd, MSTORE at 0, RETURN its 5 bytes). */
const REVERTER_INIT = '0x6460006000fd6000526005601bf3' as const
const MESSAGE_PASSER_ABI = parseAbi(['function initiateWithdrawal(address _target, uint256 _gasLimit, bytes _data) payable'])

/** The CLI's OP dev genesis written out as a file an operator would hand over, with a word in the message passer's storage. */
function genesisFile(dir: string): string {
  const { options } = parseCommandLine('start', ['--op-stack', '--accounts', '2'])
  const genesis = chooseGenesis(options).genesis as unknown as { alloc: Record<string, { storage?: Record<string, string> }> }
  const passer = Object.keys(genesis.alloc).find((a) => a.toLowerCase() === L2_TO_L1_MESSAGE_PASSER_ADDRESS.toLowerCase())!
  genesis.alloc[passer]!.storage = { ...genesis.alloc[passer]!.storage, ['0x' + 'ab'.repeat(32)]: '0x' + '00'.repeat(31) + '01' }
  const file = join(dir, 'op-genesis.json')
  writeFileSync(file, JSON.stringify(genesis, (_k, v: unknown) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v), 1))
  return file
}

/** Base's builder test genesis with its timestamp filled in, as its harness does. */
function baseBuilderGenesis(dir: string): string {
  const text = readFileSync(new URL('../fixtures/base-builder-genesis/genesis.json.tmpl', import.meta.url), 'utf8')
  const file = join(dir, 'base-genesis.json')
  writeFileSync(file, text.replace('"timestamp": ""', '"timestamp": "0x0"'))
  return file
}

const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

test('an OP chain from a genesis file exported block by block, then init and import: the same blocks, receipts with OP fields and balances', { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t)
  await exportInitImport(t, dir, genesisFile(dir), { chainId: 31337, messagePasser: true })
})

test("the same with a devnet genesis of op-node's form from Base's repository", { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t)
  await exportInitImport(t, dir, baseBuilderGenesis(dir), { chainId: 901, messagePasser: false })
})

async function exportInitImport(t: TestContext, dir: string, genesis: string, expect: { chainId: number; messagePasser: boolean }): Promise<void> {
  // The sequencer's L1 values (this genesis's L1Block holds none; op-node would bring them from L1).
  const l1 = join(dir, 'l1.json')
  writeFileSync(l1, JSON.stringify({ l1BaseFee: '7000000000', l1BlobBaseFee: 3, baseFeeScalar: 2269, blobBaseFeeScalar: 1055762, operatorFeeScalar: 0, operatorFeeConstant: 0 }))
  const a = await spawnNode(t, ['--genesis', genesis, '--op-l1', l1, '--datadir', join(dir, 'a'), '--sealing', 'manual', '--no-ui'])
  const chain = defineChain({ ...chainConfig, id: expect.chainId, name: 'op-file', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [a.url] } } })
  const rpc = async (url: string, method: string, params: unknown[]): Promise<unknown> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    const body = (await res.json()) as { result?: unknown; error?: unknown }
    assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`)
    return body.result
  }
  const clientA = createPublicClient({ chain, transport: http(a.url) })
  const account = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const wallet = createWalletClient({ account, chain, transport: http(a.url) })
  const deposit = (fields: Record<string, unknown>) => rpc(a.url, 'flashnode_sendDeposit', [{ from: DEPOSITOR, gas: '0x30000', ...fields }])
  const mine = () => rpc(a.url, 'evm_mine', [])

  // A transfer; a mint, a contract creation by deposit, an EIP-1559 call of the message passer; a reverting
  // deposit that still mints, a legacy transfer. A deposit goes into the block after the open one.
  await wallet.sendTransaction({ to: RECEIVER, value: 1_000n })
  await mine()
  await deposit({ to: RECEIVER, mint: '0xde0b6b3a7640000', value: '0x10' })
  await deposit({ isCreation: true, data: REVERTER_INIT })
  const reverter = getContractAddress({ from: DEPOSITOR, nonce: 1n })
  await wallet.sendTransaction({ to: L2_TO_L1_MESSAGE_PASSER_ADDRESS, value: 5_000n, data: encodeFunctionData({ abi: MESSAGE_PASSER_ABI, functionName: 'initiateWithdrawal', args: [RECEIVER, 100_000n, '0x1234'] }) })
  await mine()
  await deposit({ to: reverter, mint: '0x100', value: '0x1' })
  await wallet.sendTransaction({ to: RECEIVER, value: 7n, type: 'legacy', gasPrice: 3_000_000_000n })
  await mine()
  await mine()
  const head = await clientA.getBlockNumber()
  assert.equal(head, 4n)

  // Export: every block after genesis, back to back, as geth's `export` writes them.
  const raw: string[] = []
  for (let n = 1n; n <= head; n++) raw.push(((await rpc(a.url, 'debug_getRawBlock', [`0x${n.toString(16)}`])) as string).slice(2))
  const exported = join(dir, 'op-chain.rlp')
  writeFileSync(exported, Buffer.from(raw.join(''), 'hex'))

  const b = join(dir, 'b')
  const init = cli(['init', '--genesis', genesis, '--datadir', b])
  assert.equal(init.status, 0, init.stderr)
  const genesisA = await clientA.getBlock({ blockNumber: 0n })
  assert.match(init.stdout, new RegExp(`genesis ${genesisA.hash}`), 'init computes the genesis hash the running node has')
  const imported = cli(['import', '--datadir', b, exported])
  assert.equal(imported.status, 0, imported.stderr)
  assert.match(imported.stdout, new RegExp(`imported ${head}, skipped 0 known, head ${head} \\(`))
  const again = cli(['import', '--datadir', b, exported])
  assert.equal(again.status, 0, again.stderr)
  assert.match(again.stdout, new RegExp(`imported 0, skipped ${head} known`))

  const replica = await spawnNode(t, ['--datadir', b, '--read-only', '--no-ui'])
  const clientB = createPublicClient({ chain, transport: http(replica.url) })

  // Isthmus at genesis: the genesis header's withdrawalsRoot is the message passer's storage root (op-geth's rule).
  const passerProof = await clientA.getProof({ address: L2_TO_L1_MESSAGE_PASSER_ADDRESS, storageKeys: [], blockNumber: 0n })
  assert.equal(genesisA.withdrawalsRoot, passerProof.storageHash)
  if (expect.messagePasser) assert.notEqual(genesisA.withdrawalsRoot, EMPTY_TRIE_ROOT, 'not the empty trie: the genesis storage word counts')
  else assert.equal(genesisA.withdrawalsRoot, EMPTY_TRIE_ROOT, 'no message passer: an empty storage root')

  const addresses = [account.address, DEPOSITOR, RECEIVER, reverter, L2_TO_L1_MESSAGE_PASSER_ADDRESS, chain.contracts.gasPriceOracle.address,
    '0x4200000000000000000000000000000000000011', '0x4200000000000000000000000000000000000019', '0x420000000000000000000000000000000000001a', '0x420000000000000000000000000000000000001b'] as const
  let deposits = 0
  let userTxs = 0
  for (let n = 0n; n <= head; n++) {
    const [blockA, blockB] = [await clientA.getBlock({ blockNumber: n, includeTransactions: true }), await clientB.getBlock({ blockNumber: n, includeTransactions: true })]
    assert.deepEqual(blockB, blockA, `block ${n}`)
    const [receiptsA, receiptsB] = [await clientA.request({ method: 'eth_getBlockReceipts', params: [`0x${n.toString(16)}`] } as never), await clientB.request({ method: 'eth_getBlockReceipts', params: [`0x${n.toString(16)}`] } as never)]
    assert.deepEqual(receiptsB, receiptsA, `receipts of block ${n}`)
    assert.deepEqual(await rpc(replica.url, 'debug_getRawReceipts', [`0x${n.toString(16)}`]), await rpc(a.url, 'debug_getRawReceipts', [`0x${n.toString(16)}`]), `raw receipts of block ${n}`)
    for (const tx of blockA.transactions) {
      const receipt = await clientB.getTransactionReceipt({ hash: tx.hash })
      assert.deepEqual(receipt, await clientA.getTransactionReceipt({ hash: tx.hash }))
      if (tx.type === 'deposit') {
        deposits++
        assert.equal(typeof (receipt as unknown as { depositNonce?: unknown }).depositNonce, 'bigint', `a deposit's receipt has its depositNonce (${tx.hash})`)
        assert.equal((receipt as unknown as { depositReceiptVersion?: unknown }).depositReceiptVersion, 1)
      } else {
        userTxs++
        assert.ok(receipt.l1Fee !== null && receipt.l1Fee > 0n, `a user transaction's receipt has its l1Fee (${tx.hash})`)
        assert.ok(receipt.l1GasUsed !== null && receipt.l1GasUsed > 0n)
      }
    }
    for (const address of addresses) {
      assert.equal(await clientB.getBalance({ address, blockNumber: n }), await clientA.getBalance({ address, blockNumber: n }), `balance of ${address} at ${n}`)
    }
  }
  assert.equal(deposits, 4 + 3, 'an L1-attributes deposit in each of the 4 blocks and the 3 user deposits')
  assert.equal(userTxs, 3)
  const all = []
  for (let n = 1n; n <= head; n++) all.push(...(await clientB.getBlock({ blockNumber: n, includeTransactions: true })).transactions)
  const failed = all.find((tx) => tx.type === 'deposit' && tx.to?.toLowerCase() === reverter.toLowerCase())!
  assert.equal((await clientB.getTransactionReceipt({ hash: failed.hash })).status, 'reverted', 'the reverting deposit is in the chain as a failed one')
  assert.ok((await clientB.getBalance({ address: DEPOSITOR })) >= 10n ** 18n, 'the mints stay, the failed deposit\'s included')
  const withdrawalsRoots = new Set<string>()
  for (let n = 0n; n <= head; n++) withdrawalsRoots.add((await clientB.getBlock({ blockNumber: n })).withdrawalsRoot!)
  assert.equal(withdrawalsRoots.size, expect.messagePasser ? 2 : 1, 'initiateWithdrawal changed the withdrawals root once (where the contract is)')
}
