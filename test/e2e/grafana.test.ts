/**
 * The Grafana dashboard (docs/grafana/flashnode.json) and the alerting rules (docs/grafana/alerts.yml) cannot
 * drift from the metrics: every metric name in their PromQL is a series of a real node's /metrics scrape
 * (a sequencing node with an execution worker, after calls, a submission, a flashblock and a seal, and a
 * follower of it fed its stream), and every
 * flashnode_ family of that scrape has a panel. The dashboard is importable (a ${DS_PROMETHEUS} input that
 * every panel uses, unique panel ids, panels on the 24-column grid) and Prometheus's own `promtool` accepts
 * its expressions (as rules), the alerting rules (`check rules`) and their unit tests (`test rules`:
 * docs/grafana/alerts.test.yml). Without Debian's prometheus package the promtool checks say so and do not
 * run; the name checks always run.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bytesToHex } from '@ethereumjs/util'
import { inProcessFollower, servedManualNode } from '../support/sequencing-node.ts'
import { signedTx } from '../support/dev-chain.ts'
import { rpc, REPO_ROOT } from '../support/node-process.ts'
import { parseExposition } from '../support/prometheus-text.ts'
import { needsTool } from '../support/debian-tool.ts'
import { tempDir } from '../support/temp-dir.ts'

const DASHBOARD = join(REPO_ROOT, 'docs/grafana/flashnode.json')
const ALERTS = join(REPO_ROOT, 'docs/grafana/alerts.yml')
const ALERT_TESTS = join(REPO_ROOT, 'docs/grafana/alerts.test.yml')

interface Panel {
  id: number
  type: string
  title: string
  datasource?: { type: string; uid: string }
  gridPos: { h: number; w: number; x: number; y: number }
  targets?: { expr: string; datasource?: { uid: string } }[]
  panels?: Panel[]
}

const dashboard = () => JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { __inputs: { name: string; pluginId: string }[]; panels: Panel[]; templating: { list: { query: unknown }[] } }

/** Grafana's variables as Prometheus would see them once substituted. */
const substituted = (expr: string): string => expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*')

/** The `expr:` values of a rules file (block scalars `|` and plain ones). */
function ruleExpressions(yaml: string): string[] {
  const out: string[] = []
  const lines = yaml.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)expr:\s*(.*)$/.exec(lines[i]!)
    if (m === null) continue
    if (m[2] !== '|') {
      out.push(m[2]!)
      continue
    }
    const body: string[] = []
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > m[1]!.length)) body.push(lines[++i]!.trim())
    out.push(body.join(' ').trim())
  }
  return out
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan'])

/** The metric names a PromQL expression reads: identifiers outside strings, label sets, ranges and label lists that are not functions or keywords. */
export function metricNames(expr: string): string[] {
  let s = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""')
  s = s.replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ')
  s = s.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const names: string[] = []
  for (const m of s.matchAll(/(?<![\w.:])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    if (KEYWORDS.has(m[0].toLowerCase())) continue
    if (s.slice(m.index! + m[0].length).trimStart().startsWith('(')) continue
    names.push(m[0])
  }
  return names
}

test('metricNames reads the metrics of an expression, not its functions, labels or ranges', () => {
  assert.deepEqual(metricNames('histogram_quantile(0.99, sum by (le, method) (rate(a_bucket{instance=~"$x", m="b_c"}[5m])))'), ['a_bucket'])
  assert.deepEqual(metricNames('sum(rate(x_total[1m])) / on (instance) y > 0.5 * z and w offset 5m'), ['x_total', 'y', 'z', 'w'])
  assert.deepEqual(metricNames('deriv(max(h)[5m:]) > 4 * 1024 + 1e9'), ['h'])
})

function panelsOf(list: Panel[]): Panel[] {
  return list.flatMap((p) => [p, ...panelsOf(p.panels ?? [])])
}

async function scrapeNames(t: import('node:test').TestContext): Promise<Set<string>> {
  const { node, url } = await servedManualNode(t, {}, { executionWorkers: 1 })
  await rpc(url, 'eth_chainId')
  await rpc(url, 'eth_call', [{ to: '0x00000000000000000000000000000000000000aa', data: '0x' }, 'latest'])
  await rpc(url, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, 0, 0n, { to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n }).serialize())])
  await rpc(url, 'flashnode_flashblock')
  await rpc(url, 'evm_mine')
  // A follower of it (in-process, its stream's messages handed over), for the follower's metrics.
  const follower = await inProcessFollower(t, node)
  node.stream!.flush()
  for (const m of node.stream!.messages()) await follower.follower!.receive(JSON.parse(m.json.toString('utf8')))
  const names = new Set<string>()
  for (const text of [await (await fetch(`${url}/metrics`)).text(), (await follower.metrics!.exposition()).body]) {
    for (const f of parseExposition(text).values()) {
      names.add(f.name)
      for (const s of f.samples) names.add(s.name)
    }
  }
  return names
}

test('every metric the dashboard and the alerts read is in a real scrape, and every flashnode_ family has a panel', { timeout: 60_000 }, async (t) => {
  const scraped = await scrapeNames(t)
  const d = dashboard()
  const panels = panelsOf(d.panels)
  const exprs = panels.flatMap((p) => (p.targets ?? []).map((target) => ({ where: `panel "${p.title}"`, expr: target.expr })))
  assert.ok(exprs.length >= 30, `${exprs.length} expressions`)
  const alerts = ruleExpressions(readFileSync(ALERTS, 'utf8'))
  assert.ok(alerts.length >= 10, `${alerts.length} alert expressions`)
  const used = new Set<string>()
  for (const { where, expr } of [...exprs, ...alerts.map((expr) => ({ where: 'alerts.yml', expr }))]) {
    const names = metricNames(substituted(expr))
    assert.ok(names.length > 0, `${where} reads a metric: ${expr}`)
    for (const name of names) {
      used.add(name)
      // `up` is Prometheus's own series for a scrape target, never in the exposition.
      if (where === 'alerts.yml' && name === 'up') continue
      assert.ok(scraped.has(name), `${where}: ${name} is not a series of the node (${expr})`)
    }
  }
  const ours = [...scraped].filter((n) => n.startsWith('flashnode_') && !/_(bucket|sum|count)$/.test(n))
  const onDashboard = new Set(exprs.flatMap(({ expr }) => metricNames(substituted(expr))).map((n) => n.replace(/_(bucket|sum|count)$/, '')))
  assert.deepEqual(ours.filter((n) => !onDashboard.has(n)), [], 'a panel for every flashnode_ metric')
})

test('the dashboard is importable: a Prometheus input every panel uses, unique ids, the 24-column grid', () => {
  const d = dashboard()
  assert.deepEqual(d.__inputs.map((i) => [i.name, i.pluginId]), [['DS_PROMETHEUS', 'prometheus']])
  const panels = panelsOf(d.panels)
  assert.equal(new Set(panels.map((p) => p.id)).size, panels.length, 'unique panel ids')
  for (const p of panels) {
    assert.ok(p.gridPos.x >= 0 && p.gridPos.w > 0 && p.gridPos.x + p.gridPos.w <= 24, `${p.title} fits the grid`)
    if (p.type === 'row') continue
    assert.equal(p.datasource?.uid, '${DS_PROMETHEUS}', `${p.title}: the imported data source`)
    assert.ok((p.targets ?? []).length > 0, `${p.title} has a query`)
    for (const target of p.targets!) assert.equal(target.datasource?.uid, '${DS_PROMETHEUS}')
  }
})

test('promtool accepts the dashboard\'s expressions and the alerting rules, and the alerts\' unit tests pass', needsTool('promtool', 'prometheus'), (t) => {
  const dir = tempDir(t)
  const exprs = panelsOf(dashboard().panels).flatMap((p) => (p.targets ?? []).map((target) => substituted(target.expr)))
  const rules = join(dir, 'dashboard-rules.yml')
  writeFileSync(rules, ['groups:', '  - name: dashboard', '    rules:', ...exprs.flatMap((expr, i) => [`      - record: dashboard:expr_${i}`, `        expr: ${JSON.stringify(expr)}`]), ''].join('\n'))
  for (const args of [['check', 'rules', rules], ['check', 'rules', ALERTS], ['test', 'rules', ALERT_TESTS]]) {
    const run = spawnSync('promtool', args, { encoding: 'utf8' })
    assert.equal(run.status, 0, `promtool ${args.join(' ')}: ${run.stdout}${run.stderr}`)
  }
})
