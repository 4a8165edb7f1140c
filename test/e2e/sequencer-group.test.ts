/**
 * A sequencer group of three candidates on a three-server JetStream cluster (real nats-server processes, real
 * node processes): exactly one leads (GET /leader 200 there, 503 elsewhere); when it is killed (kill -9), a
 * standby takes the lease and goes on with the same open block, and every pre-confirmation a client saw (an
 * eth_sendRawTransactionSync receipt, a newFlashblockTransactions notification) is in the survivors' sealed
 * chain at the same block and index, with the same status and gas; the survivors' chains are identical.
 * Bounded: a few hundred transfers, one kill per round.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { parseGwei, type Hex } from 'viem'
import { rpc, spawnNode, type NodeProcess } from '../support/node-process.ts'
import { startNatsCluster } from '../support/nats-cluster.ts'
import { freePort } from '../support/debian-tool.ts'
import { tempDir } from '../support/temp-dir.ts'
import { LOAD_NODE_ARGS, LOAD_SENDERS } from '../support/transfer-load.ts'
import { DEV_CHAIN_ID } from '../support/dev-chain.ts'

interface Seen {
  readonly hash: string
  readonly blockNumber: string
  readonly transactionIndex: string
  readonly status: string
  readonly gasUsed: string
}

interface Member {
  readonly url: string
  readonly args: string[]
  process: NodeProcess
}

const CANDIDATES = 3
/** How long a leader may take to appear (the lease's expiry and a takeover included). */
const LEADER_WITHIN_MS = 15_000

async function leaderStatus(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/leader`, { signal: AbortSignal.timeout(1_000) })).status
  } catch {
    return 0
  }
}

/** The one member answering /leader 200, waited for (bounded); fails when two answer 200 at once. */
async function leaderOf(members: readonly Member[], exclude?: Member): Promise<Member> {
  const deadline = Date.now() + LEADER_WITHIN_MS
  for (;;) {
    const live = members.filter((m) => m !== exclude)
    const statuses = await Promise.all(live.map((m) => leaderStatus(m.url)))
    const leading = live.filter((_, i) => statuses[i] === 200)
    assert.ok(leading.length <= 1, `two members lead at once: ${leading.map((m) => m.url).join(', ')}`)
    if (leading.length === 1) return leading[0]!
    if (Date.now() > deadline) assert.fail(`no member led within ${LEADER_WITHIN_MS} ms (statuses ${statuses.join(', ')})`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function startMember(t: TestContext, stream: string): Promise<Member> {
  const port = await freePort()
  const args = ['--datadir', tempDir(t), '--port', String(port), '--sequencer-group', 'g', '--stream', stream, '--log-level', 'warn', ...LOAD_NODE_ARGS]
  const process = await spawnNode(t, args)
  return { url: `http://127.0.0.1:${port}`, args, process }
}

/** Every full pre-confirmed transaction a member announces, until its socket closes. */
function watchPreconfirmations(url: string, seen: Seen[]): void {
  const ws = new WebSocket(url.replace('http', 'ws'))
  ws.on('error', () => undefined)
  ws.on('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions', true] })))
  ws.on('message', (m) => {
    const msg = JSON.parse(String(m)) as { params?: { result: Seen } }
    if (msg.params !== undefined) seen.push(msg.params.result)
  })
}

/** Sends transfers with eth_sendRawTransactionSync to whoever leads, recording each receipt, for `ms`. */
async function sendThroughLeaders(members: readonly Member[], seen: Seen[], ms: number, shouldStop: () => boolean): Promise<number> {
  const nonces = LOAD_SENDERS.map(() => -1)
  const until = Date.now() + ms
  let accepted = 0
  for (let i = 0; Date.now() < until && !shouldStop(); i++) {
    const s = i % LOAD_SENDERS.length
    const sender = LOAD_SENDERS[s]!
    let leader: Member
    try {
      leader = await leaderOf(members.filter((m) => m.process.child.exitCode === null && m.process.child.signalCode === null))
    } catch {
      continue
    }
    try {
      if (nonces[s]! < 0) nonces[s] = Number(BigInt(await rpc<string>(leader.url, 'eth_getTransactionCount', [sender.address, 'pending'])))
      const raw = await sender.signTransaction({ chainId: Number(DEV_CHAIN_ID), type: 'eip1559', to: '0x00000000000000000000000000000000000000aa', value: 1n, nonce: nonces[s]!, gas: 21_000n, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('1') })
      const receipt = await rpc<Seen & { transactionHash: string }>(leader.url, 'eth_sendRawTransactionSync', [raw])
      seen.push({ ...receipt, hash: receipt.transactionHash })
      nonces[s]! += 1
      accepted++
    } catch {
      // The leader died or stepped down under this send: ask the next one for the nonce.
      nonces[s] = -1
    }
  }
  return accepted
}

test('a sequencer group: one leads; killed, another goes on with the same open block and no pre-confirmation is lost', async (t) => {
  const cluster = await startNatsCluster(t)
  const stream = cluster.urls.join(',')
  const members: Member[] = []
  for (let i = 0; i < CANDIDATES; i++) members.push(await startMember(t, stream))
  const first = await leaderOf(members)
  for (const m of members) watchPreconfirmations(m.url, [])
  const seen: Seen[] = []
  for (const m of members) if (m !== first) watchPreconfirmations(m.url, seen)

  let killedAt = 0
  const load = sendThroughLeaders(members, seen, 12_000, () => false)
  // Let the first leader pre-confirm for a while, then kill it mid-block.
  await new Promise((resolve) => setTimeout(resolve, 3_000 + Math.floor(Math.random() * 200)))
  killedAt = performance.now()
  await first.process.kill9()
  const next = await leaderOf(members, first)
  const pendingBefore = await rpc<{ number: string }>(next.url, 'eth_getBlockByNumber', ['pending', false])
  const takeoverMs = performance.now() - killedAt
  const accepted = await load
  assert.ok(accepted > 20, `transfers went through before and after the kill (${accepted})`)

  // Let the survivors seal what was pre-confirmed, then compare.
  const survivors = members.filter((m) => m !== first)
  const highest = seen.reduce((n, s) => (BigInt(s.blockNumber) > n ? BigInt(s.blockNumber) : n), 0n)
  const deadline = Date.now() + 10_000
  for (const m of survivors) {
    while (BigInt(await rpc<string>(m.url, 'eth_blockNumber')) < highest) {
      assert.ok(Date.now() < deadline, `${m.url} sealed block ${highest} within 10 s`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  let lost = 0
  let divergent = 0
  for (const s of seen) {
    for (const m of survivors) {
      const r = await rpc<Seen | null>(m.url, 'eth_getTransactionReceipt', [s.hash])
      if (r === null) lost++
      else if (r.blockNumber !== s.blockNumber || r.transactionIndex !== s.transactionIndex || r.status !== s.status || r.gasUsed !== s.gasUsed) divergent++
    }
  }
  for (let n = 1n; n <= highest; n++) {
    const hashes = await Promise.all(survivors.map(async (m) => (await rpc<{ hash: string }>(m.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash))
    assert.equal(new Set(hashes).size, 1, `block ${n} is the same on every survivor`)
  }
  console.log(`group: 1 leader killed, ${seen.length} pre-confirmations checked, lost ${lost}, divergent ${divergent}, takeover ${Math.round(takeoverMs)} ms (pending block ${BigInt(pendingBefore.number)} on the new leader)`)
  assert.equal(lost, 0)
  assert.equal(divergent, 0)
})
