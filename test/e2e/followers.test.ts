/**
 * Followers as a user runs them: real processes on loopback, started through the CLI. A sequencer sealing
 * by hand (`flashnode start --sealing manual`: flashnode_flashblock and evm_mine) and followers (`flashnode
 * start --follow URL`): viem sends through a follower; every transaction shows pre-confirmed through `pending` on the
 * followers; after sealing, blocks, receipts, balances and storage are equal on all nodes at every block; a
 * follower started empty after the chain has blocks catches up; one killed with kill -9 mid-stream and
 * restarted catches up and agrees. Nothing sleeps for a tick: each step waits for what it needs to see.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'
import { agreeUpTo, head, rawCall, until } from '../support/follower-kit.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startFaultRelay } from '../support/fault-relay.ts'
import { fuzzSeed, reproduce, Rng } from '../support/rng.ts'
import { parseExposition, samplesOf } from '../support/prometheus-text.ts'

const ACCOUNTS = devAccounts(3)
const RECEIVER = '0x00000000000000000000000000000000000000bb'
/** Whose balances and nonces must agree at every block. */
const WATCHED = [RECEIVER, ...ACCOUNTS.map((a) => a.address)]

/** A follower process; its pending state stays fresh for a minute (the sequencer here is sealed by hand). */
async function follower(t: TestContext, sequencer: NodeProcess, dataDir = tempDir(t), logLevel = 'warn'): Promise<NodeProcess> {
  return spawnNode(t, ['--datadir', dataDir, '--follow', sequencer.url, '--ready-max-age', '60000', '--log-level', logLevel, '--log-format', 'json'])
}

test('followers: sends through a follower, pre-confirmed on every follower, equal sealed blocks, a late follower and a kill -9', { timeout: 240_000 }, async (t) => {
  // Manual sealing: a flashblock or a block comes only when asked, so "pre-confirmed, not sealed" is a state
  // the test holds, not a moment it hopes to catch.
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--log-level', 'warn'])
  const flashblock = () => rpc(sequencer.url, 'flashnode_flashblock')
  const mine = () => rpc(sequencer.url, 'evm_mine')
  const firstDir = tempDir(t)
  const first = await follower(t, sequencer, firstDir)
  // Its start says what it is: a follower of that sequencer (not a read-only node whose pending is its latest).
  assert.equal(await first.printed(/^(Following \S+?):? /m), `Following ${sequencer.url.replace(/\/$/, '')}`)
  const wallet = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(first.url, { retryCount: 0 }) })
  const hashes: Hex[] = []
  for (let i = 0; i < 5; i++) hashes.push(await wallet.sendTransaction({ to: RECEIVER, value: 1000n + BigInt(i), gas: 21_000n }))
  const before = await head(sequencer.url)
  await flashblock()
  for (const h of hashes) await until(`receipt of ${h} on the follower`, async () => (await rpc(first.url, 'eth_getTransactionReceipt', [h])) ?? undefined)
  assert.equal(await head(sequencer.url), before, 'pre-confirmed, not sealed')
  assert.equal(await head(first.url), before)
  assert.equal(await rpc(first.url, 'eth_getTransactionCount', [ACCOUNTS[1]!.address, 'pending']), '0x5')
  assert.deepEqual(await rpc(first.url, 'eth_getBlockByNumber', ['pending', true]), await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true]))
  // A refusal comes back as the sequencer gave it: the same code, message and data for the same bytes.
  const raw = await wallet.signTransaction({ to: RECEIVER, value: 1n, gas: 21_000n, nonce: 0, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })
  const refusedThere = await rawCall(sequencer.url, 'eth_sendRawTransaction', [raw])
  const refusedHere = await rawCall(first.url, 'eth_sendRawTransaction', [raw])
  assert.ok(refusedThere.error !== undefined)
  assert.deepEqual(refusedHere.error, refusedThere.error)
  const forwarded = parseExposition(await (await fetch(`${first.url}/metrics`)).text()).get('flashnode_follower_forwarded_transactions_total')!
  assert.deepEqual([samplesOf(forwarded, { result: 'accepted' })[0]?.value, samplesOf(forwarded, { result: 'refused' })[0]?.value], [5, 1])
  // base_transactionStatus and a sync send behind a nonce gap answer as the sequencer does.
  assert.deepEqual(await rawCall(first.url, 'base_transactionStatus', [hashes[0]]), await rawCall(sequencer.url, 'base_transactionStatus', [hashes[0]]))
  const gapped = await wallet.signTransaction({ to: RECEIVER, value: 1n, gas: 21_000n, nonce: 9, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })
  const syncHere = await rawCall(first.url, 'eth_sendRawTransactionSync', [gapped])
  assert.equal(syncHere.error?.code, 5, 'the sequencer\'s code 5 (behind a nonce gap), passed through')
  // A sync send through the follower answers with the receipt once pre-confirmed, and the follower has it.
  const syncing = rawCall(first.url, 'eth_sendRawTransactionSync', [await wallet.signTransaction({ to: RECEIVER, value: 1n, gas: 21_000n, nonce: 5, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })])
  await until('the sync send to reach the sequencer', async () => ((await rpc<string>(sequencer.url, 'eth_getTransactionCount', [ACCOUNTS[1]!.address, 'pending'])) === '0x6' ? true : undefined))
  await flashblock()
  const receipt = (await syncing).result as { transactionHash: Hex; status: string }
  assert.equal(receipt.status, '0x1')
  assert.deepEqual(await rpc(first.url, 'eth_getTransactionReceipt', [receipt.transactionHash]), receipt)
  hashes.push(receipt.transactionHash)
  await mine()
  await mine()

  // A follower started empty after the chain has blocks: it catches up, then follows.
  const late = await follower(t, sequencer, tempDir(t), 'info')
  const sealedSoFar = await head(sequencer.url)
  await until('the late follower to catch up', async () => ((await head(late.url)) >= sealedSoFar ? true : undefined))
  // Its catch-up's progress, as log lines (standard error is not a terminal here): the last says done.
  const progress = await until('the catch-up\'s last progress line', async () =>
    late.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; job?: string; done?: number; total?: number }).find((l) => l.job === 'catch up with the sequencer' && l.msg === 'done'),
  )
  assert.equal(progress.done, progress.total)
  assert.equal(BigInt(progress.total!), sealedSoFar)

  // kill -9 the first follower, send more through the late one, restart the first on its database.
  await first.kill9()
  const wallet2 = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[2]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(late.url, { retryCount: 0 }) })
  for (let i = 0; i < 3; i++) hashes.push(await wallet2.sendTransaction({ to: RECEIVER, value: 7n, gas: 21_000n }))
  await flashblock()
  for (const h of hashes.slice(5)) await until(`receipt of ${h} on the late follower`, async () => (await rpc(late.url, 'eth_getTransactionReceipt', [h])) ?? undefined)
  const restarted = await follower(t, sequencer, firstDir)
  for (const h of hashes.slice(5)) await until(`receipt of ${h} on the restarted follower`, async () => (await rpc(restarted.url, 'eth_getTransactionReceipt', [h])) ?? undefined)
  await mine()

  const last = await head(sequencer.url)
  for (const url of [late.url, restarted.url]) await until(`block ${last} on ${url}`, async () => ((await head(url)) >= last ? true : undefined))
  await agreeUpTo([sequencer.url, late.url, restarted.url], last, WATCHED)
  assert.equal(BigInt(await rpc<string>(restarted.url, 'eth_getBalance', [RECEIVER, 'latest'])), 5n * 1000n + 10n + 1n + 21n)
})

const readyz = async (url: string): Promise<{ status: number; reason: string }> => {
  const res = await fetch(`${url.replace(/\/$/, '')}/readyz`)
  return { status: res.status, reason: ((await res.json()) as { reason: string }).reason }
}

test('the sequencer stopped and restarted: followers are not ready meanwhile, then resume without divergence', { timeout: 240_000 }, async (t) => {
  const sequencerDir = tempDir(t)
  let sequencer = await spawnNode(t, ['--datadir', sequencerDir, '--sealing', 'manual', '--log-level', 'warn'])
  const port = new URL(sequencer.url).port
  const f = await follower(t, sequencer)
  const wallet = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(f.url, { retryCount: 0 }) })
  const sent = [await wallet.sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })]
  await rpc(sequencer.url, 'flashnode_flashblock')
  await until('the follower to see it pre-confirmed', async () => (await rpc(f.url, 'eth_getTransactionReceipt', [sent[0]])) ?? undefined)
  assert.equal((await readyz(f.url)).status, 200)

  await sequencer.stop()
  const down = await until('the follower to report not ready', async () => {
    const r = await readyz(f.url)
    return r.status === 503 ? r : undefined
  })
  assert.match(down.reason, /not connected/)
  // A transaction sent meanwhile gets a clear error, within the forwarding deadline (5 s), never a hang.
  const started = Date.now()
  const lost = await rawCall(f.url, 'eth_sendRawTransaction', [await wallet.signTransaction({ to: RECEIVER, value: 3n, gas: 21_000n, nonce: 1, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n })])
  assert.match(lost.error?.message ?? '', /the sequencer did not take the transaction: sequencer at .* unreachable/)
  assert.ok(Date.now() - started < 6_000)

  // Restarted on the same port and data directory: it resumes its open block from its journal.
  sequencer = await spawnNode(t, ['--datadir', sequencerDir, '--sealing', 'manual', '--log-level', 'warn', '--port', port])
  await until('the follower to be ready again', async () => ((await readyz(f.url)).status === 200 ? true : undefined))
  sent.push(await wallet.sendTransaction({ to: RECEIVER, value: 2n, gas: 21_000n }))
  await rpc(sequencer.url, 'flashnode_flashblock')
  await until('the second transaction pre-confirmed on the follower', async () => (await rpc(f.url, 'eth_getTransactionReceipt', [sent[1]])) ?? undefined)
  assert.deepEqual(await rpc(f.url, 'eth_getBlockByNumber', ['pending', true]), await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true]))
  await rpc(sequencer.url, 'evm_mine')
  const last = await head(sequencer.url)
  await until(`block ${last} on the follower`, async () => ((await head(f.url)) >= last ? true : undefined))
  await agreeUpTo([sequencer.url, f.url], last, WATCHED)
})

test('a relay that drops, duplicates, delays and reorders stream messages causes no divergence', { timeout: 240_000 }, async (t) => {
  const seed = fuzzSeed()
  t.diagnostic(`seed ${seed}: ${reproduce('test/e2e/followers.test.ts', seed)}`)
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--log-level', 'warn'])
  const relay = await startFaultRelay(t, sequencer.url, new Rng(seed), { drop: 0.08, duplicate: 0.08, reorder: 0.08, delay: 0.08 })
  const f = await spawnNode(t, ['--datadir', tempDir(t), '--follow', relay.url, '--ready-max-age', '60000', '--log-level', 'error'])
  const wallets = [1, 2].map((i) => createWalletClient({ account: privateKeyToAccount(ACCOUNTS[i]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(sequencer.url, { retryCount: 0 }) }))
  for (let round = 0; round < 24; round++) {
    for (const w of wallets) await w.sendTransaction({ to: RECEIVER, value: BigInt(round + 1), gas: 21_000n })
    await rpc(sequencer.url, 'flashnode_flashblock')
    if (round % 4 === 3) await rpc(sequencer.url, 'evm_mine')
  }
  relay.calm()
  await rpc(sequencer.url, 'flashnode_flashblock')
  const last = await head(sequencer.url)
  await until(`block ${last} on the follower`, async () => ((await head(f.url)) >= last ? true : undefined), 60_000)
  await agreeUpTo([sequencer.url, f.url], last, WATCHED)
  const pending = await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true])
  await until('the same pending block on the follower', async () => {
    const theirs = await rpc(f.url, 'eth_getBlockByNumber', ['pending', true])
    return JSON.stringify(theirs) === JSON.stringify(pending) ? true : undefined
  }, 60_000)
  t.diagnostic(`relay: ${JSON.stringify(relay.done)}`)
  assert.ok(relay.done.dropped > 0 && relay.done.duplicated > 0 && relay.done.reordered > 0 && relay.done.delayed > 0, `the faults happened (seed ${seed}): ${JSON.stringify(relay.done)}`)
  assert.ok(relay.done.subscriptions > 1, 'the follower resumed after gaps')

  // Its metrics tell the same story.
  const metrics = parseExposition(await (await fetch(`${f.url}/metrics`)).text())
  const value = (name: string, labels: Record<string, string> = {}): number => samplesOf(metrics.get(name)!, labels).reduce((n, s) => n + s.value, 0)
  assert.equal(value('flashnode_follower_subscriptions_total'), relay.done.subscriptions, 'one subscription counted per relay subscription')
  assert.ok(value('flashnode_follower_gaps_total') > 0)
  assert.ok(value('flashnode_follower_messages_total', { outcome: 'duplicate' }) > 0)
  assert.ok(value('flashnode_follower_messages_total', { outcome: 'sealed' }) > 0)
  assert.equal(value('flashnode_follower_seal_mismatches_total'), 0)
  assert.equal(value('flashnode_follower_blocks_behind'), 0)
  assert.equal(value('flashnode_follower_stream_connected'), 1)
})
