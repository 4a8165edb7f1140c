/**
 * `flashnode start --config FILE` as a user runs it: one process, one node, a public and a dedicated
 * endpoint and one without pre-confirmations from one config file; a bad config file stops the start with
 * exit code 2 and names the field, before the data directory is created.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../support/node-process.ts'
import { call, post } from '../support/endpoints.ts'
import { tempDir } from '../support/temp-dir.ts'

interface Cli {
  /** Resolves once `match` finds something in the output so far (checked on every chunk). */
  waitFor<T>(match: (stdout: string) => T | undefined): Promise<T>
  stderr(): string
  readonly exited: Promise<number | string>
  stop(): void
}

function startCli(args: string[]): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => (out += String(d)))
  child.stderr.on('data', (d) => (err += String(d)))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? -1)))
  return {
    waitFor: <T>(match: (stdout: string) => T | undefined) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the node did not start in 60 s: ${err}`)), 60_000)
        const check = (): void => {
          const found = match(out)
          if (found === undefined) return
          clearTimeout(timer)
          child.stdout.off('data', check)
          resolve(found)
        }
        child.stdout.on('data', check)
        void exited.then(() => {
          clearTimeout(timer)
          reject(new Error(`the node exited before it started: ${err}`))
        })
        check()
      }),
    stderr: () => err,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    },
  }
}

test('one process serves a public, a dedicated and a sealed-only endpoint from one config file', { timeout: 90_000 }, async (t) => {
  const dir = tempDir(t)
  const config = join(dir, 'flashnode.json')
  writeFileSync(config, JSON.stringify({
    endpoints: [
      { name: 'edge', port: 0, profile: 'public', rateLimit: { requestsPerSecond: 1000 } },
      { name: 'internal', port: 0 },
      { name: 'sealed', port: 0, preconfirmations: false },
    ],
  }))
  const cli = startCli(['--datadir', join(dir, 'data'), '--config', config, '--sealing', 'manual'])
  t.after(async () => {
    cli.stop()
    await cli.exited
  })
  const listening = await cli.waitFor((stdout) => {
    const found = [...stdout.matchAll(/listening on (http:\/\/\S+) \(endpoint (\w+), profile (\w+)(, without pre-confirmations)?\)/g)]
    return found.length === 3 ? found : undefined
  })
  const urls = new Map(listening.map((m) => [m[2]!, { url: m[1]!, profile: m[3]!, sealedOnly: m[4] !== undefined }]))
  assert.deepEqual(urls.get('edge'), { url: urls.get('edge')?.url, profile: 'public', sealedOnly: false })
  assert.deepEqual(urls.get('internal'), { url: urls.get('internal')?.url, profile: 'dedicated', sealedOnly: false })
  assert.deepEqual(urls.get('sealed'), { url: urls.get('sealed')?.url, profile: 'dedicated', sealedOnly: true })
  const edge = urls.get('edge')!.url
  const internal = urls.get('internal')!.url

  assert.equal((await post(edge, call(1, 'eth_getBlockReceipts', ['latest']))).status, 403)
  assert.deepEqual((await post(internal, call(1, 'eth_getBlockReceipts', ['latest']))).json(), { jsonrpc: '2.0', id: 1, result: [] })
  assert.equal(((await post(edge, call(1, 'evm_mine'))).json() as { error: { code: number } }).error.code, -32601)
  assert.deepEqual((await post(internal, call(1, 'evm_mine'))).json(), { jsonrpc: '2.0', id: 1, result: '0x0' })
  assert.deepEqual((await post(edge, call(2, 'eth_blockNumber'))).json(), { jsonrpc: '2.0', id: 2, result: '0x1' }, 'one node behind both')
  const simulate = call(3, 'eth_simulateV1', [{ blockStateCalls: [] }, 'pending'])
  assert.equal(((await post(urls.get('sealed')!.url, simulate)).json() as { error: { code: number } }).error.code, -32601)
  assert.equal(((await post(internal, simulate)).json() as { error: { code: number } }).error.code, -32602, 'served (an empty simulation is invalid)')

  cli.stop()
  assert.equal(await cli.exited, 0, 'SIGTERM shuts every endpoint and the node down cleanly')
})

test('a bad config file stops the start with exit code 2, naming the field, before the data directory is made', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t)
  const config = join(dir, 'flashnode.json')
  writeFileSync(config, JSON.stringify({ endpoints: [{ name: 'a', port: 0 }, { name: 'b', port: 0, limits: { maxBatchItems: -5 } }] }))
  const datadir = join(dir, 'data')
  const cli = startCli(['--datadir', datadir, '--config', config])
  assert.equal(await cli.exited, 2)
  assert.equal(cli.stderr().trim(), `flashnode: config file ${config}: endpoints[1].limits.maxBatchItems: must be a whole number above 0, got -5`)
  assert.equal(existsSync(datadir), false)
})
