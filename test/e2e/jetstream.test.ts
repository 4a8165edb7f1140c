/**
 * The JetStream fan-out as a user runs it: a real nats-server (Debian's, JetStream on, its store in a
 * temporary directory), a sequencer sealing by hand with `--stream nats://…`, followers with `--follow URL
 * --stream nats://…`. The followers read the flashblocks from the broker (the sequencer's WebSocket stream
 * has no subscriber throughout), show every transaction pre-confirmed before any seal, and hold the same
 * blocks as the sequencer. A follower killed with kill -9 mid-block and restarted rebuilds the open block
 * from the broker; the broker stopped and restarted: the sequencer keeps sealing meanwhile (the messages it
 * could not hand over are dropped from that path and counted), and the follower fills the hole from the
 * sequencer's own stream, pre-confirmed transactions included, with no divergence; a follower started empty
 * at the end catches up through the broker. Nothing sleeps for a tick: each step waits for what it needs.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { needsTool } from '../support/debian-tool.ts'
import { startNatsServer } from '../support/nats-server.ts'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { parseExposition, samplesOf } from '../support/prometheus-text.ts'
import { tempDir } from '../support/temp-dir.ts'
import { agreeUpTo, head, until } from '../support/follower-kit.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'

const ACCOUNTS = devAccounts(3)
const RECEIVER = '0x00000000000000000000000000000000000000cc'
/** Whose balances and nonces must agree at every block. */
const WATCHED = [RECEIVER, ...ACCOUNTS.map((a) => a.address)]

/** One sample of the node's GET /metrics (0 when absent). */
async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const families = parseExposition(await (await fetch(`${url}/metrics`)).text())
  const family = families.get(name)
  return family === undefined ? 0 : (samplesOf(family, labels)[0]?.value ?? 0)
}

test('JetStream fan-out: followers read the broker, a follower kill -9 and restart, a broker restart, a late follower', { ...needsTool('nats-server', 'nats-server'), timeout: 300_000 }, async (t: TestContext) => {
  const broker = await startNatsServer(t)
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--stream', broker.url, '--log-level', 'warn'])
  const follow = (dataDir = tempDir(t)): Promise<NodeProcess> =>
    spawnNode(t, ['--datadir', dataDir, '--follow', sequencer.url, '--stream', broker.url, '--ready-max-age', '60000', '--log-level', 'warn'])
  const flashblock = () => rpc(sequencer.url, 'flashnode_flashblock')
  const mine = () => rpc(sequencer.url, 'evm_mine')
  const receipt = (url: string, h: Hex) => until(`receipt of ${h} on ${url}`, async () => (await rpc(url, 'eth_getTransactionReceipt', [h])) ?? undefined)
  // (A hole's fill subscribes for a moment: its close may still be on its way.)
  const noSubscribers = () => until("no subscriber on the sequencer's WebSocket stream", async () => ((await metric(sequencer.url, 'flashnode_stream_subscribers')) === 0 ? true : undefined))
  assert.equal(await metric(sequencer.url, 'flashnode_stream_broker_connected'), 1)

  const followerDir = tempDir(t)
  let follower = await follow(followerDir)
  const wallet = (key: number, url: string) =>
    createWalletClient({ account: privateKeyToAccount(ACCOUNTS[key]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(url, { retryCount: 0 }) })
  const sent: Hex[] = []
  for (let i = 0; i < 4; i++) sent.push(await wallet(1, follower.url).sendTransaction({ to: RECEIVER, value: 100n + BigInt(i), gas: 21_000n }))
  const sealedBefore = await head(sequencer.url)
  await flashblock()
  for (const h of sent) await receipt(follower.url, h)
  assert.equal(await head(follower.url), sealedBefore, 'pre-confirmed through the broker, not sealed')
  assert.deepEqual(await rpc(follower.url, 'eth_getBlockByNumber', ['pending', true]), await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true]))
  await noSubscribers()
  await mine()

  // kill -9 mid-block: the open block has a flashblock the follower applied and one published while it was down.
  sent.push(await wallet(2, sequencer.url).sendTransaction({ to: RECEIVER, value: 7n, gas: 21_000n }))
  await flashblock()
  await receipt(follower.url, sent.at(-1)!)
  await follower.kill9()
  sent.push(await wallet(2, sequencer.url).sendTransaction({ to: RECEIVER, value: 8n, gas: 21_000n }))
  await flashblock()
  const open = await head(sequencer.url)
  follower = await follow(followerDir)
  // Neither is sealed: only the broker's kept messages of the open block can show them.
  for (const h of sent.slice(-2)) await receipt(follower.url, h)
  assert.equal(await head(sequencer.url), open)
  assert.deepEqual(await rpc(follower.url, 'eth_getBlockByNumber', ['pending', true]), await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true]))
  await noSubscribers()

  // The broker goes away: the sequencer keeps pre-confirming and sealing; what it could not publish there is dropped and counted.
  await broker.stop()
  await until('the sequencer to see the broker gone', async () => ((await metric(sequencer.url, 'flashnode_stream_broker_connected')) === 0 ? true : undefined))
  const dropsBefore = await metric(sequencer.url, 'flashnode_stream_broker_messages_total', { outcome: 'dropped' })
  const duringOutage: Hex[] = []
  duringOutage.push(await wallet(1, sequencer.url).sendTransaction({ to: RECEIVER, value: 9n, gas: 21_000n }))
  await flashblock()
  await mine()
  duringOutage.push(await wallet(1, sequencer.url).sendTransaction({ to: RECEIVER, value: 10n, gas: 21_000n }))
  await flashblock()
  assert.ok((await metric(sequencer.url, 'flashnode_stream_broker_messages_total', { outcome: 'dropped' })) >= dropsBefore + 4, 'opening, flashblocks and closing dropped from the broker path')
  await broker.restart()
  await until('the sequencer to reconnect to the broker', async () => ((await metric(sequencer.url, 'flashnode_stream_broker_connected')) === 1 ? true : undefined))
  // The next message reaches the broker; the follower sees the hole before it and fills it from the sequencer's stream.
  const after = await wallet(1, sequencer.url).sendTransaction({ to: RECEIVER, value: 11n, gas: 21_000n })
  await flashblock()
  for (const h of [...duringOutage, after]) await receipt(follower.url, h)
  assert.deepEqual(await rpc(follower.url, 'eth_getBlockByNumber', ['pending', true]), await rpc(sequencer.url, 'eth_getBlockByNumber', ['pending', true]), 'the open block rebuilt, outage included, before any seal')
  await noSubscribers()
  await mine()

  // A follower started empty now reads the chain's messages from the broker and agrees.
  const late = await follow()
  const last = await head(sequencer.url)
  for (const url of [follower.url, late.url]) await until(`block ${last} on ${url}`, async () => ((await head(url)) >= last ? true : undefined))
  await agreeUpTo([sequencer.url, follower.url, late.url], last, WATCHED)
  assert.equal(BigInt(await rpc<string>(late.url, 'eth_getBalance', [RECEIVER, 'latest'])), 100n + 101n + 102n + 103n + 7n + 8n + 9n + 10n + 11n)
})
