/**
 * The metrics as an operator starts them: `--metrics-port N` serves the exposition alone on its own port (the
 * same series as GET /metrics on the JSON-RPC port; nothing else there), and `--no-metrics` records none.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { get } from 'node:http'
import { rpc, spawnNode } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'
import { parseExposition } from '../support/prometheus-text.ts'

/** A GET's status with a given Host header (fetch does not let a caller set it). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    }).once('error', reject)
  })
}

test('--metrics-port serves the metrics alone; the RPC port serves the same', { timeout: 120_000 }, async (t) => {
  const node = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--metrics-port', '0'])
  const alone = await node.printed(/metrics alone on (http:\/\/\S+)/)
  assert.notEqual(new URL(alone).port, new URL(node.url).port)
  await rpc(node.url, 'eth_chainId')
  const own = parseExposition(await (await fetch(alone)).text())
  const onRpcPort = parseExposition(await (await fetch(`${node.url}/metrics`)).text())
  const calls = (f: typeof own) => f.get('flashnode_rpc_requests_total')!.samples.find((s) => s.labels.method === 'eth_chainId' && s.labels.outcome === 'ok')!.value
  assert.equal(calls(own), 1)
  assert.equal(calls(onRpcPort), 1, 'one node, one set of series')
  assert.equal((await fetch(new URL('/', alone))).status, 404, 'nothing but /metrics')
  assert.equal((await fetch(alone, { method: 'POST', body: '{}' })).status, 405)
  assert.equal(await statusWithHost(alone, 'evil.example'), 403, 'the RPC port\'s Host check')
  await node.stop()
})

test('--no-metrics: no /metrics on the RPC port', { timeout: 120_000 }, async (t) => {
  const node = await spawnNode(t, ['--datadir', tempDir(t), '--sealing', 'manual', '--no-metrics'])
  assert.equal((await fetch(`${node.url}/metrics`)).status, 404)
  await node.stop()
})
