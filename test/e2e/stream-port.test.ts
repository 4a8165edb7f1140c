/**
 * `flashnode start --flashblocks-port N`, as an operator runs it: the flashblock stream alone on its own
 * port (at /flashblocks and /), the same messages as at /flashblocks on the JSON-RPC port, the same Host
 * check, and nothing else served there.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import WebSocket from 'ws'
import { spawnNode } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'
import { decodeMessage, type FlashblocksPayloadV1 } from '../support/flashblocks-consumer.ts'

/** The first `count` messages a new subscriber at `url` receives; fails if it is closed before. */
function firstMessages(url: string, count: number, headers: Record<string, string> = {}): Promise<FlashblocksPayloadV1[]> {
  const ws = new WebSocket(url, { headers })
  const got: FlashblocksPayloadV1[] = []
  return new Promise((resolve, reject) => {
    ws.on('message', (data, binary) => {
      got.push(decodeMessage(data as Buffer, binary))
      if (got.length === count) {
        ws.terminate()
        resolve(got)
      }
    })
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    // Closed by the node before `count` messages (a resume point refused, say): fail now, not at the test's timeout.
    ws.once('close', (code, reason) => reject(new assert.AssertionError({ message: `${url}: closed (${code}: ${String(reason)}) after ${got.length} of ${count} messages` })))
  })
}

/** A plain HTTP GET's status. */
function getStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
      .once('error', reject)
      .end()
  })
}

test('--flashblocks-port serves the stream alone: the RPC port\'s messages, at /flashblocks and /, behind the Host check', { timeout: 120_000 }, async (t) => {
  const node = await spawnNode(t, ['--datadir', tempDir(t), '--flashblocks-port', '0', '--flashblock-interval', '50', '--flashblocks-per-block', '4'])
  const alone = await node.printed(/flashblock stream alone on (ws:\/\/\S+)/)
  const port = new URL(alone).port
  assert.notEqual(port, new URL(node.url).port, 'a port of its own')
  assert.equal(alone, `ws://127.0.0.1:${port}/flashblocks`)

  const [onRpcPort, onOwnPort, atRoot] = await Promise.all([
    firstMessages(`${node.url.replace('http', 'ws')}/flashblocks?after=0`, 8),
    firstMessages(`${alone}?after=0`, 8),
    firstMessages(`ws://127.0.0.1:${port}/?after=0`, 8),
  ])
  assert.deepEqual(onRpcPort.map((m) => m.metadata.sequence), [1, 2, 3, 4, 5, 6, 7, 8], 'the RPC port resumes from the first message')
  assert.deepEqual(onOwnPort, onRpcPort, 'the same messages on the stream\'s own port')
  assert.deepEqual(atRoot, onRpcPort, 'and at its root path')

  await assert.rejects(firstMessages(alone, 1, { host: 'evil.example' }), /HTTP 403/, 'a Host not allowed is refused')
  assert.equal(await getStatus(`http://127.0.0.1:${port}/other`, { connection: 'upgrade', upgrade: 'websocket' }), 404, 'another path is not served')
  assert.equal(await getStatus(`http://127.0.0.1:${port}/flashblocks`), 426, 'plain HTTP is told to upgrade')
  assert.equal(await getStatus(`http://127.0.0.1:${port}/`, { 'content-type': 'application/json' }), 426, 'no JSON-RPC on the stream\'s port')
  await node.stop()
})
