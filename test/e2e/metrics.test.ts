/**
 * GET /metrics of a real node, under a small known load, read with a Prometheus text-format reader (not a
 * regex): counters move by exactly the calls made, per method, transport and outcome; a method name the
 * node does not serve adds no series; histograms have their buckets (cumulative, +Inf = count); the pool,
 * flashblock and head levels follow a flashblock and a seal; rate-limit refusals and EVM jobs killed at their
 * limit are counted; a public endpoint does not serve it. The sequencer runs in manual mode on an injected
 * clock.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { parseExposition, samplesOf, type Family } from '../support/prometheus-text.ts'
import { servedManualNode } from '../support/sequencing-node.ts'
import { bytesToHex } from '@ethereumjs/util'
import { signedTx } from '../support/dev-chain.ts'
import { rpc } from '../support/node-process.ts'

type Families = Map<string, Family>

async function scrape(url: string): Promise<Families> {
  const res = await fetch(`${url}/metrics`)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  return parseExposition(await res.text())
}

function family(families: Families, name: string): Family {
  const f = families.get(name)
  assert.ok(f !== undefined, `${name} is exposed`)
  return f
}

/** The value of the series of `name` with exactly `labels` (0 when it does not exist yet). */
function value(families: Families, name: string, labels: Record<string, string> = {}): number {
  const exact = samplesOf(family(families, name), labels).filter((s) => Object.keys(s.labels).length === Object.keys(labels).length)
  assert.ok(exact.length <= 1, `one series of ${name} with ${JSON.stringify(labels)}`)
  return exact[0]?.value ?? 0
}

/** A histogram series: its cumulative buckets (le → count), sum and count. */
function histogram(families: Families, name: string, labels: Record<string, string> = {}): { buckets: Map<string, number>; sum: number; count: number } {
  const f = family(families, name)
  assert.equal(f.type, 'histogram')
  const buckets = new Map(samplesOf(f, labels, `${name}_bucket`).map((s) => [s.labels.le!, s.value]))
  return { buckets, sum: samplesOf(f, labels, `${name}_sum`)[0]?.value ?? 0, count: samplesOf(f, labels, `${name}_count`)[0]?.value ?? 0 }
}

async function wsCalls(url: string, method: string, times: number): Promise<void> {
  const ws = new WebSocket(url.replace('http', 'ws'))
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  for (let i = 0; i < times; i++) {
    const answered = new Promise((resolve) => ws.once('message', resolve))
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method, params: [] }))
    await answered
  }
  ws.close()
}

async function raw(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  await res.text()
  return res.status
}

test('calls are counted by method, transport and outcome; an unknown name adds no series; durations are histograms', async (t) => {
  const { url } = await servedManualNode(t)
  const before = await scrape(url)
  for (let i = 0; i < 3; i++) await rpc(url, 'eth_chainId')
  await wsCalls(url, 'eth_chainId', 2)
  await raw(url, { jsonrpc: '2.0', id: 1, method: 'eth_nope', params: [] })
  await raw(url, { jsonrpc: '2.0', id: 2, method: `x_${Math.random().toString(36).slice(2)}`, params: [] })
  await raw(url, { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['not an address', 'latest'] })
  await raw(url, [{ jsonrpc: '2.0', id: 4, method: 'eth_blockNumber' }, { jsonrpc: '2.0', id: 5, method: 'eth_blockNumber' }])
  const after = await scrape(url)

  const delta = (labels: Record<string, string>) => value(after, 'flashnode_rpc_requests_total', labels) - value(before, 'flashnode_rpc_requests_total', labels)
  assert.equal(family(after, 'flashnode_rpc_requests_total').type, 'counter')
  assert.equal(delta({ method: 'eth_chainId', transport: 'http', outcome: 'ok' }), 3)
  assert.equal(delta({ method: 'eth_chainId', transport: 'ws', outcome: 'ok' }), 2)
  assert.equal(delta({ method: 'unknown', transport: 'http', outcome: 'error' }), 2, 'names not served count as unknown')
  assert.equal(delta({ method: 'eth_getBalance', transport: 'http', outcome: 'error' }), 1)
  assert.equal(delta({ method: 'eth_blockNumber', transport: 'http', outcome: 'ok' }), 2, 'each item of a batch')
  const methods = new Set(family(after, 'flashnode_rpc_requests_total').samples.map((m) => m.labels.method))
  assert.ok(![...methods].some((m) => m === 'eth_nope' || m?.startsWith('x_')), 'no series for a name not served')

  const chainId = histogram(after, 'flashnode_rpc_request_duration_seconds', { method: 'eth_chainId' })
  assert.ok(chainId.buckets.size >= 10, 'buckets')
  assert.equal(chainId.count, 5, 'one observation per call, both transports')
  assert.equal(chainId.buckets.get('+Inf'), 5)
  const counts = [...chainId.buckets.values()]
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'cumulative buckets')
  assert.ok(chainId.sum > 0)
  assert.ok(value(after, 'flashnode_rpc_connections') >= 1, 'the scrape\'s own connection is open')
  assert.ok(value(after, 'process_resident_memory_bytes') > 0, 'prom-client\'s process metrics')
  assert.ok(family(after, 'nodejs_eventloop_lag_seconds') !== undefined)
})

test('pool, flashblock and head levels follow a flashblock and a seal', async (t) => {
  const { node, url } = await servedManualNode(t)
  const before = await scrape(url)
  assert.equal(value(before, 'flashnode_txpool_transactions', { state: 'pending' }), 0)
  assert.equal(value(before, 'flashnode_txpool_capacity', { state: 'pending' }), node.pool!.config.globalSlots)
  assert.equal(value(before, 'flashnode_txpool_capacity', { state: 'queued' }), node.pool!.config.globalQueue)
  assert.equal(value(before, 'flashnode_flashblock_interval_seconds'), 0, 'manual sealing: no interval')
  const transfer = (from: number, nonce: bigint) =>
    rpc(url, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, from, nonce, { to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n }).serialize())])
  await transfer(0, 0n)
  await transfer(0, 1n)
  await transfer(1, 5n)
  await assert.rejects(transfer(0, 1n), /already known/)
  await assert.rejects(rpc(url, 'eth_sendRawTransaction', ['0x02c0ffee']), /decode/)
  const pooled = await scrape(url)
  const admissions = (result: string) => value(pooled, 'flashnode_txpool_admissions_total', { result }) - value(before, 'flashnode_txpool_admissions_total', { result })
  assert.equal(admissions('accepted'), 3)
  assert.equal(admissions('alreadyKnown'), 1, 'a refusal is counted under the pool rule that made it')
  assert.equal(admissions('undecodable'), 1)
  assert.equal(value(pooled, 'flashnode_txpool_transactions', { state: 'pending' }), 2)
  assert.equal(value(pooled, 'flashnode_txpool_transactions', { state: 'queued' }), 1, 'a nonce gap queues')

  await rpc(url, 'flashnode_flashblock')
  const preconfirmed = await scrape(url)
  assert.equal(value(preconfirmed, 'flashnode_flashblocks_total') - value(pooled, 'flashnode_flashblocks_total'), 1)
  const sumDelta = (name: string) => histogram(preconfirmed, name).sum - histogram(pooled, name).sum
  assert.equal(sumDelta('flashnode_flashblock_transactions'), 2, 'the flashblock\'s two transactions')
  assert.equal(sumDelta('flashnode_flashblock_gas'), 42_000)
  const countDelta = (name: string, from: Families, to: Families) => histogram(to, name).count - histogram(from, name).count
  assert.equal(countDelta('flashnode_flashblock_build_duration_seconds', pooled, preconfirmed), 1)
  assert.equal(countDelta('flashnode_journal_write_duration_seconds', pooled, preconfirmed), 1, 'a flashblock with transactions is journaled')
  assert.equal(value(preconfirmed, 'flashnode_txpool_transactions', { state: 'pending' }), 0, 'pre-confirmed: out of the pool')

  assert.equal(value(preconfirmed, 'flashnode_head_block_number'), 0)
  await rpc(url, 'evm_mine')
  const sealed = await scrape(url)
  assert.equal(value(sealed, 'flashnode_head_block_number'), 1)
  assert.equal(countDelta('flashnode_seal_duration_seconds', preconfirmed, sealed), 1)
  assert.equal(family(sealed, 'flashnode_flashblock_ticks_skipped_total').type, 'counter')
  const head = await rpc<{ timestamp: string }>(url, 'eth_getBlockByNumber', ['latest', false])
  const age = value(sealed, 'flashnode_head_block_age_seconds')
  assert.ok(Math.abs(age - Math.max(0, Date.now() / 1000 - Number(head.timestamp))) < 5, `head age ${age}`)
})

test('rate-limit refusals are counted; a public endpoint does not serve /metrics', async (t) => {
  const { url } = await servedManualNode(t, { rateLimit: { requestsPerSecond: 0.001, burst: 2 } })
  let refused = 0
  for (let i = 0; i < 5; i++) if ((await raw(url, { jsonrpc: '2.0', id: i, method: 'eth_chainId' })) === 429) refused++
  assert.equal(refused, 3)
  assert.equal(value(await scrape(url), 'flashnode_rpc_rate_limited_total'), 3)

  const publicEndpoint = await servedManualNode(t, { profile: 'public' })
  assert.equal((await fetch(`${publicEndpoint.url}/metrics`)).status, 404)
})

test('an EVM job stopped at its time limit is counted; the execution queue depth is exposed', async (t) => {
  // A gas cap no loop spends in the limit: the EVM itself stops the loop at its deadline.
  const { url } = await servedManualNode(t, {}, { executionWorkers: 1, evmTimeoutMs: 300, gasCap: 10n ** 12n })
  const loop = '0x00000000000000000000000000000000000000cc'
  const before = await scrape(url)
  await assert.rejects(
    rpc(url, 'eth_call', [{ to: loop, gas: '0xe8d4a51000' }, 'latest', { [loop]: { code: '0x5b600056' } }]), // JUMPDEST PUSH1 0 JUMP: forever
    /execution aborted/,
  )
  const after = await scrape(url)
  // Our EVM checks its deadline as it runs, so the loop stops itself; nothing is killed.
  assert.equal(value(after, 'flashnode_execution_jobs_timed_out_total') - value(before, 'flashnode_execution_jobs_timed_out_total'), 1)
  assert.equal(value(after, 'flashnode_execution_jobs_killed_total') - value(before, 'flashnode_execution_jobs_killed_total'), 0)
  assert.equal(family(after, 'flashnode_execution_jobs_timed_out_total').type, 'counter')
  assert.equal(value(after, 'flashnode_execution_queue_depth'), 0)
  assert.equal(value(after, 'flashnode_execution_workers'), 1, 'the one worker it was given')
  assert.equal(value(after, 'flashnode_execution_extra_workers_in_use'), 0, 'it was given no extra worker')
})

test('an EVM job that does not stop at its limit is killed, and counted', async (t) => {
  // The EVM and its slow precompiles stop at their deadline themselves, so the backstop is reached only by a
  // bug: the failpoint makes the worker spin on its first job without ever looking at a clock. The worker
  // reads it from the environment it is started with (here, with the node); its replacement is not armed.
  process.env.FLASHNODE_FAILPOINT = 'execution:stall:1'
  let served
  try {
    served = await servedManualNode(t, {}, { executionWorkers: 1, evmTimeoutMs: 300 })
  } finally {
    delete process.env.FLASHNODE_FAILPOINT
  }
  const { url } = served
  const before = await scrape(url)
  const probe = '0x00000000000000000000000000000000000000cc'
  await assert.rejects(rpc(url, 'eth_call', [{ to: probe }, 'latest', { [probe]: { code: '0x602a60005260206000f3' } }]), /execution aborted/)
  const after = await scrape(url)
  assert.equal(value(after, 'flashnode_execution_jobs_killed_total') - value(before, 'flashnode_execution_jobs_killed_total'), 1)
  assert.equal(family(after, 'flashnode_execution_jobs_killed_total').type, 'counter')
  // The replacement worker answers the same call.
  assert.equal(await rpc(url, 'eth_call', [{ to: probe }, 'latest', { [probe]: { code: '0x602a60005260206000f3' } }]), `0x${'00'.repeat(31)}2a`)
})
