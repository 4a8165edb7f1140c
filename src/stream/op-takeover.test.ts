/**
 * A sequencer group on an OP Stack chain (issues 40 and 41) against a real three-server JetStream cluster
 * (test/support/nats-cluster.ts; skipped, saying so, without nats-server): B (term 2) takes over A's open OP
 * block from the replicated stream, as a group member does (its journal rewritten from the stream's tail,
 * group-member.ts `rewriteJournal`: the opening's deposits with the environment; the gate continued), and
 * continues the same block: the same L1-attributes deposit and user deposit at its head (the hash A answered
 * for the deposit), A's transactions, then B's at the next index. A's next flashblock is fenced out. The
 * stream holds one block under one payload id, and an OP follower applying it in order builds and checks
 * the sealed block itself.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import type { NatsConnection } from '@nats-io/transport-node'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsCluster } from '../../test/support/nats-cluster.ts'
import { rpc, unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { opStackCliConfig } from '../../test/support/op-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode } from '../node/create-node.ts'
import type { GethGenesis } from '../execution/chain-config.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { FencedOut } from './coordination-errors.ts'
import { storedMessages, streamClient, takeOver, type Leading } from '../../test/support/replicated-stream-kit.ts'

const NATS = { ...needsTool('nats-server', 'nats-server'), timeout: 120_000 }
const RECEIVER = ACCOUNTS[3]!.address
const DEPOSITOR = '0x00000000000000000000000000000000000d0d0d'


type Leader = Leading

/** An OP node that leads term `term`, taking over the stream's open block as a group member does. */
async function lead(t: TestContext, nc: NatsConnection, term: number, op: ReturnType<typeof opStackCliConfig>, sealedBy?: FlashNode): Promise<Leader> {
  const node = await unstartedManualNode(t, { ...(op.sequencer.opL1 !== undefined ? { opL1: op.sequencer.opL1 } : {}) }, tempDir(t), { genesis: op.genesis })
  // A standby has followed the leader's sealed blocks (here: imported, each re-executed and checked).
  for (let n = 1n; sealedBy !== undefined && n <= sealedBy.chain.head(); n++) await node.writer.importRlp(sealedBy.chain.store.blockRlp(n)!)
  return takeOver(t, nc, node, term)
}

async function send(node: FlashNode, from: number, nonce: bigint): Promise<string> {
  const tx = signedTx(node, from, nonce, { to: RECEIVER, value: 1n, gasLimit: 50_000n })
  await node.api.sendRawTransaction(tx.serialize())
  return bytesToHex(tx.hash())
}


/** An OP follower in this process (sealed blocks straight from `leader`'s store). */
async function opFollower(t: TestContext, leader: FlashNode, genesis: GethGenesis): Promise<FlashNode> {
  const follower = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis,
    follow: { sealed: { blocks: async (from, to) => Array.from({ length: Number(to - from) + 1 }, (_, i) => leader.chain.store.blockRlp(from + BigInt(i))!) } },
  })
  t.after(() => follower.close())
  return follower
}

test("an OP group: B continues A's open block with its deposits from the stream; A is fenced out; an OP follower checks the block", NATS, async (t) => {
  const op = opStackCliConfig(tempDir(t), { operatorFeeScalar: 1000n, operatorFeeConstant: 7000n })
  const cluster = await startNatsCluster(t)
  const ncA = await streamClient(t, cluster.urls)
  const ncB = await streamClient(t, [...cluster.urls].reverse())
  const a = await lead(t, ncA, 1, op)
  // A user deposit queued for block 2, which opens with it (after its L1-attributes deposit) at A's seal.
  const depositHash = await rpc(a.node, 'flashnode_sendDeposit', [{ from: DEPOSITOR, to: RECEIVER, mint: '0xde0b6b3a7640000', value: '0x5', gas: '0x30000' }])
  await a.node.sequencer!.seal()
  const sent = [await send(a.node, 0, 0n)]
  await a.node.sequencer!.flashblock()
  const aPending = a.node.feed!.snapshot()!
  const opening = aPending.transactions.slice(0, 2).map((tx) => bytesToHex(tx.hash))
  assert.equal(opening[1], depositHash, 'block 2 opened with the user deposit after the L1-attributes deposit')

  const b = await lead(t, ncB, 2, op, a.node)
  assert.deepEqual(b.announced, [0, 1], "B resumed A's opening and flashblock from the stream")
  const bPending = b.node.feed!.snapshot()!
  assert.equal(bPending.header.number, 2n)
  assert.deepEqual(bPending.transactions.map((tx) => bytesToHex(tx.hash)), [...opening, ...sent], "the same deposits and A's transaction")
  assert.deepEqual(bPending.diff, aPending.diff, 'the same state')
  sent.push(await send(b.node, 1, 0n))
  await b.node.sequencer!.flashblock()
  await send(a.node, 0, 1n)
  const refused = await a.node.sequencer!.flashblock().then(() => undefined, (e: unknown) => e)
  assert.ok(refused instanceof FencedOut, `A is fenced out (got ${String(refused)})`)

  await b.node.sequencer!.seal()
  assert.equal(b.node.chain.head(), 2n)
  const sealed = await rpc(b.node, 'eth_getBlockByNumber', ['0x2', false])
  assert.deepEqual(sealed.transactions, [...opening, ...sent], 'block 2: the deposits, A\'s transaction, B\'s')
  const messages = await storedMessages(ncB, b.node.rules.chainId)
  const block2 = messages.filter((m) => m.message.metadata.block_number === 2)
  // A: opening (its deposits), 1; B: 2, the seal's last flashblock 3, the closing 4.
  assert.deepEqual(block2.map((m) => [m.term, m.message.index]), [[1, 0], [1, 1], [2, 2], [2, 3], [2, 4]])
  assert.equal(new Set(block2.map((m) => m.message.payload_id)).size, 1, 'one payload id')

  // An OP follower applies the stream in order: it builds blocks 1 and 2 itself and checks their seals.
  const follower = await opFollower(t, b.node, op.genesis)
  const outcomes = []
  for (const m of messages) outcomes.push(await follower.follower!.receive(m.message))
  assert.deepEqual(outcomes.filter((o) => o === 'sealed').length, 2)
  assert.ok(outcomes.every((o) => o === 'applied' || o === 'sealed'), `every message applied: ${JSON.stringify(outcomes)}`)
  assert.equal(follower.chain.head(), 2n)
  assert.deepEqual(follower.chain.header(2n)!.hash(), b.node.chain.header(2n)!.hash())
})
