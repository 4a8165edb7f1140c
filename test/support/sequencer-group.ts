/**
 * A sequencer group under test (issue 40): candidates as real node processes (`flashnode start
 * --sequencer-group`) on a real three-server JetStream cluster, a steady load sent to whoever leads, and an
 * independent checker that records every pre-confirmation a client saw (eth_sendRawTransactionSync receipts,
 * newFlashblockTransactions notifications on every member) and, at the end, compares them with every
 * survivor's sealed chain and with the replicated stream itself.
 */

import type { TestContext } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { parseGwei, type Hex } from 'viem'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { rpc, spawnNode, type NodeProcess } from './node-process.ts'
import { freePort } from './debian-tool.ts'
import { tempDir } from './temp-dir.ts'
import { LOAD_NODE_ARGS, LOAD_SENDERS } from './transfer-load.ts'
import { DEV_CHAIN_ID } from './dev-chain.ts'
import { HEADER } from '../../src/stream/jetstream-layout.ts'
import { storedJson } from '../../src/stream/stored-payload.ts'

/** A pre-confirmation as a client saw it. */
export interface Seen {
  readonly hash: string
  readonly blockNumber: string
  readonly transactionIndex: string
  readonly status: string
  readonly gasUsed: string
}

export interface Member {
  readonly url: string
  readonly args: readonly string[]
  process: NodeProcess
}

/** How long a leader may take to appear (the lease's expiry and a takeover included). */
export const LEADER_WITHIN_MS = 15_000

const alive = (m: Member): boolean => m.process.child.exitCode === null && m.process.child.signalCode === null

/** One JSON-RPC call with a deadline (a frozen member never holds the caller). */
export const call = <T>(url: string, method: string, params: unknown[] = [], timeoutMs = 3_000): Promise<T> => rpc<T>(url, method, params, timeoutMs)

/** A call retried while the member's endpoint is closed for a moment (a change of role), within a bound. */
async function steadyCall<T>(m: Member, method: string, params: unknown[] = []): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      return await call<T>(m.url, method, params)
    } catch (err) {
      assert.ok(alive(m), `${m.url} died (${m.process.child.signalCode ?? m.process.child.exitCode}): ${m.process.stderr().slice(-2_000)}`)
      if (Date.now() > deadline) throw err
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

export async function leaderStatus(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/leader`, { signal: AbortSignal.timeout(500) })).status
  } catch {
    return 0
  }
}

/** The one member answering /leader 200 (among `members` but `exclude`), waited for; never two at once. */
export async function leaderOf(members: readonly Member[], exclude?: Member, withinMs = LEADER_WITHIN_MS): Promise<Member> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const live = members.filter((m) => m !== exclude && alive(m))
    const statuses = await Promise.all(live.map((m) => leaderStatus(m.url)))
    const leading = live.filter((_, i) => statuses[i] === 200)
    assert.ok(leading.length <= 1, `two members lead at once: ${leading.map((m) => m.url).join(', ')}`)
    if (leading.length === 1) return leading[0]!
    if (Date.now() > deadline) assert.fail(`no member led within ${withinMs} ms (statuses ${statuses.join(', ')})`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export async function startMember(t: TestContext, stream: string): Promise<Member> {
  const port = await freePort()
  const args = ['--datadir', tempDir(t), '--port', String(port), '--sequencer-group', 'g', '--stream', stream, '--log-level', process.env['FLASHNODE_GROUP_LOG'] ?? 'warn', ...LOAD_NODE_ARGS]
  return { url: `http://127.0.0.1:${port}`, args, process: await spawnNode(t, args) }
}

/**
 * A plain follower of the group (not a candidate): it reads the replicated stream from the cluster, and its
 * catch-up and the transactions sent to it go to `upstream`, the balancer's writes backend (whoever leads).
 */
export async function startFollower(t: TestContext, upstream: string, stream: string): Promise<Member> {
  const args = ['--datadir', tempDir(t), '--follow', upstream, '--stream', stream, '--ready-max-age', '60000', '--log-level', process.env['FLASHNODE_GROUP_LOG'] ?? 'warn', ...LOAD_NODE_ARGS]
  const child = await spawnNode(t, args)
  return { url: child.url, args, process: child }
}

/** Starts a member again on its data directory and port (after a kill). */
export async function restartMember(t: TestContext, m: Member): Promise<void> {
  m.process = await spawnNode(t, [...m.args])
}

/** Records every pre-confirmed transaction each member announces, resubscribing while the member lives. */
export class PreconfirmationWatch {
  readonly seen: Seen[] = []
  private stopped = false
  private readonly sockets = new Set<WebSocket>()

  watch(m: Member): void {
    if (this.stopped) return
    const ws = new WebSocket(m.url.replace('http', 'ws'))
    this.sockets.add(ws)
    ws.on('error', () => undefined)
    ws.on('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions', true] })))
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { params?: { result: Seen } }
      if (msg.params !== undefined) this.seen.push(msg.params.result)
    })
    ws.on('close', () => {
      this.sockets.delete(ws)
      // A member changing role closes its endpoints for a moment; one killed is watched again once restarted.
      setTimeout(() => alive(m) && this.watch(m), 100).unref()
    })
  }

  stop(): void {
    this.stopped = true
    for (const ws of this.sockets) ws.terminate()
  }
}

/**
 * Every message a leader publishes to the group's stream subject, heard as a plain NATS subscriber (so a
 * refused one is heard too): when each term's first message went out, for the takeover times.
 */
export class TermObserver {
  /** performance.now() of each term's first message. */
  readonly firstOfTerm = new Map<number, number>()
  private constructor(private readonly close: () => Promise<void>) {}

  static async start(natsUrls: readonly string[]): Promise<TermObserver> {
    const nc = await connect({ servers: natsUrls.map((u) => u.replace('nats://', '')), reconnectTimeWait: 100, maxReconnectAttempts: -1 })
    const observer = new TermObserver(() => nc.close())
    nc.subscribe(`flashnode.${DEV_CHAIN_ID}.flashblocks`, {
      callback: (_err, msg) => {
        const term = Number(msg.headers?.get('Flashnode-Term') ?? NaN)
        if (Number.isFinite(term) && !observer.firstOfTerm.has(term)) observer.firstOfTerm.set(term, performance.now())
      },
    })
    return observer
  }

  /** The first message of a term newer than any heard before `since`, waited for: a takeover's end. */
  async nextTermAfter(since: number, withinMs = LEADER_WITHIN_MS): Promise<number> {
    const before = Math.max(0, ...[...this.firstOfTerm].filter(([, at]) => at < since).map(([term]) => term))
    const deadline = performance.now() + withinMs
    for (;;) {
      const next = [...this.firstOfTerm].filter(([term, at]) => term > before && at >= since).map(([, at]) => at)
      if (next.length > 0) return Math.min(...next)
      assert.ok(performance.now() < deadline, `no new leader published within ${withinMs} ms of the fault`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  stop(): Promise<void> {
    return this.close()
  }
}

/**
 * A counter contract's creation code: its runtime (10 bytes: slot 0 += 1) copied out and returned. Each call
 * writes storage, so a call executed differently on two members shows in their state roots.
 */
const COUNTER_RUNTIME = '60005460010160005500'
const COUNTER_INITCODE = `0x600a600c600039600a6000f3${COUNTER_RUNTIME}` as const

/**
 * A steady load sent with eth_sendRawTransactionSync, every receipt recorded: transfers from the first two
 * senders, and from the other two calls of a counter contract the last one deploys first (again if its
 * creation's receipt was lost to a fault). Sends go to whoever leads (through `via`, a balancer routing
 * writes by GET /leader, or to the leader found), except the second sender's, which go in turn to each of
 * `relays` (members and plain followers: a standby or a follower forwards them to the leader).
 */
export class GroupLoad {
  readonly seen: Seen[] = []
  /** Receipts of calls to the counter contract (among `seen`). */
  contractCalls = 0
  /** When (performance.now()) each receipt came, and from which member (undefined: through the balancer). */
  readonly receipts: { readonly at: number; readonly from: Member | undefined }[] = []
  failures = 0
  private running = true
  private done: Promise<void> | undefined

  /** Receipts of sends through `relays`. */
  relayed = 0

  constructor(
    private readonly members: readonly Member[],
    private readonly via?: string,
    private readonly relays: readonly Member[] = [],
  ) {}

  start(): void {
    this.done = this.loop()
  }

  async stop(): Promise<void> {
    this.running = false
    await this.done
  }

  /**
   * The first receipt at or after `since` (from another member than `not`, when the load knows who answered:
   * not through the balancer), waited for.
   */
  async firstReceiptAfter(since: number, not: Member | undefined, withinMs = LEADER_WITHIN_MS): Promise<number> {
    const deadline = performance.now() + withinMs
    for (;;) {
      const r = this.receipts.find((x) => x.at >= since && (not === undefined || x.from !== not))
      if (r !== undefined) return r.at
      assert.ok(performance.now() < deadline, `no pre-confirmation within ${withinMs} ms of the fault`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** The longest time without a receipt between `from` and `to` (performance.now() times). */
  longestGap(from: number, to: number): number {
    const times = [from, ...this.receipts.map((r) => r.at).filter((at) => at > from && at < to), to]
    return Math.max(...times.slice(1).map((at, i) => at - times[i]!))
  }

  private async loop(): Promise<void> {
    const nonces = LOAD_SENDERS.map(() => -1)
    const deployer = LOAD_SENDERS.length - 1
    let counter: Hex | undefined
    let leader: Member | undefined
    let relay = 0
    for (let i = 0; this.running; i++) {
      const s = i % LOAD_SENDERS.length
      const sender = LOAD_SENDERS[s]!
      try {
        if (this.via === undefined) leader ??= await leaderOf(this.members)
        const through = s === 1 && this.relays.length > 0 ? this.relays[relay++ % this.relays.length] : undefined
        const url = through?.url ?? this.via ?? leader!.url
        if (nonces[s]! < 0) nonces[s] = Number(BigInt(await call<string>(url, 'eth_getTransactionCount', [sender.address, 'pending'])))
        const what =
          s < 2 ? { to: '0x00000000000000000000000000000000000000aa' as Hex, value: 1n, gas: 21_000n }
          : counter !== undefined ? { to: counter, gas: 60_000n }
          : s === deployer ? { data: COUNTER_INITCODE as Hex, gas: 120_000n }
          : { to: '0x00000000000000000000000000000000000000aa' as Hex, value: 1n, gas: 21_000n }
        const raw = await sender.signTransaction({ chainId: Number(DEV_CHAIN_ID), type: 'eip1559', nonce: nonces[s]!, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('1'), ...what })
        const receipt = await call<Seen & { transactionHash: string; contractAddress: Hex | null }>(url, 'eth_sendRawTransactionSync', [raw])
        this.seen.push({ ...receipt, hash: receipt.transactionHash })
        this.receipts.push({ at: performance.now(), from: through ?? leader })
        nonces[s]! += 1
        if (through !== undefined) this.relayed++
        if (what.to === counter && counter !== undefined) this.contractCalls++
        if (!('to' in what) && receipt.status === '0x1') counter = receipt.contractAddress ?? undefined
      } catch {
        // The leader died, froze or stood down under this send (or none leads now): find the next, ask it.
        this.failures++
        leader = undefined
        nonces.fill(-1)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  }
}

export interface GroupVerdict {
  readonly checked: number
  readonly lost: number
  readonly divergent: number
  /** (block, index) pairs the stream holds twice with different transactions. */
  readonly forkedFlashblocks: number
  readonly highest: bigint
}

/** Waits until every survivor has sealed `highest`, then compares what clients saw with their chains and the stream. */
export async function verify(survivors: readonly Member[], seen: readonly Seen[], natsUrls: readonly string[]): Promise<GroupVerdict> {
  const highest = seen.reduce((n, s) => (BigInt(s.blockNumber) > n ? BigInt(s.blockNumber) : n), 0n)
  const deadline = Date.now() + 20_000
  for (const m of survivors) {
    while (BigInt(await steadyCall<string>(m, 'eth_blockNumber')) < highest) {
      if (Date.now() > deadline) assert.fail(`${m.url} sealed block ${highest} within 20 s\n${await describe(survivors)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  let lost = 0
  let divergent = 0
  const unique = new Map(seen.map((s) => [`${s.hash}`, s]))
  for (const s of seen) {
    const first = unique.get(s.hash)!
    if (first.blockNumber !== s.blockNumber || first.transactionIndex !== s.transactionIndex) divergent++
  }
  for (const s of unique.values()) {
    for (const m of survivors) {
      const r = await steadyCall<Seen | null>(m, 'eth_getTransactionReceipt', [s.hash])
      if (r === null) lost++
      else if (r.blockNumber !== s.blockNumber || r.transactionIndex !== s.transactionIndex || r.status !== s.status || r.gasUsed !== s.gasUsed) divergent++
    }
  }
  for (let n = 1n; n <= highest; n++) {
    const hashes = await Promise.all(survivors.map(async (m) => (await steadyCall<{ hash: string }>(m, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash))
    assert.equal(new Set(hashes).size, 1, `block ${n} is the same on every survivor`)
  }
  return { checked: unique.size, lost, divergent, forkedFlashblocks: await forkedFlashblocks(natsUrls), highest }
}

/** Each member's view of the group, head and the end of its log, for a failure's message. */
export async function describe(members: readonly Member[]): Promise<string> {
  const lines = await Promise.all(members.map(async (m) => {
    const leader = await fetch(`${m.url}/leader`, { signal: AbortSignal.timeout(1_000) }).then(async (r) => `${r.status} ${await r.text()}`, (e: Error) => e.message)
    const head = await call<string>(m.url, 'eth_blockNumber', [], 1_000).catch((e: Error) => e.message)
    return `${m.url}: /leader ${leader}; head ${head}; log:\n${m.process.stderr().slice(-3_000)}`
  }))
  return lines.join('\n')
}

/** Reads the whole replicated stream: how many (block, index) pairs it holds twice with different transactions. */
async function forkedFlashblocks(natsUrls: readonly string[]): Promise<number> {
  const nc = await connect({ servers: natsUrls.map((u) => u.replace('nats://', '')) })
  try {
    const jsm = await jetstreamManager(nc)
    const name = `FLASHNODE_${DEV_CHAIN_ID}`
    const { state } = await jsm.streams.info(name)
    const byPlace = new Map<string, string>()
    let forked = 0
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(name, { seq })
      if (m === null) continue
      const payload = JSON.parse(new TextDecoder().decode(storedJson(m.data, m.header.get(HEADER.encoding)))) as { index: number; diff: { transactions: string[] }; metadata: { block_number: number } }
      const place = `${payload.metadata.block_number}/${payload.index}`
      const content = payload.diff.transactions.join(',')
      const before = byPlace.get(place)
      if (before !== undefined && before !== content) forked++
      byPlace.set(place, content)
    }
    return forked
  } finally {
    await nc.close()
  }
}
