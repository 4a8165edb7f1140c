/**
 * The live view's HTTP side on real servers: a browser's GET / (Accept: text/html) gets the page, with a
 * Content-Security-Policy that lets only its own script run; every other GET / and every POST / answers
 * exactly as on an endpoint without the view; a public endpoint, an endpoint with `ui: false`, and the
 * command line's --no-ui and --profile public serve neither the page nor GET /status. GET /status reports
 * the open block, the recent flashblocks and seals, the pool, the stream's subscribers, and each
 * transaction's pre-confirmation latency on the node's clock (injected here: the latencies are exactly the
 * time the clock moved between admission and the flashblock).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import WebSocket from 'ws'
import { bytesToHex } from '@ethereumjs/util'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { NodeStatus } from '../../src/node/node-status.ts'
import { signedTx, testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { call, endpoint, post, rawRequest, startEndpoints, type RawResponse } from '../support/endpoints.ts'
import { rpc, spawnNode } from '../support/node-process.ts'
import { helpText } from '../../src/cli/options.ts'

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

/** A request for `/` (what rawRequest asks for), with this Accept header. */
const get = (url: string, _path: '/', accept?: string, method = 'GET'): Promise<RawResponse> =>
  rawRequest(url, { method, headers: accept === undefined ? {} : { accept } })

/** rawRequest always asks for `/`: this one asks for `path`. */
async function getPath(url: string, path: string, accept?: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(new URL(path, url), { headers: accept === undefined ? {} : { accept } })
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
}

/** What a non-browser client sees of an endpoint: GET / (no Accept, any type, JSON; HEAD), POST / and a refused method. */
async function plainAnswers(url: string): Promise<unknown[]> {
  const answers: unknown[] = []
  for (const [method, accept] of [['GET', undefined], ['GET', '*/*'], ['GET', 'application/json'], ['HEAD', undefined], ['HEAD', '*/*']] as const) {
    const r = await get(url, '/', accept, method)
    answers.push({ method, accept, status: r.status, type: r.headers['content-type'], text: r.text })
  }
  const posted = await post(url, call(1, 'eth_chainId'))
  answers.push({ status: posted.status, type: posted.headers['content-type'], text: posted.text })
  const put = await rawRequest(url, { method: 'PUT', headers: { accept: BROWSER_ACCEPT } })
  answers.push({ status: put.status, text: put.text })
  return answers
}

test('a browser GET / gets the page; every other request answers as without the view; public and ui:false endpoints serve neither page nor /status', async (t) => {
  const { endpoints } = await startEndpoints(t, [
    endpoint('view'),
    endpoint('public', { profile: 'public' }),
    endpoint('off', { ui: false }),
    endpoint('sealed', { preconfirmations: false }),
  ])
  const view = endpoints.get('view')!.url
  const page = await get(view, '/', BROWSER_ACCEPT)
  assert.equal(page.status, 200)
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  assert.match(page.text, /^<!doctype html>/)
  assert.match(page.text, /<title>Flashnode · live<\/title>/)
  assert.doesNotMatch(page.text, /<script[^>]+src=|<link[^>]+href="(?!data:)|https?:\/\/(?!www\.w3\.org)/, 'nothing fetched from elsewhere')
  const script = /<script>([\s\S]*?)<\/script>/.exec(page.text)![1]!
  const csp = String(page.headers['content-security-policy'])
  assert.ok(csp.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`), 'the page\'s own script, by its hash')
  assert.match(csp, /default-src 'none'/)
  assert.match(csp, /connect-src 'self'/)
  const head = await get(view, '/', BROWSER_ACCEPT, 'HEAD')
  assert.equal(head.status, 200)
  assert.equal(head.text, '')
  assert.equal(head.headers['content-length'], page.headers['content-length'])

  const off = endpoints.get('off')!.url
  assert.deepEqual(await plainAnswers(view), await plainAnswers(off), 'GET / without text/html, HEAD, POST and other methods: unchanged')
  assert.deepEqual(JSON.parse((await get(off, '/')).text), { status: 'ok' })
  for (const name of ['public', 'off']) {
    const url = endpoints.get(name)!.url
    const browser = await get(url, '/', BROWSER_ACCEPT)
    assert.equal(browser.status, 200, name)
    assert.equal(browser.headers['content-type'], 'application/json', `${name}: no page, the health answer`)
    assert.deepEqual(JSON.parse(browser.text), { status: 'ok' })
    assert.equal((await getPath(url, '/status')).status, 404, `${name}: no /status`)
  }
  const status = await getPath(view, '/status')
  assert.equal(status.status, 200)
  assert.equal(status.type, 'application/json')
  assert.equal((JSON.parse(status.text) as NodeStatus).open?.flashblocks, 0, 'the open block')
  assert.equal((JSON.parse(status.text) as NodeStatus).group, null, 'no sequencer group')
  const sealedOnly = JSON.parse((await getPath(endpoints.get('sealed')!.url, '/status')).text) as NodeStatus
  assert.deepEqual({ open: sealedOnly.open, flashblocks: sealedOnly.flashblocks, latency: sealedOnly.latency }, { open: null, flashblocks: [], latency: null }, 'an endpoint without pre-confirmations: nothing pre-confirmed in its status')
  assert.equal(sealedOnly.head.number, 0)
})

test('GET /status: the open block, flashblocks with build times, seals, pool, stream subscribers and latencies on the node clock', { timeout: 60_000 }, async (t) => {
  const clock = new ManualScheduler(Date.now())
  const perBlock = 4
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblockIntervalMs: 200, flashblocksPerBlock: perBlock },
  })
  await running.node.start()
  const { node, url } = running
  const status = async (): Promise<NodeStatus> => JSON.parse((await getPath(url, '/status')).text) as NodeStatus
  const send = (from: number, nonce: bigint): Promise<string> =>
    rpc<string>(url, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, from, nonce, { to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n }).serialize())])
  const tick = async (ms: number) => {
    clock.advance(ms)
    await node.sequencer!.idle()
  }

  assert.match(await (await fetch(`${url}/metrics`)).text(), /^flashnode_flashblock_interval_seconds 0\.2$/m, 'auto sealing: its interval, for the alerts')
  const first = await status()
  assert.deepEqual(first.node, { chainId: 31337, client: first.node.client, sealing: 'auto', flashblockIntervalMs: 200, flashblocksPerBlock: perBlock })
  assert.equal(first.head.number, 0)
  assert.equal(first.open?.number, 1)
  assert.equal(first.open?.flashblocks, 0, 'the block is open, nothing pre-confirmed yet')

  const a = await send(0, 0n)
  clock.advance(120) // no tick is due yet: a waits 120 ms before b arrives
  const b = await send(1, 0n)
  const gapped = await send(2, 3n)
  await tick(80) // the first flashblock: a waited 200 ms, b 80 ms
  const one = await status()
  const latency = new Map(one.latency!.recent.map((s) => [s.hash, s]))
  assert.equal(latency.get(a)?.ms, 200)
  assert.equal(latency.get(b)?.ms, 80)
  assert.equal(latency.has(gapped), false, 'a queued transaction is not pre-confirmed')
  const receipt = await rpc<{ blockNumber: string }>(url, 'eth_getTransactionReceipt', [a])
  assert.equal(latency.get(a)?.block, Number(receipt.blockNumber))
  assert.equal(latency.get(a)?.index, 1)
  const newest = one.flashblocks.at(-1)!
  assert.deepEqual({ block: newest.block, index: newest.index, transactions: newest.transactions, gasUsed: newest.gasUsed }, { block: 1, index: 1, transactions: 2, gasUsed: 42_000 })
  assert.equal(typeof newest.buildMs, 'number', 'its build time')
  assert.equal(newest.at, clock.now())
  assert.deepEqual(one.open, { number: 1, flashblocks: 1, transactions: 2, gasUsed: 42_000, gasLimit: one.open!.gasLimit })
  assert.deepEqual({ pending: one.pool!.pending, queued: one.pool!.queued }, { pending: 0, queued: 1 }, 'the gapped one waits queued')
  assert.ok(one.pool!.capacity.pending > 0 && one.pool!.capacity.queued > 0)
  assert.equal(one.stream?.subscribers, 0)

  const subscriber = new WebSocket(`${url.replace('http', 'ws')}/flashblocks`)
  t.after(() => subscriber.close())
  await new Promise((resolve, reject) => subscriber.once('open', resolve).once('error', reject))
  assert.equal((await status()).stream?.subscribers, 1)

  for (let i = 1; i < perBlock; i++) await tick(200) // the rest of block 1: sealed
  const sealed = await status()
  assert.equal(sealed.head.number, 1)
  const block = await rpc<{ hash: string; gasUsed: string }>(url, 'eth_getBlockByNumber', ['0x1', false])
  const seal = sealed.sealed.at(-1)!
  assert.deepEqual({ number: seal.number, hash: seal.hash, transactions: seal.transactions, gasUsed: seal.gasUsed, flashblocks: seal.flashblocks }, { number: 1, hash: block.hash, transactions: 2, gasUsed: Number(block.gasUsed), flashblocks: perBlock })
  assert.ok(seal.sealMs >= 0 && seal.buildMs >= 0)
  assert.equal(sealed.head.hash, block.hash)
  assert.equal(sealed.open?.number, 2, 'the next block is open')
})

test('the command line: the page by default, not with --no-ui nor --profile public; --help says so', { timeout: 120_000 }, async (t) => {
  const [plain, noUi, open] = await Promise.all([
    spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual']),
    spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--no-ui']),
    spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--profile', 'public']),
  ])
  assert.equal((await getPath(plain.url, '/', BROWSER_ACCEPT)).type, 'text/html; charset=utf-8')
  assert.equal((await getPath(plain.url, '/status')).status, 200)
  for (const [name, node] of [['--no-ui', noUi], ['--profile public', open]] as const) {
    const browser = await getPath(node.url, '/', BROWSER_ACCEPT)
    assert.deepEqual({ status: browser.status, type: browser.type, body: JSON.parse(browser.text) }, { status: 200, type: 'application/json', body: { status: 'ok' } }, name)
    assert.equal((await getPath(node.url, '/status')).status, 404, name)
  }
  const help = helpText('start').split('\n').find((line) => line.trimStart().startsWith('--no-ui'))
  assert.match(help ?? '', /live view.*GET \/status.*but public ones/, 'the help names what it turns off and the public rule')
})
