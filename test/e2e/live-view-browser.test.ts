/**
 * The live view in a real headless Chromium (Debian's `chromium`, driven by puppeteer-core; no browser is
 * downloaded): the page served by a real node on 127.0.0.1 subscribes over the node's own WebSocket, and
 * transactions sent with viem appear in its open block within a second of their pre-confirmation; the
 * flashblock strip, the pool's levels, the node's latency figure and the sealed blocks follow; the page logs
 * no error (a script its Content-Security-Policy blocked would). The sequencer runs in auto mode on an
 * injected clock: each step is one flashblock, so the latency the page shows is exactly the clock's step.
 * The node is given a sequencer group's state, and the page shows its role, leader, term and last takeover.
 * A screenshot is saved in the test's temporary directory (kept when FLASHNODE_KEEP_SCREENSHOT is set) and
 * its path printed. Without Debian's chromium the test says so and does not run.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Page } from 'puppeteer-core'
import { createWalletClient, http, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import type { GroupState } from '../../src/node/node-status.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { findTool, needsTool } from '../support/debian-tool.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { RECEIVER } from '../support/clients.ts'

const INTERVAL_MS = 200
const PER_BLOCK = 5

/** Resolves once the page shows every one of `hashes` in its open block; rejects after `ms`. */
const shows = (page: Page, hashes: readonly string[], ms: number) =>
  page.waitForFunction((hs: string[]) => hs.every((h) => document.querySelector(`#txs tr[data-hash="${h}"]`) !== null), { timeout: ms, polling: 'mutation' }, [...hashes])

const text = (page: Page, id: string) => page.$eval(`#${id}`, (n) => n.textContent ?? '')

test('the live view in Chromium shows transactions within a second of their pre-confirmation', { ...needsTool('chromium', 'chromium'), timeout: 120_000 }, async (t) => {
  const clock = new ManualScheduler(Date.now())
  // The node as a member of a sequencer group (the controller's state as cli/group-member.ts hands it over;
  // the group itself runs in test/e2e/sequencer-group.test.ts): the page shows the group beside the pool.
  let group: GroupState = { group: 'g', id: 'm1', role: 'standby', leader: { id: 'm0', term: 6 }, lastTakeover: undefined }
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblockIntervalMs: INTERVAL_MS, flashblocksPerBlock: PER_BLOCK },
    group: () => group,
  })
  await running.node.start()
  const step = async () => {
    clock.advance(INTERVAL_MS)
    await running.node.sequencer!.idle()
  }

  const browser = await puppeteer.launch({
    executablePath: findTool('chromium')!,
    headless: true,
    // As root (CI containers) Chromium refuses its sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  })
  t.after(() => browser.close())
  const page = await browser.newPage()
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') problems.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`))
  await page.setViewport({ width: 1440, height: 1000 })
  await page.goto(`${running.url}/`, { waitUntil: 'load' })
  await page.waitForSelector('body[data-subscribed="yes"]', { timeout: 10_000 })
  await page.waitForFunction(() => document.querySelector('#group-role')?.textContent === 'm1 · standby', { timeout: 3_000 })
  assert.equal(await text(page, 'group-leader'), 'm0')
  assert.equal(await text(page, 'group-term'), '6')
  assert.equal(await text(page, 'group-takeover'), 'none')
  const tookOverAt = Date.now()
  group = { group: 'g', id: 'm1', role: 'leader', leader: { id: 'm1', term: 9 }, lastTakeover: { term: 9, at: tookOverAt, ms: 412.4 } }
  await page.waitForFunction(() => document.querySelector('#group-role')?.textContent === 'm1 · leader', { timeout: 3_000 })
  assert.equal(await text(page, 'group-term'), '9')
  assert.match(await text(page, 'group-takeover'), /^412 ms \(term 9, \d\d:\d\d:\d\d\)$/)

  const wallets = ACCOUNTS.slice(0, 3).map((a) =>
    createWalletClient({ account: privateKeyToAccount(a.privateKey as Hex), chain: VIEM_DEV_CHAIN, transport: http(running.url) }))
  const nonces = wallets.map(() => 0)
  const send = (w: number, data?: Hex) =>
    wallets[w]!.sendTransaction({
      to: RECEIVER, value: 1n + BigInt(nonces[w]!), nonce: nonces[w]!++, gas: data === undefined ? 21_000n : 60_000n,
      maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), ...(data !== undefined ? { data } : {}),
    })

  // Three flashblocks of one block, each with its own transactions: every one shows within a second.
  const inBlock: string[] = []
  const waits: number[] = []
  for (const senders of [[0, 1, 2], [0, 1], [2]]) {
    const hashes: string[] = []
    for (const w of senders) hashes.push(await send(w, w === 2 ? '0x00ff00ff' : undefined))
    await step() // their flashblock is published when this returns
    const preconfirmed = performance.now()
    await shows(page, hashes, 1_000)
    waits.push(performance.now() - preconfirmed)
    inBlock.push(...hashes)
    assert.equal(await text(page, 'open-txs'), String(inBlock.length), 'the open block\'s count')
  }
  t.diagnostic(`shown after pre-confirmation: ${waits.map((w) => `${w.toFixed(0)} ms`).join(', ')}`)

  // The poll (every 500 ms) brings what no subscription carries: the node's latency, the strip, the pool.
  const gapped = nonces[1]! + 1
  await wallets[1]!.sendTransaction({ to: RECEIVER, value: 1n, nonce: gapped, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1') })
  await page.waitForFunction(() => document.querySelector('#pool-queued')?.textContent === '1', { timeout: 3_000 })
  assert.equal(await text(page, 'lat-last'), `${INTERVAL_MS} ms`, 'each transaction waited one step of the clock')
  assert.equal(await page.$$eval('#strip .slot:not(.future)', (s) => s.length), 3, 'three flashblocks in the strip')
  assert.equal(await page.$$eval('#strip .slot', (s) => s.length), PER_BLOCK, 'one slot per flashblock of the block')

  // The rest of the block: it is sealed, and the sealed table shows it with its transactions.
  const sealedNumber = running.node.chain.head() + 1n
  for (let i = 3; i < PER_BLOCK; i++) await step()
  await page.waitForSelector(`#sealed tr[data-block="${sealedNumber}"]`, { timeout: 3_000 })
  const row = await page.$$eval(`#sealed tr[data-block="${sealedNumber}"] td`, (tds) => tds.map((td) => td.textContent))
  assert.equal(row[2], String(inBlock.length), 'the sealed block\'s transactions')

  // One more flashblock in the next block, to fill the screenshot's open block.
  const next = [await send(0), await send(2, '0x1234')]
  await step()
  await shows(page, next, 1_000)
  assert.equal(await text(page, 'open-txs'), '2', 'the next block starts empty')
  await page.waitForFunction(() => document.querySelector('#lat-count')?.textContent?.startsWith('8 '), { timeout: 3_000 })

  const dir = process.env.FLASHNODE_KEEP_SCREENSHOT !== undefined ? mkdtempSync(join(tmpdir(), 'flashnode-live-view-')) : tempDir(t, 'flashnode-live-view-')
  const shot = join(dir, 'live-view.png')
  await page.screenshot({ path: shot, fullPage: true })
  t.diagnostic(`screenshot: ${shot}${process.env.FLASHNODE_KEEP_SCREENSHOT !== undefined ? '' : ' (removed with the temp directory; set FLASHNODE_KEEP_SCREENSHOT=1 to keep it)'}`)
  assert.deepEqual(problems, [], 'no error in the page')
})
