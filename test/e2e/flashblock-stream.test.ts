/**
 * The flashblock stream through the public interface: WebSocket clients at `/flashblocks` on the RPC port of
 * a real server whose sequencer runs on an injected clock (auto mode, no sleeping for a tick), transactions
 * sent with viem over HTTP. A consumer written from Base's types (test/support/flashblocks-consumer.ts)
 * rebuilds every sealed block from JSON messages and from Brotli ones and matches it with the stored block;
 * a subscriber arriving mid-block first gets the open block's messages; `after=N` resumes; a subscriber
 * that stops reading is cut with its close code while every flashblock tick stays within its interval.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode, type RunningNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { rpc } from '../support/node-process.ts'
import { initCode, STORE_TWO_CONSTRUCTOR } from '../support/contracts.ts'
import { BlockRebuilder, checkAgainstNode, decodeMessage, type FlashblocksPayloadV1 } from '../support/flashblocks-consumer.ts'
import { DEFAULT_SEQUENCER, type NodeConfig } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { CLOSE } from '../../src/stream/publisher.ts'

const PER_BLOCK = 4
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
/** Runtime: LOG1(topic 0x77) of the word 0xaa · SSTORE slot 2 = CALLVALUE + 1. */
const LOGGER_RUNTIME = '60aa600052' + '607760206000a1' + '3460010160025500'

interface Node {
  running: RunningNode
  clock: ManualScheduler
  intervalMs: number
  streamUrl: string
}

async function streamingNode(t: TestContext, stream: NodeConfig['stream'] = {}, intervalMs = DEFAULT_SEQUENCER.flashblockIntervalMs): Promise<Node> {
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblocksPerBlock: PER_BLOCK, flashblockIntervalMs: intervalMs },
    stream,
  })
  await running.node.start()
  return { running, clock, intervalMs, streamUrl: `${running.url.replace('http', 'ws')}/flashblocks` }
}

/** Moves the injected clock one interval at a time and waits for each tick; returns each tick's duration (ms). */
async function tick(node: Node, intervals = 1): Promise<number[]> {
  const took: number[] = []
  for (let i = 0; i < intervals; i++) {
    const started = performance.now()
    node.clock.advance(node.intervalMs)
    await node.running.node.sequencer!.idle()
    took.push(performance.now() - started)
  }
  return took
}

/** The newest sequence the node published (what is queued is published first). */
function newest(node: Node): number {
  node.running.node.stream!.flush()
  return node.running.node.stream!.messages().at(-1)!.sequence
}

class Consumer {
  readonly ws: WebSocket
  readonly payloads: FlashblocksPayloadV1[] = []
  readonly binary: boolean[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  private waiters: { sequence: number; resolve: () => void }[] = []

  constructor(t: TestContext, url: string) {
    this.ws = new WebSocket(url)
    t.after(() => this.ws.terminate())
    this.ws.on('error', () => undefined)
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })))
    this.ws.on('message', (data, isBinary) => {
      const p = decodeMessage(data as Buffer, isBinary)
      this.payloads.push(p)
      this.binary.push(isBinary)
      this.waiters = this.waiters.filter((w) => (p.metadata.sequence >= w.sequence ? (w.resolve(), false) : true))
    })
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => this.ws.once('open', () => resolve()).once('error', reject))
  }

  /**
   * Resolves once the message of `sequence` (or a later one) arrived; fails as soon as the stream is closed
   * before it (a subscriber the node cut or refused would otherwise wait for the test's timeout).
   */
  until(sequence: number): Promise<void> {
    if ((this.payloads.at(-1)?.metadata.sequence ?? -1) >= sequence) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.waiters.push({ sequence, resolve })
      void this.closed.then(({ code, reason }) => {
        const last = this.payloads.at(-1)?.metadata.sequence ?? 'none'
        reject(new assert.AssertionError({ message: `the stream was closed (${code}: ${reason}) after sequence ${last}, before ${sequence}` }))
      })
    })
  }
}

const wallet = (url: string, i: number) => createWalletClient({ account: privateKeyToAccount(ACCOUNTS[i]!.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(url, { retryCount: 0 }) })

test('a consumer from Base\'s types rebuilds every sealed block from the stream, JSON and Brotli, and a late subscriber starts at the open block', { timeout: 120_000 }, async (t) => {
  const node = await streamingNode(t)
  const json = new Consumer(t, node.streamUrl)
  const brotli = new Consumer(t, `${node.streamUrl}?compression=brotli`)
  await Promise.all([json.opened(), brotli.opened()])
  const url = node.running.url
  const deployer = wallet(url, 0)
  const deploy = await deployer.sendTransaction({ data: initCode(STORE_TWO_CONSTRUCTOR, LOGGER_RUNTIME), gas: 300_000n })
  await wallet(url, 1).sendTransaction({ to: RECEIVER, value: 7n, gas: 21_000n })
  await tick(node)
  const logger = (await rpc<{ contractAddress: Hex }>(url, 'eth_getTransactionReceipt', [deploy])).contractAddress
  for (let i = 0; i < 3; i++) {
    await wallet(url, 2).sendTransaction({ to: logger, value: BigInt(i), gas: 100_000n })
    await wallet(url, 3).sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })
    await tick(node, 2)
  }
  // Mid-block (block 3 open, one flashblock in): a late subscriber.
  await wallet(url, 1).sendTransaction({ to: logger, value: 5n, gas: 100_000n })
  await tick(node, 2)
  const late = new Consumer(t, node.streamUrl)
  await late.opened()
  await tick(node, PER_BLOCK * 2)
  const last = newest(node)
  await Promise.all([json.until(last), brotli.until(last), late.until(last)])

  assert.ok(brotli.binary.every((b) => b) && json.binary.every((b) => !b), 'Brotli binary messages on request, JSON text by default')
  assert.deepEqual(brotli.payloads, json.payloads, 'the same messages either way')
  const rebuilder = new BlockRebuilder()
  for (const p of json.payloads) rebuilder.push(p)
  const head = BigInt(await rpc<Hex>(url, 'eth_blockNumber'))
  assert.deepEqual(rebuilder.blocks.map((b) => b.number), Array.from({ length: Number(head) }, (_, i) => BigInt(i + 1)), 'every sealed block')
  assert.ok(rebuilder.blocks.reduce((n, b) => n + b.transactions.length, 0) >= 9)
  for (const block of rebuilder.blocks) await checkAgainstNode((m, p) => rpc(url, m, p), block)
  const sequences = json.payloads.map((p) => p.metadata.sequence)
  assert.deepEqual(sequences.slice(1).map((s, i) => s - sequences[i]!), sequences.slice(1).map(() => 1), 'one more per message')

  const first = late.payloads[0]!
  assert.equal(first.index, 0, 'a new subscriber starts with the open block\'s opening')
  assert.equal(first.metadata.block_number, 3)
  assert.deepEqual(late.payloads, json.payloads.slice(json.payloads.findIndex((p) => p.metadata.sequence === first.metadata.sequence)), 'then the same as everyone')
})

test('resume after a sequence number gets every kept message after it; older or unknown points are closed with their code', { timeout: 120_000 }, async (t) => {
  const node = await streamingNode(t, { historyBlocks: 3 })
  const all = new Consumer(t, node.streamUrl)
  await all.opened()
  await wallet(node.running.url, 0).sendTransaction({ to: RECEIVER, value: 1n, gas: 21_000n })
  await tick(node, PER_BLOCK * 2 + 1)
  const mark = newest(node)
  await all.until(mark)
  const from = all.payloads[3]!.metadata.sequence
  await tick(node, 3)
  const last = newest(node)
  await all.until(last)

  const resumed = new Consumer(t, `${node.streamUrl}?after=${from}`)
  await resumed.until(last)
  assert.deepEqual(resumed.payloads, all.payloads.filter((p) => p.metadata.sequence > from), 'everything after the resume point, in order')
  // No Brotli subscriber was connected when these were published: they are compressed now, for this one.
  const resumedBrotli = new Consumer(t, `${node.streamUrl}?after=${from}&compression=brotli`)
  await resumedBrotli.until(last)
  assert.ok(resumedBrotli.binary.every((b) => b))
  assert.deepEqual(resumedBrotli.payloads, resumed.payloads, 'the same kept messages, compressed on request')
  const caughtUp = new Consumer(t, `${node.streamUrl}?after=${last}`)
  await caughtUp.opened()
  await tick(node)
  await caughtUp.until(newest(node))
  assert.deepEqual(caughtUp.payloads.map((p) => p.metadata.sequence), [last + 1], 'at the newest: live messages only')

  // Three sealed blocks kept: after a few more blocks the first block's messages are gone.
  await tick(node, PER_BLOCK * 4)
  newest(node)
  const old = new Consumer(t, `${node.streamUrl}?after=${from}`)
  const tooOld = await old.closed
  assert.equal(tooOld.code, CLOSE.tooOld)
  assert.match(tooOld.reason, /no longer kept/)
  assert.equal(old.payloads.length, 0)
  const ahead = await new Consumer(t, `${node.streamUrl}?after=${newest(node) + 5}`).closed
  assert.equal(ahead.code, CLOSE.ahead)
  const refused = await fetch(`${node.running.url}/flashblocks?after=x`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } }).catch((e: Error) => e)
  assert.ok(refused instanceof Error || refused.status === 400, 'a malformed resume point is refused before the upgrade')
})

test('a subscriber that stops reading is cut with its close code; the others carry on and every tick stays within its interval', { timeout: 180_000 }, async (t) => {
  const bound = 256 * 1024
  // Each of these flashblocks journals ~400 kB (one disk sync): on the shared 2-core machine, under the whole
  // suite, such a tick took up to 236 ms. The interval is 1 s here so that the bound measures the stream (a
  // tick held up by a subscriber would not end at all), not the disk.
  const node = await streamingNode(t, { maxQueuedBytes: bound }, 1_000)
  const slow = new Consumer(t, node.streamUrl)
  const fine = new Consumer(t, node.streamUrl)
  await Promise.all([slow.opened(), fine.opened()])
  ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause() // reads nothing more
  let cut: { code: number; reason: string } | undefined
  void slow.closed.then((c) => (cut = c))
  const url = node.running.url
  // Big flashblocks (four transactions of 100 kB calldata each, ~800 kB of JSON) until the slow one is cut,
  // past what the loopback socket absorbs (a few MB): bounded at 60 ticks.
  const nonces = [0, 0, 0, 0]
  const data = `0x${'00'.repeat(100_000)}` as Hex
  const ticks: number[] = []
  const cutAt: { ticks: number; published: number }[] = []
  for (let i = 0; i < 60 && cutAt.length === 0; i++) {
    for (let s = 0; s < 4; s++) await wallet(url, s).sendTransaction({ to: RECEIVER, data, gas: 1_100_000n, nonce: nonces[s]!++ })
    ticks.push(...(await tick(node)))
    newest(node)
    await new Promise((resolve) => setImmediate(resolve))
    if (node.running.node.stream!.subscriberCount() === 1) cutAt.push({ ticks: i + 1, published: node.running.node.stream!.messages().length })
  }
  assert.equal(cutAt.length, 1, 'the slow subscriber was dropped')
  ;(slow.ws as unknown as { _socket: { resume(): void } })._socket.resume()
  await slow.closed
  assert.equal(cut?.code, CLOSE.tooSlow)
  assert.match(cut?.reason ?? '', /too slow: \d+ bytes queued \(limit 262144\)/)
  const exposition = await (await fetch(`${url}/metrics`)).text()
  assert.match(exposition, /^flashnode_stream_slow_disconnects_total 1$/m, 'the cut is counted')
  const last = newest(node)
  await fine.until(last)
  assert.equal(fine.payloads.at(-1)!.metadata.sequence, last, 'the reading subscriber got everything')
  const worst = Math.max(...ticks)
  assert.ok(worst < node.intervalMs, `every tick within the ${node.intervalMs} ms interval (worst ${worst.toFixed(1)} ms of ${ticks.length})`)
})
