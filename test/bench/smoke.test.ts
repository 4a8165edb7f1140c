/**
 * The benchmark still works: a smoke run of one scenario with both peers (Flashnode and Anvil from
 * `@foundry-rs/anvil`) side by side, as `npm run bench` runs it, but for a fraction of a second. It proves
 * the harness starts both peers, checks their answers, drives load from a separate process and prints the
 * table; it asserts no speed (benchmarks measure, tests assert behaviour).
 */

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

function runBench(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: REPO })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

test('npm run bench -- --only read: both peers answer and the side-by-side table is printed', { timeout: 150_000 }, async () => {
  const out = await runBench(['--only', 'read', '--reps', '1', '--duration', '300', '--warmup', '100'], 140_000)
  assert.equal(out.code, 0, `bench exited ${out.code}:\n${out.stderr.slice(-3000)}`)
  const rows = out.stdout.split('\n').filter((line) => /^eth_\S+ .*@latest/.test(line))
  assert.equal(rows.length, 5, `five read rows expected (four reads and eth_getProof):\n${out.stdout}`)
  for (const row of rows) {
    assert.doesNotMatch(row, /unavailable|WRONG ANSWER/, row)
    assert.match(row, /\d+\.\d+×\s*$/, `each row ends with the Flashnode/Anvil ratio: ${row}`)
  }
  assert.match(out.stdout, /^results: .*\.json$/m)
})
