/**
 * Unit tests of serve.ts against fixtures/fake-serve.ts (same flags and ready line as the real serve
 * script): it finds the URL among other output, stops the child (escalating to SIGKILL), and fails fast
 * with the child's stderr when the script is missing, crashes or never gets ready.
 */

import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, test } from 'node:test'
import { startServe } from './serve.ts'

const FAKE = 'test/conformance/fixtures/fake-serve.ts'

async function rpc(url: string): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
  })
  return res.json()
}

describe('serve', () => {
  let datadir: string
  beforeEach(async () => {
    datadir = await mkdtemp(join(tmpdir(), 'flashnode-serve-test-'))
  })
  afterEach(async () => {
    await rm(datadir, { recursive: true, force: true })
  })

  test('returns the printed URL, and stop() ends the child', async () => {
    const node = await startServe({ datadir, script: FAKE })
    assert.match(node.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.deepEqual(await rpc(node.url), { jsonrpc: '2.0', id: 1, result: '0x36' })
    await node.stop()
    await node.stop() // idempotent
    await assert.rejects(rpc(node.url))
  })

  test('stop() escalates to SIGKILL when SIGTERM is ignored', { timeout: 30_000 }, async () => {
    await writeFile(join(datadir, 'mode'), 'stubborn')
    const node = await startServe({ datadir, script: FAKE })
    const started = Date.now()
    await node.stop()
    const took = Date.now() - started
    assert.ok(took >= 4_500 && took < 15_000, `stop took ${took} ms`)
    assert.match(node.stderr(), /ignoring SIGTERM/)
    await assert.rejects(rpc(node.url))
  })

  test('a missing serve script fails at once, naming it', async () => {
    const started = Date.now()
    await assert.rejects(startServe({ datadir, script: 'scripts/does-not-exist.ts' }), /scripts\/does-not-exist\.ts does not exist/)
    assert.ok(Date.now() - started < 1_000)
  })

  test('a child that exits before it is ready rejects with its stderr', async () => {
    await writeFile(join(datadir, 'mode'), 'crash')
    await assert.rejects(startServe({ datadir, script: FAKE }), (err: Error) => {
      assert.match(err.message, /exited before it was ready \(code 3\)/)
      assert.match(err.message, /cannot open the datadir \(on purpose\)/)
      return true
    })
  })

  test('a child that never prints the ready line is killed at the timeout', async () => {
    await writeFile(join(datadir, 'mode'), 'silent')
    await assert.rejects(startServe({ datadir, script: FAKE, timeoutMs: 3_000 }), /printed no "listening on http:\/\/\.\.\." line within 3000 ms/)
  })
})
