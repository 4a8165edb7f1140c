/**
 * /metrics against Prometheus's own tools (Debian's `prometheus` package): `promtool check metrics` finds
 * nothing on any flashnode_ series (after an execution job and a flashblock with a transaction, so the
 * gas-per-second series hold observations) (its lint of prom-client's default Node.js names is known noise, and
 * nothing else may appear), and a real Prometheus server scraping a node for a few seconds answers a query
 * for one of its metrics through its HTTP API. Without the package the tests say so and do not run.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { servedManualNode } from '../support/sequencing-node.ts'
import { tempDir } from '../support/temp-dir.ts'
import { rpc } from '../support/node-process.ts'
import { signedTx } from '../support/dev-chain.ts'
import { bytesToHex } from '@ethereumjs/util'
import { freePort, needsTool } from '../support/debian-tool.ts'

/** prom-client's default metric names promtool lints (counters' naming rule on its gauges): known noise. */
const DEFAULT_NAMES = /^(nodejs|process)_[a-z_]+ /

test('promtool check metrics finds nothing on a flashnode_ series', needsTool('promtool', 'prometheus'), async (t) => {
  const { node, url } = await servedManualNode(t)
  await rpc(url, 'eth_chainId')
  // An execution job and a flashblock with a transaction, so the gas-per-second series hold observations.
  const loop = '0x00000000000000000000000000000000000000cc'
  await rpc(url, 'eth_call', [{ to: loop }, 'latest', { [loop]: { code: '0x6103e85b600190038060035700' } }]) // 1,000 turns
  await rpc(url, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, 0, 0n, { to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n }).serialize())])
  await rpc(url, 'flashnode_flashblock')
  await rpc(url, 'evm_mine')
  const exposition = await (await fetch(`${url}/metrics`)).text()
  assert.match(exposition, /^flashnode_rpc_requests_total\{/m)
  assert.match(exposition, /^flashnode_execution_gas_per_second_count\{method="eth_call"\} 1$/m)
  assert.match(exposition, /^flashnode_flashblock_gas_per_second_count 1$/m)
  const check = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' })
  const findings = `${check.stdout}${check.stderr}`.split('\n').filter((line) => line.trim() !== '')
  assert.ok(check.status === 0 || check.status === 3, `promtool ran (status ${check.status}): ${findings.join(' | ')}`)
  const ours = findings.filter((line) => !DEFAULT_NAMES.test(line))
  assert.deepEqual(ours, [], 'no finding but the known lint of prom-client\'s default names')
})

test('a real Prometheus server scrapes the node and answers a query for its head block', { ...needsTool('prometheus', 'prometheus'), timeout: 60_000 }, async (t) => {
  const { url } = await servedManualNode(t)
  await rpc(url, 'evm_mine')
  await rpc(url, 'evm_mine')
  const dir = tempDir(t)
  const port = await freePort()
  const config = join(dir, 'prometheus.yml')
  writeFileSync(config, [
    'global:',
    '  scrape_interval: 1s',
    'scrape_configs:',
    '  - job_name: flashnode',
    `    static_configs: [{ targets: ['${new URL(url).host}'] }]`,
    '',
  ].join('\n'))
  const server = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  server.stderr.on('data', (d) => (log = (log + String(d)).slice(-4000)))
  const exited = new Promise((resolve) => server.once('exit', resolve))
  t.after(async () => {
    server.kill('SIGTERM')
    await exited
  })
  // Prometheus needs a scrape or two: ask until the answer has the series (bounded at 30 s).
  const query = `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('flashnode_head_block_number{job="flashnode"}')}`
  const deadline = Date.now() + 30_000
  let answer: { status: string; data?: { result: { value: [number, string] }[] } } | undefined
  while (Date.now() < deadline) {
    try {
      answer = (await (await fetch(query)).json()) as typeof answer
      if (answer?.data?.result.length === 1) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  assert.equal(answer?.status, 'success', `Prometheus answered (its log: ${log.slice(-500)})`)
  assert.equal(answer?.data?.result.length, 1, 'one series for the node\'s head block')
  assert.equal(answer!.data!.result[0]!.value[1], '2', 'the head block number the node reported')
})
