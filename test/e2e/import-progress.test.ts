/**
 * `flashnode import` as an operator runs it in a pipeline (standard error not a terminal): its progress comes
 * as JSON log lines on standard error, every tenth of the file at the latest, each with the job, blocks done
 * of the file's total, percent, rate and time left, and a last `done` line at the whole file; the summary
 * stays on standard output. The chain is the execution-apis rpc-compat chain (../shared), imported for real.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { splitRlpStream } from '../../src/execution/block-codec.ts'
import { REPO_ROOT } from '../support/node-process.ts'
import { RPC_COMPAT_DIR, readRpcCompatChain } from '../support/shared.ts'
import { tempDir } from '../support/temp-dir.ts'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DEV_ACCOUNTS_FILE } from '../../src/cli/dev-accounts-file.ts'

const cli = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 })

interface Line {
  level: string
  msg: string
  job: string
  unit: string
  done: number
  total: number
  percent: number
  rate: number | null
  etaSeconds: number | null
  elapsedSeconds: number
}

test('import off a terminal: progress as JSON lines on standard error, the summary on standard output', { timeout: 180_000 }, async (t) => {
  const datadir = tempDir(t)
  const chain = `${RPC_COMPAT_DIR}chain.rlp`
  const total = [...splitRlpStream(readRpcCompatChain())].length
  const init = cli(['init', '--datadir', datadir, '--genesis', `${RPC_COMPAT_DIR}genesis.json`])
  assert.equal(init.status, 0, init.stderr)
  assert.ok(existsSync(join(datadir, DEV_ACCOUNTS_FILE)), 'init remembers the test accounts, so that the first start does not derive them')

  const run = cli(['import', '--datadir', datadir, chain])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, new RegExp(`chain\\.rlp: imported ${total}, skipped 0 known, head ${total} \\(`))
  const lines = run.stderr.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line)
  const progress = lines.filter((l) => l.msg === 'progress')
  const last = lines.at(-1)!
  assert.equal(last.msg, 'done')
  assert.deepEqual({ done: last.done, total: last.total, percent: last.percent, etaSeconds: last.etaSeconds }, { done: total, total, percent: 100, etaSeconds: 0 })
  assert.ok(progress.length >= 9, `a line every tenth at the latest (${progress.length} lines)`)
  const step = Math.ceil(total / 10)
  let before = 0
  for (const l of [...progress, last]) {
    assert.equal(l.level, 'info')
    assert.equal(l.job, 'import chain.rlp')
    assert.equal(l.unit, 'blocks')
    assert.equal(l.total, total)
    assert.ok(l.done > before || l.msg === 'done', 'blocks done only grow')
    assert.ok(l.done - before <= step, `no gap over a tenth (${before} -> ${l.done})`)
    assert.equal(l.percent, Math.round((1000 * l.done) / total) / 10)
    assert.ok(l.rate !== null && l.rate > 0 && l.etaSeconds !== null && l.etaSeconds >= 0)
    before = l.done
  }

  const again = cli(['import', '--datadir', datadir, chain])
  assert.equal(again.status, 0, again.stderr)
  assert.match(again.stdout, new RegExp(`imported 0, skipped ${total} known`))
  const final = JSON.parse(again.stderr.trim().split('\n').at(-1)!) as Line
  assert.deepEqual({ msg: final.msg, done: final.done }, { msg: 'done', done: total }, 'known blocks count as done')
})
