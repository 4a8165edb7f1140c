/**
 * OP user deposits in a sequencer group (issues 40 and 41): a deposit whose hash a group leader answered
 * survives the leader's death. Three real `flashnode start --op-stack --sequencer-group` processes on a real
 * three-server JetStream cluster (skipped, saying so, without nats-server), blocks of 40 flashblocks (8 s)
 * so that a whole send-and-kill fits inside one block:
 *
 * - deposits sent to the leader (one through a standby, which forwards it) right after a block opened, the
 *   leader killed (kill -9) before the next block opens: the new leader's next block includes every
 *   answered deposit once, in the order sent (viem receipts), and it is the new leader's term that opened it
 *   (the stream's record says so: the old leader never opened it);
 * - the leader killed right after the opening with the deposits was acknowledged by the stream and before
 *   it forgot them (failpoint `open:user-deposits-acknowledged`): the new leader continues that block with
 *   them, never includes them again in the next one, and clears them from the deposit bucket.
 * Every process is stopped when the test ends (spawnNode, startNatsCluster).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, defineChain, http, type Hex } from 'viem'
import { chainConfig } from 'viem/op-stack'
import { Kvm } from '@nats-io/kv'
import { jetstream } from '@nats-io/jetstream'
import { needsTool } from '../support/debian-tool.ts'
import { startNatsCluster } from '../support/nats-cluster.ts'
import { leaderOf, startMember, type Member } from '../support/sequencer-group.ts'
import { rpc } from '../support/node-process.ts'
import { DEV_CHAIN_ID } from '../support/dev-chain.ts'
import { storedMessages, streamClient } from '../support/replicated-stream-kit.ts'
import { depositBucketName } from '../../src/stream/replicated-deposits.ts'

const NATS = { ...needsTool('nats-server', 'nats-server'), timeout: 150_000 }
const OP_MEMBER = ['--op-stack', '--flashblocks-per-block', '40']
const DEPOSITOR = '0x00000000000000000000000000000000000d0d0d'
const RECEIVER = '0x00000000000000000000000000000000000000bb'
const MINT = 10n ** 15n

const OP_CHAIN = defineChain({
  ...chainConfig,
  id: Number(DEV_CHAIN_ID),
  name: 'flashnode-op-test',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})

const client = (m: Member) => createPublicClient({ chain: OP_CHAIN, transport: http(m.url, { retryCount: 0, timeout: 5_000 }) })

const sendDeposit = (m: Member, value: bigint) =>
  rpc<Hex>(m.url, 'flashnode_sendDeposit', [{ from: DEPOSITOR, to: RECEIVER, mint: `0x${MINT.toString(16)}`, value: `0x${value.toString(16)}`, gas: '0x30000' }], 5_000)

/** Waits (bounded) for `check` to hold. */
async function until(what: string, check: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await check().catch(() => false))) {
    assert.ok(Date.now() < deadline, `${what} within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const headOf = async (m: Member): Promise<bigint> => BigInt(await rpc<string>(m.url, 'eth_blockNumber', [], 2_000))

/** The number of the block `leader` opened just now (its head moved): most of that block is still ahead. */
async function freshBlock(leader: Member): Promise<bigint> {
  const before = await headOf(leader)
  let head = before
  await until('a new block', async () => (head = await headOf(leader)) > before, 20_000)
  return head + 1n
}

/** The leader's term, from its GET /leader. */
async function termOf(leader: Member): Promise<number> {
  const body = (await (await fetch(`${leader.url}/leader`)).json()) as { leader: { term: number } }
  return body.leader.term
}

/** Each answered deposit is in `block` once, in the order sent, with a successful receipt (viem). */
async function includedOnce(m: Member, block: bigint, answered: readonly Hex[]): Promise<void> {
  const viem = client(m)
  const sealed = await viem.getBlock({ blockNumber: block })
  assert.deepEqual(sealed.transactions.filter((h) => answered.includes(h)), answered, `block ${block} holds every answered deposit once, in order`)
  for (const hash of answered) {
    const receipt = await viem.getTransactionReceipt({ hash })
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.blockNumber, block)
    const tx = await viem.getTransaction({ hash })
    assert.equal(tx.type, 'deposit', 'a deposit transaction (viem/op-stack formatter)')
    assert.equal(tx.type === 'deposit' ? tx.mint : undefined, MINT)
  }
  const minted = (await viem.getBalance({ address: DEPOSITOR })) + (await viem.getBalance({ address: RECEIVER }))
  assert.equal(minted, MINT * BigInt(answered.length), 'each deposit minted once')
}

/** The opening of `next` (after `block` was sealed) carries none of the deposits again. */
async function notAgain(m: Member, block: bigint, answered: readonly Hex[]): Promise<void> {
  type Pending = { number: Hex; transactions: Hex[] }
  let pending: Pending | undefined
  // Between a seal's commit and the next opening's acknowledgement `pending` answers the sealed block.
  await until(`block ${block + 1n} opened by ${m.url}`, async () => BigInt((pending = await rpc<Pending>(m.url, 'eth_getBlockByNumber', ['pending', false])).number) > block)
  assert.deepEqual(pending!.transactions.filter((h) => answered.includes(h)), [], `block ${pending!.number} does not include them again`)
}

async function opGroup(t: TestContext, firstEnv: Record<string, string> = {}): Promise<{ members: Member[]; urls: readonly string[] }> {
  const cluster = await startNatsCluster(t)
  const stream = cluster.urls.join(',')
  // The first member starts alone, so it is the first leader (its environment may arm a failpoint).
  const first = await startMember(t, stream, OP_MEMBER, firstEnv)
  assert.equal(await leaderOf([first]), first)
  const members = [first, await startMember(t, stream, OP_MEMBER), await startMember(t, stream, OP_MEMBER)]
  return { members, urls: cluster.urls }
}

test('deposits answered by a group leader killed before the next block opens are in the new leader\'s next block, once each', NATS, async (t) => {
  const { members, urls } = await opGroup(t)
  const leader = members[0]!
  const standby = members[1]!
  const open = await freshBlock(leader)
  const answered = [await sendDeposit(leader, 1n), await sendDeposit(leader, 2n), await sendDeposit(standby, 3n), await sendDeposit(leader, 4n)]
  const killedTerm = await termOf(leader)
  const pending = await rpc<{ number: Hex }>(leader.url, 'eth_getBlockByNumber', ['pending', false])
  assert.equal(BigInt(pending.number), open, 'the leader still builds the block they were sent during')
  await leader.process.kill9()

  const next = await leaderOf(members, leader)
  await until(`block ${open + 1n} sealed by the new leader`, async () => (await headOf(next)) >= open + 1n)
  await includedOnce(next, open + 1n, answered)
  const nc = await streamClient(t, urls)
  const opening = (await storedMessages(nc, DEV_CHAIN_ID)).find((m) => BigInt(m.message.metadata.block_number) === open + 1n && m.message.index === 0)
  assert.ok(opening !== undefined && opening.term > killedTerm, `block ${open + 1n} was opened by a later term than the killed leader's ${killedTerm} (${opening?.term})`)
  await notAgain(next, open + 1n, answered)
  for (const m of members.filter((x) => x !== leader)) {
    await until(`block ${open + 1n} on ${m.url}`, async () => (await headOf(m)) >= open + 1n)
    await includedOnce(m, open + 1n, answered)
  }
})

test('a leader killed after the opening with its deposits was acknowledged: the next leader continues that block and never includes them again', NATS, async (t) => {
  const { members, urls } = await opGroup(t, { FLASHNODE_FAILPOINT: 'open:user-deposits-acknowledged:1' })
  const leader = members[0]!
  const open = await freshBlock(leader)
  const answered = [await sendDeposit(leader, 1n), await sendDeposit(members[2]!, 2n), await sendDeposit(leader, 3n)]
  const killedTerm = await termOf(leader)
  // The failpoint kills it at the next opening (the first with user deposits), once the stream stored it.
  assert.equal(await leader.process.exited, 'SIGKILL')

  const nc = await streamClient(t, urls)
  const opening = (await storedMessages(nc, DEV_CHAIN_ID)).find((m) => BigInt(m.message.metadata.block_number) === open + 1n && m.message.index === 0)
  assert.equal(opening?.term, killedTerm, `the killed leader's opening of block ${open + 1n} is in the stream`)
  const next = await leaderOf(members, leader)
  await until(`block ${open + 1n} sealed by the new leader`, async () => (await headOf(next)) >= open + 1n)
  await includedOnce(next, open + 1n, answered)
  await notAgain(next, open + 1n, answered)
  // The new leader found them in the bucket, already in the chain: their keys are deleted.
  const bucket = await new Kvm(jetstream(nc)).open(depositBucketName(DEV_CHAIN_ID))
  await until('the deposit bucket emptied', async () => {
    const keys: string[] = []
    for await (const k of await bucket.keys()) keys.push(k)
    return keys.length === 0
  }, 10_000)
})
