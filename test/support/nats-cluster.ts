/**
 * A real three-server NATS JetStream cluster (Debian's nats-server) for tests and benchmarks: every server on
 * loopback only, its client and route ports picked free before it starts (routes name each other's ports, so
 * they must be known in advance), its store in its own temporary directory, one cluster name, full routes.
 * A test can crash a server (SIGKILL), freeze and thaw it (SIGSTOP / SIGCONT) and start it again on the same
 * ports and store. `dispose` (registered on the test context by `startNatsCluster`) stops every server and
 * removes the stores. Every wait is bounded; a wait that runs out throws, with the servers' logs.
 *
 * It owns only processes it started; it never reads or changes anything outside its temporary directory.
 * Whether nats-server is installed is the caller's question (debian-tool.ts `needsTool`), asked before.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import type { TestContext } from 'node:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { freePort } from './debian-tool.ts'
import { WITH_SBIN } from './nats-server.ts'

export interface NatsCluster {
  /** nats://127.0.0.1:PORT of each server, in server order (0, 1, 2). */
  readonly urls: readonly string[]
  /** Sends a signal to server i: SIGKILL crashes it, SIGSTOP freezes it (resolved once every thread is stopped), SIGCONT thaws it. */
  kill(i: number, signal?: NodeJS.Signals): Promise<void>
  /**
   * Starts the given servers again (after a crash or a stop) on their ports and stores, together, and
   * resolves once JetStream answers through each (so restart two of three at once when two are down).
   */
  restart(...servers: number[]): Promise<void>
  /** Resolves once JetStream answers through server i (or through every running server when i is omitted). */
  ready(i?: number): Promise<void>
  /** Whether server i's process is running (a frozen one counts as running). */
  running(i: number): boolean
  /** What server i logged since it last started (for a failure's message). */
  log(i: number): string
  /** The process ids of the running servers (a benchmark counts their CPU). */
  pids(): number[]
  /** Stops every server and removes the stores. */
  dispose(): Promise<void>
}

export const CLUSTER_SIZE = 3
const START_LIMIT_MS = 20_000
const READY_LIMIT_MS = 30_000

interface Member {
  readonly name: string
  readonly clientPort: number
  readonly routePort: number
  readonly storeDir: string
  child: ChildProcess | undefined
  frozen: boolean
  output: string
}

function args(member: Member, all: readonly Member[], clusterName: string): string[] {
  const routes = all.filter((m) => m !== member).map((m) => `nats://127.0.0.1:${m.routePort}`)
  return [
    '-n', member.name,
    '-a', '127.0.0.1',
    '-p', String(member.clientPort),
    '-js', '-sd', member.storeDir,
    '--cluster_name', clusterName,
    '--cluster', `nats://127.0.0.1:${member.routePort}`,
    '--routes', routes.join(','),
  ]
}

function launch(member: Member, all: readonly Member[], clusterName: string): Promise<void> {
  const child = spawn('nats-server', args(member, all, clusterName), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: WITH_SBIN } })
  member.child = child
  member.frozen = false
  member.output = ''
  // nats-server logs to standard error; both are kept for a failure's message.
  const keep = (d: Buffer): void => {
    member.output += String(d)
    if (member.output.length > 200_000) member.output = member.output.slice(-100_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${member.name} did not start in ${START_LIMIT_MS} ms: ${member.output}`)), START_LIMIT_MS)
    const onData = (): void => {
      if (!/Server is ready/.test(member.output)) return
      clearTimeout(timer)
      child.stderr!.off('data', onData)
      resolve()
    }
    child.stderr!.on('data', onData)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${member.name} exited (${signal ?? code}) before it was ready: ${member.output}`))
    })
  })
}

const isRunning = (child: ChildProcess | undefined): child is ChildProcess => child !== undefined && child.exitCode === null && child.signalCode === null

async function end(member: Member): Promise<void> {
  const child = member.child
  if (!isRunning(child)) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // A frozen server ignores SIGTERM until thawed; the store is thrown away, so a crash is as good.
  child.kill('SIGKILL')
  await exited
}

/** Whether JetStream answers an account-info request (it needs a meta leader) through `url`. */
async function answers(url: string): Promise<boolean> {
  const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 }).catch(() => undefined)
  if (nc === undefined) return false
  try {
    const jsm = await jetstreamManager(nc, { timeout: 1_000 })
    await jsm.getAccountInfo()
    return true
  } catch {
    return false
  } finally {
    await nc.close().catch(() => undefined)
  }
}

/** A cluster its caller owns: `dispose` stops it and removes its stores. */
/**
 * Resolves once every thread of process `pid` is stopped (state T in /proc): a signal is delivered
 * asynchronously, and a test that freezes a server to take its vote away must not act before it is frozen.
 */
async function stopped(pid: number, withinMs = 2_000): Promise<void> {
  const state = (task: string): string | undefined => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    } catch {
      return undefined // the thread ended
    }
  }
  const end = performance.now() + withinMs
  for (;;) {
    let tasks: string[]
    try {
      tasks = readdirSync(`/proc/${pid}/task`)
    } catch {
      return // not on Linux's /proc, or gone: nothing to wait for
    }
    if (tasks.every((task) => { const s = state(task); return s === undefined || s === 'T' || s === 't' })) return
    if (performance.now() > end) throw new Error(`nats-server ${pid} was sent SIGSTOP but is not stopped after ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

export async function launchNatsCluster(): Promise<NatsCluster> {
  const root = mkdtempSync(join(tmpdir(), 'flashnode-nats-cluster-'))
  const clusterName = `flashnode-test-${process.pid}`
  const members: Member[] = []
  // Ports are picked one at a time, so two of them cannot be the same free port.
  const taken = new Set<number>()
  const pick = async (): Promise<number> => {
    for (;;) {
      const port = await freePort()
      if (!taken.has(port)) return taken.add(port), port
    }
  }
  for (let i = 0; i < CLUSTER_SIZE; i++) {
    const storeDir = join(root, `s${i}`)
    mkdirSync(storeDir)
    members.push({ name: `s${i}`, clientPort: await pick(), routePort: await pick(), storeDir, child: undefined, frozen: false, output: '' })
  }
  const urls = members.map((m) => `nats://127.0.0.1:${m.clientPort}`)
  const member = (i: number): Member => {
    const m = members[i]
    if (m === undefined) throw new RangeError(`no server ${i} (the cluster has ${CLUSTER_SIZE})`)
    return m
  }

  const ready = async (i?: number): Promise<void> => {
    const which = i === undefined ? members.filter((m) => isRunning(m.child) && !m.frozen) : [member(i)]
    const end = Date.now() + READY_LIMIT_MS
    for (const m of which) {
      while (!(await answers(`nats://127.0.0.1:${m.clientPort}`))) {
        if (Date.now() > end) throw new Error(`JetStream did not answer through ${m.name} in ${READY_LIMIT_MS} ms: ${m.output.slice(-4_000)}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  }

  const cluster: NatsCluster = {
    urls,
    async kill(i, signal = 'SIGKILL') {
      const m = member(i)
      const child = m.child
      if (!isRunning(child)) return
      if (signal === 'SIGKILL') return end(m)
      child.kill(signal)
      if (signal === 'SIGSTOP') {
        m.frozen = true
        await stopped(child.pid!)
      }
      if (signal === 'SIGCONT') m.frozen = false
    },
    async restart(...servers) {
      const which = servers.map(member)
      await Promise.all(which.map(end))
      await Promise.all(which.map((m) => launch(m, members, clusterName)))
      for (const i of servers) await ready(i)
    },
    ready,
    running: (i) => isRunning(member(i).child),
    log: (i) => member(i).output,
    pids: () => members.flatMap((m) => (isRunning(m.child) && m.child.pid !== undefined ? [m.child.pid] : [])),
    async dispose() {
      await Promise.all(members.map(end))
      rmSync(root, { recursive: true, force: true })
    },
  }
  try {
    await Promise.all(members.map((m) => launch(m, members, clusterName)))
    await ready()
  } catch (err) {
    await cluster.dispose()
    throw err
  }
  return cluster
}

/** A cluster stopped (and its stores removed) when the test ends. */
export async function startNatsCluster(t: TestContext): Promise<NatsCluster> {
  const cluster = await launchNatsCluster()
  t.after(() => cluster.dispose())
  return cluster
}
