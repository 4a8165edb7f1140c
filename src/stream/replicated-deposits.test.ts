/**
 * A group leader's user deposits on the brokers (replicated-deposits.ts) against a real three-server
 * JetStream cluster (test/support/nats-cluster.ts; skipped, saying so, without nats-server):
 *
 * - an OP leader (in this process, behind a real JSON-RPC server, leading term 1 through the replicated
 *   stream as a group member does) answers a deposit's hash once the bucket stored it; with two of the
 *   three servers frozen (no quorum) the next send fails within its bound with a clear error, not a hash;
 *   once they are thawed, a successor's keeper reads the answered deposit back, first;
 * - a successor drops (and deletes) a deposit the chain already holds, and its watch adds one an older
 *   leader's late write stores after the successor listed the bucket.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsCluster } from '../../test/support/nats-cluster.ts'
import { unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { opStackCliConfig } from '../../test/support/op-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { streamClient, takeOver } from '../../test/support/replicated-stream-kit.ts'
import { rpc } from '../../test/support/node-process.ts'
import { serve } from '../cli/serve.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { ReplicatedDeposits } from './replicated-deposits.ts'
import type { NatsConnection } from '@nats-io/transport-node'

const NATS = { ...needsTool('nats-server', 'nats-server'), timeout: 120_000 }
const CHAIN_ID = 901n
const DEPOSITOR = '0x00000000000000000000000000000000000d0d0d'
const RECEIVER = '0x00000000000000000000000000000000000000bb'

const deposit = (value: number) => [{ from: DEPOSITOR, to: RECEIVER, mint: '0x1', value: `0x${value.toString(16)}`, gas: '0x30000' }]

async function keeper(t: TestContext, nc: NatsConnection, term: number, included: (hash: Uint8Array) => boolean = () => false): Promise<ReplicatedDeposits> {
  const k = await ReplicatedDeposits.open(nc, { chainId: CHAIN_ID, term, replicas: 3, included })
  t.after(() => k.close())
  return k
}

const TERM_1 = 1n << 32n
/** A stand-in envelope per log index (the keeper stores bytes; it never decodes them). */
const envelope = (logIndex: bigint): Uint8Array => hexToBytes(`0x7e${logIndex.toString(16).padStart(16, '0')}`)

const hashesOf = (k: ReplicatedDeposits): string[] => k.waiting.map((d) => bytesToHex(keccak256(d.envelope)))

test('a leader answers a deposit once the bucket stored it; without quorum the send fails with a clear error; a successor reads the answered one back', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const nc = await streamClient(t, cluster.urls)
  const op = opStackCliConfig(tempDir(t), {})
  const node = await unstartedManualNode(t, {}, tempDir(t), { genesis: op.genesis })
  const kept = await ReplicatedDeposits.open(nc, { chainId: node.rules.chainId, term: 1, replicas: 3, included: () => false })
  t.after(() => kept.close())
  node.sequencer!.useDepositKeeping(kept)
  await takeOver(t, nc, node, 1)
  const server = await serve(node, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'], preconfirmations: true })
  t.after(() => server.close())

  const answered = await rpc<string>(server.url, 'flashnode_sendDeposit', deposit(1))
  assert.deepEqual(kept.waiting.map((d) => bytesToHex(keccak256(d.envelope))), [answered])

  await cluster.kill(1, 'SIGSTOP')
  await cluster.kill(2, 'SIGSTOP')
  const started = performance.now()
  const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'flashnode_sendDeposit', params: deposit(2) }) })
  const body = (await res.json()) as { result?: string; error?: { code: number; message: string; data?: string } }
  const took = performance.now() - started
  assert.equal(body.result, undefined, 'no hash answered without quorum')
  assert.match(body.error?.message ?? '', /^the deposit could not be kept, so it is not queued \(no hash answered\): the broker did not answer keep the deposit: /)
  assert.match(body.error?.data ?? '', /^0x[0-9a-f]{64}$/, 'the hash it would have had, to look for later')
  assert.notEqual(body.error?.data, answered)
  assert.ok(took >= 1_000 && took < 5_000, `failed within its bound (${Math.round(took)} ms)`)
  assert.deepEqual(kept.waiting.map((d) => bytesToHex(keccak256(d.envelope))), [answered], 'only the answered deposit waits')

  await cluster.kill(1, 'SIGCONT')
  await cluster.kill(2, 'SIGCONT')
  await cluster.ready()
  // A successor reads the bucket: the answered deposit first (the refused one only if its write was stored
  // later, after the quorum returned: then it follows, once).
  const successor = await ReplicatedDeposits.open(await streamClient(t, [...cluster.urls].reverse()), { chainId: node.rules.chainId, term: 2, replicas: 3, included: () => false, setupTimeoutMs: 30_000 })
  t.after(() => successor.close())
  const found = successor.waiting.map((d) => bytesToHex(keccak256(d.envelope)))
  assert.equal(found[0], answered)
  assert.ok(found.length === 1 || (found.length === 2 && found[1] === body.error?.data), `nothing else: ${found.join(', ')}`)
})

test("a successor drops a deposit the chain holds (its key deleted) and hears an older leader's late write", NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const nc = await streamClient(t, cluster.urls)
  const older = await keeper(t, nc, 1)
  const a = await older.keep(5n, envelope)
  const b = await older.keep(5n, envelope)
  assert.deepEqual([a.logIndex, b.logIndex], [TERM_1, TERM_1 + 1n], "log indices from the term's first (term · 2^32)")
  const inChain = bytesToHex(keccak256(a.envelope))

  const successor = await keeper(t, nc, 2, (hash) => bytesToHex(hash) === inChain)
  assert.deepEqual(hashesOf(successor), [bytesToHex(keccak256(b.envelope))], 'the one the chain holds is dropped')
  // The older leader, not yet aware it was replaced, keeps one more: the successor's watch adds it, after b.
  const late = await older.keep(5n, envelope)
  assert.equal(late.logIndex, TERM_1 + 2n)
  const deadline = performance.now() + 5_000
  while (successor.waiting.length < 2 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.deepEqual(hashesOf(successor), [b, late].map((d) => bytesToHex(keccak256(d.envelope))))
  // Its own next deposit for block 5 takes its own term's first log index: never a key an older term used.
  const own = await successor.keep(5n, envelope)
  assert.equal(own.logIndex, 2n << 32n)

  // A third reader finds the dropped key deleted; taken and acknowledged, the successor's are deleted too.
  successor.taken(undefined, 3)
  successor.acknowledged()
  const reader = await keeper(t, nc, 3)
  const until = performance.now() + 5_000
  let left = hashesOf(reader)
  while (left.length > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    left = hashesOf(await keeper(t, nc, 3))
  }
  assert.deepEqual(left, [], 'every key deleted')
})
