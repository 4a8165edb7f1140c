/**
 * The production build (scripts/build.mjs: what `npm start` and the `flashnode` bin run) as a user gets it:
 * built into a fresh directory, started, and used through viem. Each worker thread starts from its own
 * bundle: the execution worker answers eth_call (a worker that cannot load fails the call), and the
 * sender-recovery and seal-hashing bundles load in a thread and say they are ready.
 */

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { REPO_ROOT, spawnNode } from '../support/node-process.ts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { tempDir } from '../support/temp-dir.ts'
import { READY } from '../../src/node/worker-lane.ts'

const TRANSFERS = 130 // with their receipts, enough items (WORKER_FROM_ITEMS) to start the seal-hashing worker

function build(t: { after(fn: () => void): void }): string {
  const outdir = join(REPO_ROOT, `.build-test-${process.pid}-${Date.now()}`) // inside the repository: its node_modules resolve
  t.after(() => rmSync(outdir, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })
  assert.equal(r.status, 0, `build failed: ${r.stdout}${r.stderr}`)
  return outdir
}

function loads(file: string, workerData: unknown): Promise<unknown> {
  const worker = new Worker(file, { workerData })
  return new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`exited with ${code} before a message`)))
  }).finally(() => worker.terminate())
}

test('the built node serves from plain JavaScript: calls on its execution worker, a block of sent transactions', async (t) => {
  const outdir = build(t)
  const node = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--execution-workers', '1', '--recovery-workers', '1', '--seal-workers', '1'], {}, [join(outdir, 'flashnode.mjs')])
  const client = createPublicClient({ transport: http(node.url) })
  const sender = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const wallet = createWalletClient({ account: sender, chain: { id: await client.getChainId(), name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } }, transport: http(node.url) })
  // A call that runs code: the identity precompile echoes its input (no worker, no answer).
  assert.equal(await client.call({ to: '0x0000000000000000000000000000000000000004', data: '0xc0ffee' }).then((r) => r.data), '0xc0ffee')
  const to = ACCOUNTS[1]!.address as Hex
  const before = await client.getBalance({ address: to })
  const gasPrice = 2n * (await client.getGasPrice())
  for (let nonce = 0; nonce < TRANSFERS; nonce++) await wallet.sendTransaction({ to, value: parseEther('0.001'), nonce, gas: 21_000n, gasPrice })
  await client.request({ method: 'evm_mine' as never })
  const block = await client.getBlock({ blockTag: 'latest' })
  assert.equal(block.transactions.length, TRANSFERS)
  assert.equal(await client.getBalance({ address: to }), before + BigInt(TRANSFERS) * parseEther('0.001'))
  assert.equal((await client.getTransactionReceipt({ hash: block.transactions[TRANSFERS - 1]! })).status, 'success')
})

test('each worker bundle loads in a thread of its own and says it is ready', async (t) => {
  const outdir = build(t)
  for (const name of ['execution-worker', 'recovery-worker', 'hashing-worker']) assert.ok(existsSync(join(outdir, `${name}.mjs`)), name)
  assert.equal(await loads(join(outdir, 'recovery-worker.mjs'), { genesis: testGenesis() }), READY)
  assert.equal(await loads(join(outdir, 'hashing-worker.mjs'), undefined), READY)
})
