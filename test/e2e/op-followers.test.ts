/**
 * Followers of an OP Stack sequencer, as a user runs them: real processes on loopback started through the
 * CLI. An `--op-stack` sequencer sealing by hand, followers started `--op-stack --follow URL` with the same
 * chain options: user deposits (flashnode_sendDeposit, to the sequencer or forwarded to it by a follower) and
 * transactions sent through a follower show pre-confirmed alike on the follower and the sequencer (the
 * pending block, its receipts, balances after the L1 fee and the operator fee, the fee vaults); once sealed, every block, its receipts (with the OP keys:
 * depositNonce, l1Fee, …), balances and nonces are equal on all nodes. A follower started empty catches up
 * through the sealed OP blocks, one killed with kill -9 restarts and agrees. A follower whose chain is not an
 * OP chain (or the other way round) is refused at its start, saying so. The same through JetStream
 * (`--stream nats://…` on both; skipped, saying so, without nats-server). Nothing sleeps for a tick.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWalletClient, defineChain, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainConfig } from 'viem/op-stack'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { BASE_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS, SEQUENCER_FEE_VAULT_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'
import { agreeUpTo, head, until } from '../support/follower-kit.ts'
import { parseExposition, samplesOf } from '../support/prometheus-text.ts'
import { needsTool } from '../support/debian-tool.ts'
import { startNatsServer } from '../support/nats-server.ts'

const ACCOUNTS = devAccounts(3)
const RECEIVER = '0x00000000000000000000000000000000000000bb'
/** Funded by deposits only: its balance is what the deposits minted, less what it sent on. */
const DEPOSITOR = '0x00000000000000000000000000000000000d0d0d'
const VAULTS = [SEQUENCER_FEE_VAULT_ADDRESS, BASE_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS]
const WATCHED = [RECEIVER, DEPOSITOR, ...VAULTS, ...ACCOUNTS.map((a) => a.address)]

/** The chain options every node of the chain is started with (an operator fee, so its vault moves too). */
function chainOptions(dir: string): string[] {
  const file = join(dir, 'l1.json')
  writeFileSync(file, JSON.stringify({ operatorFeeScalar: '1000', operatorFeeConstant: '7000' }))
  return ['--op-stack', '--op-l1', file]
}

async function follower(t: TestContext, sequencer: NodeProcess, options: string[], dataDir = tempDir(t)): Promise<NodeProcess> {
  return spawnNode(t, ['--datadir', dataDir, ...options, '--follow', sequencer.url, '--ready-max-age', '60000', '--log-level', 'warn', '--log-format', 'json'])
}

interface Block {
  number: Hex
  transactions: { hash: Hex; type: Hex }[]
}

const pendingBlock = (url: string) => rpc<Block>(url, 'eth_getBlockByNumber', ['pending', true])

/** What a client reads of the pending block on a node: the block, its receipts, and the watched balances. */
async function pendingView(url: string): Promise<unknown> {
  const block = await pendingBlock(url)
  const receipts = await Promise.all(block.transactions.map((tx) => rpc(url, 'eth_getTransactionReceipt', [tx.hash])))
  const balances = await Promise.all(WATCHED.map((a) => rpc(url, 'eth_getBalance', [a, 'pending'])))
  return { block, receipts, balances }
}

async function counter(url: string, name: string): Promise<number> {
  const family = parseExposition(await (await fetch(`${url}/metrics`)).text()).get(name)
  return family === undefined ? 0 : (samplesOf(family)[0]?.value ?? 0)
}

const deposit = (url: string, mint: bigint, value: bigint, to: string = RECEIVER) =>
  rpc<Hex>(url, 'flashnode_sendDeposit', [{ from: DEPOSITOR, to, mint: `0x${mint.toString(16)}`, value: `0x${value.toString(16)}`, gas: '0x30000' }])

test('an OP sequencer\'s followers: deposits and transactions pre-confirmed alike, equal sealed blocks with the OP receipt keys, a late follower and a kill -9', { timeout: 240_000 }, async (t) => {
  const options = chainOptions(tempDir(t))
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), ...options, '--sealing', 'manual', '--log-level', 'warn'])
  const mine = () => rpc(sequencer.url, 'evm_mine')
  const flashblock = () => rpc(sequencer.url, 'flashnode_flashblock')
  const firstDir = tempDir(t)
  const first = await follower(t, sequencer, options, firstDir)
  const chain = defineChain({
    ...chainConfig,
    id: Number(await rpc<string>(sequencer.url, 'eth_chainId')),
    name: 'flashnode --op-stack',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [first.url] } },
  })
  // The follower has joined once it shows the open block the sequencer shows (its L1-attributes deposit).
  const joined = async (url: string) => {
    const expected = (await pendingBlock(sequencer.url)).number
    await until(`${url} to show the open block ${expected}`, async () => ((await pendingBlock(url)).number === expected ? true : undefined))
  }

  // A user deposit queued for the next block, then transactions sent through the follower into that block.
  const minted = await deposit(sequencer.url, 10n ** 18n, 5n)
  await mine()
  await joined(first.url)
  const wallet = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex), chain, transport: http(first.url, { retryCount: 0 }) })
  const sent: Hex[] = []
  for (let i = 0; i < 3; i++) sent.push(await wallet.sendTransaction({ to: RECEIVER, value: 1000n + BigInt(i), data: '0x0102030405', gas: 50_000n }))
  await flashblock()
  for (const h of sent) await until(`receipt of ${h} on the follower`, async () => (await rpc(first.url, 'eth_getTransactionReceipt', [h])) ?? undefined)
  const pending = await pendingBlock(first.url)
  assert.deepEqual(pending.transactions.map((tx) => tx.type), ['0x7e', '0x7e', '0x2', '0x2', '0x2'], 'the L1-attributes deposit, the user deposit, then the transactions')
  assert.equal(pending.transactions[1]!.hash, minted, 'the deposit under the hash flashnode_sendDeposit answered')
  assert.deepEqual(await pendingView(first.url), await pendingView(sequencer.url), 'the same pending block, receipts and balances (after the L1 and operator fees) on both')
  assert.ok(BigInt(await rpc<string>(first.url, 'eth_getBalance', [OPERATOR_FEE_VAULT_ADDRESS, 'pending'])) > 0n, 'the operator fee was charged')
  const fetchedBefore = await counter(first.url, 'flashnode_follower_fetched_blocks_total')
  const sealing = Number(pending.number)
  await mine()
  // The follower sealed the block from the stream itself: every root and the hash checked out (a mismatch
  // is counted and the block refetched from the sequencer instead).
  await until('the follower to seal the block', async () => ((await head(first.url)) >= BigInt(sealing) ? true : undefined))
  assert.equal(await counter(first.url, 'flashnode_follower_seal_mismatches_total'), 0, 'no sealed block mismatched')
  assert.equal(await counter(first.url, 'flashnode_follower_fetched_blocks_total'), fetchedBefore, 'the block was not fetched: built from the stream')

  // A follower started empty after the chain has OP blocks catches up through them (each re-executed).
  const late = await follower(t, sequencer, options)
  const sealedSoFar = await head(sequencer.url)
  await until('the late follower to catch up', async () => ((await head(late.url)) >= sealedSoFar ? true : undefined))

  // kill -9 the first follower; a deposit and transactions meanwhile (through the late one, which forwards
  // the deposit to its sequencer and answers the sequencer's hash); restart it.
  await first.kill9()
  const again = await deposit(late.url, 3n * 10n ** 17n, 0n, DEPOSITOR)
  await mine()
  const opened = await pendingBlock(sequencer.url)
  assert.deepEqual(opened.transactions.map((tx) => [tx.type, tx.hash]).slice(1), [['0x7e', again]], 'the forwarded deposit opens the next block under the hash the follower answered')
  await joined(late.url)
  const wallet2 = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[2]!.privateKey as Hex), chain: { ...chain, rpcUrls: { default: { http: [late.url] } } }, transport: http(late.url, { retryCount: 0 }) })
  for (let i = 0; i < 2; i++) sent.push(await wallet2.sendTransaction({ to: RECEIVER, value: 7n, gas: 50_000n }))
  await flashblock()
  const restarted = await follower(t, sequencer, options, firstDir)
  await mine()

  const last = await head(sequencer.url)
  for (const url of [late.url, restarted.url]) await until(`block ${last} on ${url}`, async () => ((await head(url)) >= last ? true : undefined))
  await agreeUpTo([sequencer.url, late.url, restarted.url], last, WATCHED)
  // The sealed receipts carry the OP keys on every node (equal, per agreeUpTo): a deposit's nonce and version,
  // a transaction's L1 fee and operator fee.
  for (const url of [late.url, restarted.url]) {
    const depositReceipt = await rpc<Record<string, string>>(url, 'eth_getTransactionReceipt', [again])
    assert.equal(depositReceipt.depositReceiptVersion, '0x1')
    assert.ok(depositReceipt.depositNonce !== undefined)
    const receipt = await rpc<Record<string, string>>(url, 'eth_getTransactionReceipt', [sent.at(-1)])
    assert.ok(BigInt(receipt.l1Fee!) > 0n && BigInt(receipt.operatorFeeConstant!) === 7000n, `${url}: l1Fee ${receipt.l1Fee}, operatorFeeConstant ${receipt.operatorFeeConstant}`)
  }
})

test('a follower and its sequencer that disagree on being an OP chain: refused at the start, saying so', { timeout: 120_000 }, async (t) => {
  const options = chainOptions(tempDir(t))
  const opSequencer = await spawnNode(t, ['--datadir', tempDir(t), ...options, '--sealing', 'manual', '--log-level', 'warn'])
  await assert.rejects(follower(t, opSequencer, []), /runs an OP Stack chain .* start the follower with --op-stack/)
  const ethSequencer = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--log-level', 'warn'])
  await assert.rejects(follower(t, ethSequencer, options), /runs an Ethereum chain and this data directory's is an OP Stack chain/)
})

test('an OP follower through JetStream: the deposits and transactions from the broker, the sealed block built and checked', { ...needsTool('nats-server', 'nats-server'), timeout: 120_000 }, async (t) => {
  const options = chainOptions(tempDir(t))
  const broker = await startNatsServer(t)
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), ...options, '--sealing', 'manual', '--stream', broker.url, '--log-level', 'warn'])
  const f = await follower(t, sequencer, [...options, '--stream', broker.url])
  const minted = await deposit(sequencer.url, 10n ** 18n, 5n)
  await rpc(sequencer.url, 'evm_mine')
  await until('the follower to show the open block with the deposit', async () => ((await pendingBlock(f.url)).transactions.some((tx) => tx.hash === minted) ? true : undefined))
  assert.deepEqual(await pendingView(f.url), await pendingView(sequencer.url))
  const fetchedBefore = await counter(f.url, 'flashnode_follower_fetched_blocks_total')
  await rpc(sequencer.url, 'evm_mine')
  const last = await head(sequencer.url)
  await until(`block ${last} on the follower`, async () => ((await head(f.url)) >= last ? true : undefined))
  assert.equal(await counter(f.url, 'flashnode_follower_fetched_blocks_total'), fetchedBefore, 'built from the stream, not fetched')
  assert.equal(await counter(f.url, 'flashnode_follower_seal_mismatches_total'), 0)
  await agreeUpTo([sequencer.url, f.url], last, WATCHED)
})
