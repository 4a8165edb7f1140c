/**
 * Starting and stopping the two peers a benchmark compares, on loopback, from the same genesis file.
 *
 * - Anvil: the platform binary from @foundry-rs/anvil-<os>-<arch> is spawned directly when present (no
 *   node wrapper using CPU and memory next to it); otherwise `node_modules/.bin/anvil`, whose node wrapper
 *   spawns the binary as a child. Chain id, gas limit and base fee are passed from the genesis explicitly,
 *   since `--init` alone keeps Anvil's 30M gas limit.
 * - Flashnode: as `npm start` runs it, the production build (`scripts/build.mjs`, built once per bench process
 *   into dist/): `dist/flashnode.mjs init --genesis F --datadir D` (exit 0), then
 *   `start --datadir D --port P --host 127.0.0.1`, which prints `flashnode listening on http://…` when up.
 *   BENCH_FLASHNODE_CHECKOUT=DIR runs another checkout's Flashnode instead (its build, or its sources through
 *   tsx when it has no build script: an older commit, for a before/after from the same benchmark code).
 * - Without a genesis file, each peer runs its own dev chain: Anvil's defaults, and Flashnode `start` on an
 *   empty datadir (which creates its dev chain); both have chain id 31337.
 * Readiness is eth_chainId answering with the genesis chain id (polled every 25 ms, bounded; the time from
 * spawn to that answer is kept as `readyMs`); a process that exits first fails the start with the tail of its output. Each peer runs in its own process group, stopped with SIGTERM,
 * then SIGKILL after a grace period; anything still running when this process exits is killed.
 * Memory: peak RSS is VmHWM from /proc of the server process (found by name among the descendants of
 * what was spawned), plus its descendants', sampled every 250 ms while running and once at stop; `rssBytes`
 * is their VmRSS now.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cpuSeconds, descendants, findProcess, vmHwmBytes, vmRssBytes } from './proc.ts'
import { launchNatsCluster } from '../test/support/nats-cluster.ts'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const FLASHNODE_CHECKOUT = resolve(process.env['BENCH_FLASHNODE_CHECKOUT'] ?? REPO)
const flashnodeClis = new Map<string, string[]>()

/**
 * How this run starts a checkout's Flashnode (node's arguments before the command), building it on first
 * use: FLASHNODE_CHECKOUT unless a caller names another (bench/alternating-ab.ts runs two).
 */
function flashnodeCommand(checkout = FLASHNODE_CHECKOUT): string[] {
  let cli = flashnodeClis.get(checkout)
  if (cli !== undefined) return cli
  if (!existsSync(join(checkout, 'scripts/build.mjs'))) {
    cli = ['--import', 'tsx', join(checkout, 'src/cli/main.ts')]
  } else {
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: checkout, encoding: 'utf8', timeout: READY_TIMEOUT_MS })
    if (r.status !== 0) throw new Error(`building Flashnode in ${checkout} failed: ${r.stdout}${r.stderr}`)
    cli = [join(checkout, 'dist/flashnode.mjs')]
  }
  flashnodeClis.set(checkout, cli)
  return cli
}
const READY_TIMEOUT_MS = 60_000
/** Both peers' dev chains (Anvil's default, `flashnode start --chain-id`'s default). */
const DEV_CHAIN_ID = 31337n

/**
 * The nodes a run compares. `flashnode-no-metrics` is Flashnode started with `--no-metrics`, so the cost of
 * recording metrics shows side by side in one run (`--peers flashnode,flashnode-no-metrics`).
 * `flashnode-group` is Flashnode as the one candidate of a sequencer group (`--sequencer-group`) on a
 * three-server JetStream cluster of its own on loopback (Debian's nats-server; R=3): every flashblock is
 * acknowledged by the cluster before it is announced. Its start waits for GET /leader 200 too; its CPU counts
 * the three servers' with the node's; the cluster stops with it.
 */
export type PeerName = 'anvil' | 'flashnode' | 'flashnode-no-metrics' | 'flashnode-group'
export const PEERS: readonly PeerName[] = ['anvil', 'flashnode', 'flashnode-no-metrics', 'flashnode-group']
/** The peers that are Flashnode (initialized from the scenario's genesis). */
export const FLASHNODE_PEERS: readonly PeerName[] = ['flashnode', 'flashnode-no-metrics', 'flashnode-group']

export interface RunningNode {
  readonly peer: PeerName
  readonly url: string
  /** The process that serves requests (the anvil binary, the flashnode node process). */
  readonly serverPid: number
  /** From spawn to the first correct eth_chainId answer, in ms (to within the 25 ms polling). */
  readonly readyMs: number
  /** Peak resident memory so far, in bytes (server process and its descendants). */
  peakRssBytes(): number | undefined
  /** Resident memory now, in bytes (server process and its descendants). */
  rssBytes(): number | undefined
  /** CPU seconds used so far by the server process and its descendants. */
  cpuSeconds(): number
  /** The last lines the server wrote (its warnings and errors, for a failure's message). */
  recentOutput(): string
  stop(): Promise<void>
}

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const c of live) killGroup(c, 'SIGKILL')
})

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      /* already gone */
    }
  }
}

/** A free TCP port on 127.0.0.1 (bound and released; a tiny race is accepted). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() => (typeof addr === 'object' && addr !== null ? resolvePort(addr.port) : reject(new Error('no port'))))
    })
  })
}

type Probe = { kind: 'ok'; chainId: bigint } | { kind: 'down' | 'error'; detail: string }

/** One eth_chainId: the chain id, an answer that is not one ('error': the server is up), or no answer. */
async function probeChainId(url: string): Promise<Probe> {
  let text = ''
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(2000),
    })
    text = await res.text()
    const result = (JSON.parse(text) as { result?: unknown }).result
    if (res.status === 200 && typeof result === 'string') return { kind: 'ok', chainId: BigInt(result) }
    return { kind: 'error', detail: `eth_chainId answered HTTP ${res.status}: ${text.slice(0, 300)}` }
  } catch (e) {
    if (text !== '') return { kind: 'error', detail: `eth_chainId answered: ${text.slice(0, 300)}` }
    return { kind: 'down', detail: (e as Error).message }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Keeps the last lines a child wrote (its pipes must be drained anyway, or it blocks on a full pipe). */
function tail(child: ChildProcess, max = 40): () => string {
  const lines: string[] = []
  const take = (c: Buffer) => {
    lines.push(...c.toString().split('\n').filter((l) => l.trim() !== '' && !/private key/i.test(l)))
    if (lines.length > max) lines.splice(0, lines.length - max)
  }
  child.stdout?.on('data', take)
  child.stderr?.on('data', take)
  return () => lines.join('\n')
}

interface Launch {
  peer: PeerName
  cmd: string
  args: string[]
  url: string
  chainId: bigint
  serverName: string
  readyTimeoutMs: number
}

async function launch(l: Launch): Promise<RunningNode> {
  const spawnedAt = performance.now()
  const child = spawn(l.cmd, l.args, { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  live.add(child)
  const output = tail(child, 300)
  /** The last 40 lines, for a start that failed. */
  const lastOutput = (): string => output().split('\n').slice(-40).join('\n')
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  let spawnError: Error | undefined
  child.once('error', (e) => (spawnError = e))
  const stopChild = async (): Promise<void> => {
    killGroup(child, 'SIGTERM')
    const grace = new Promise<string>((r) => setTimeout(() => r('timeout'), 5000).unref())
    if ((await Promise.race([exited.then(() => 'exited'), grace])) === 'timeout') {
      killGroup(child, 'SIGKILL')
      await exited
    }
    live.delete(child)
  }
  const deadline = Date.now() + l.readyTimeoutMs
  let wrongSince: number | undefined // the server is up but answers eth_chainId wrongly: give it 5 s
  for (;;) {
    if (spawnError !== undefined || child.exitCode !== null || child.signalCode !== null) {
      live.delete(child)
      throw new Error(`${l.peer} exited before it was ready (${spawnError?.message ?? `code ${child.exitCode}`}); its output:\n${lastOutput()}`)
    }
    const probe = await probeChainId(l.url)
    if (probe.kind === 'ok' && probe.chainId === l.chainId) break
    const problem = probe.kind === 'ok' ? `${l.peer} answered chain id ${probe.chainId}, expected ${l.chainId}` : probe.detail
    if (probe.kind !== 'down') wrongSince ??= Date.now()
    else wrongSince = undefined
    const timedOut = Date.now() > deadline
    if (timedOut || (wrongSince !== undefined && Date.now() - wrongSince > 5000)) {
      await stopChild()
      const when = timedOut ? `not ready within ${l.readyTimeoutMs} ms` : 'up but not answering eth_chainId correctly'
      throw new Error(`${l.peer} ${when}: ${problem}; its output:\n${lastOutput()}`)
    }
    await sleep(25)
  }
  const readyMs = performance.now() - spawnedAt
  const rootPid = child.pid!
  const serverPid = findProcess(rootPid, l.serverName) ?? rootPid
  let peak: number | undefined
  const sample = (): void => {
    const total = descendants(serverPid).reduce((s, p) => s + (vmHwmBytes(p) ?? 0), 0)
    if (total > 0) peak = Math.max(peak ?? 0, total)
  }
  sample()
  const sampler = setInterval(sample, 250)
  sampler.unref()
  return {
    peer: l.peer,
    url: l.url,
    serverPid,
    readyMs,
    peakRssBytes: () => (sample(), peak),
    rssBytes: () => {
      const total = descendants(serverPid).reduce((s, p) => s + (vmRssBytes(p) ?? 0), 0)
      return total > 0 ? total : undefined
    },
    cpuSeconds: () => cpuSeconds(serverPid),
    recentOutput: output,
    stop: async () => {
      sample()
      clearInterval(sampler)
      await stopChild()
    },
  }
}

function genesisFacts(genesisPath: string): { chainId: bigint; gasLimit: bigint; baseFee: bigint } {
  const g = JSON.parse(readFileSync(genesisPath, 'utf8')) as {
    config: { chainId: number }
    gasLimit: string
    baseFeePerGas?: string
  }
  return { chainId: BigInt(g.config.chainId), gasLimit: BigInt(g.gasLimit), baseFee: BigInt(g.baseFeePerGas ?? '1000000000') }
}

/** The anvil executable: the platform binary if installed, else the npm wrapper. */
export function anvilCommand(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  try {
    const req = createRequire(import.meta.url)
    const pkg = req.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)
    const bin = join(dirname(pkg), 'bin', 'anvil')
    if (existsSync(bin)) return bin
  } catch {
    /* fall back to the wrapper */
  }
  return join(REPO, 'node_modules', '.bin', 'anvil')
}

/** e.g. "1.7.1 (4072e48)". */
export function anvilVersion(): string {
  const r = spawnSync(anvilCommand(), ['--version'], { encoding: 'utf8' })
  const version = /Version:\s*(\S+)/.exec(r.stdout)?.[1] ?? 'unknown'
  const sha = /Commit SHA:\s*([0-9a-f]{7})/.exec(r.stdout)?.[1]
  return sha === undefined ? version : `${version} (${sha})`
}

export interface AnvilOptions {
  /** Absent: Anvil's own dev chain (its defaults). */
  genesisPath?: string
  port: number
  /** e.g. ['--block-time', '2'] or ['--no-mining']. */
  extraArgs?: string[]
  readyTimeoutMs?: number
  /** Another anvil executable (default: anvilCommand()). */
  command?: string
}

export async function startAnvil(o: AnvilOptions): Promise<RunningNode> {
  const g = o.genesisPath === undefined ? undefined : genesisFacts(o.genesisPath)
  const chain =
    g === undefined || o.genesisPath === undefined
      ? []
      : [
          '--init', o.genesisPath,
          '--hardfork', 'prague',
          '--chain-id', String(g.chainId),
          '--gas-limit', String(g.gasLimit),
          '--block-base-fee-per-gas', String(g.baseFee),
          '--disable-default-create2-deployer',
        ]
  const args = ['--host', '127.0.0.1', '--port', String(o.port), ...chain, '--quiet', ...(o.extraArgs ?? [])]
  return launch({
    peer: 'anvil',
    cmd: o.command ?? anvilCommand(),
    args,
    url: `http://127.0.0.1:${o.port}/`,
    chainId: g?.chainId ?? DEV_CHAIN_ID,
    serverName: 'anvil',
    readyTimeoutMs: o.readyTimeoutMs ?? READY_TIMEOUT_MS,
  })
}

export interface FlashnodeOptions {
  /** Absent: `start` on an empty datadir creates Flashnode's dev chain. */
  genesisPath?: string
  port: number
  /** Initialized from genesisPath first if it does not exist or is empty. */
  datadir: string
  extraArgs?: string[]
  readyTimeoutMs?: number
  /** Default 'flashnode'. */
  peer?: PeerName
  /** Another checkout's Flashnode than FLASHNODE_CHECKOUT's (built on first use). */
  checkout?: string
}

/** `flashnode init`; throws with its output if it does not exit 0 within the time limit. */
export function initFlashnode(genesisPath: string, datadir: string, timeoutMs = READY_TIMEOUT_MS): void {
  const r = spawnSync(process.execPath, [...flashnodeCommand(), 'init', '--genesis', genesisPath, '--datadir', datadir], {
    cwd: FLASHNODE_CHECKOUT,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  })
  if (r.status !== 0) {
    const why = r.error?.message ?? `exit ${r.status ?? r.signal}`
    throw new Error(`flashnode init failed (${why}):\n${`${r.stdout}\n${r.stderr}`.trim().slice(-2000)}`)
  }
}

export async function startFlashnode(o: FlashnodeOptions): Promise<RunningNode> {
  if (o.peer === 'flashnode-group') return startGroupLeader(o)
  const empty = !existsSync(o.datadir) || readdirSync(o.datadir).length === 0
  if (o.genesisPath !== undefined && empty) initFlashnode(o.genesisPath, o.datadir, o.readyTimeoutMs)
  const chainId = o.genesisPath === undefined ? DEV_CHAIN_ID : genesisFacts(o.genesisPath).chainId
  const args = [
    ...argsFromEnv('BENCH_FLASHNODE_NODE_ARGS'),
    ...flashnodeCommand(o.checkout), 'start',
    '--datadir', o.datadir,
    '--port', String(o.port),
    '--host', '127.0.0.1',
    ...(o.extraArgs ?? []),
    ...argsFromEnv('BENCH_FLASHNODE_ARGS'),
  ]
  return launch({
    peer: o.peer ?? 'flashnode',
    cmd: process.execPath,
    args,
    url: `http://127.0.0.1:${o.port}/`,
    chainId,
    serverName: 'node',
    readyTimeoutMs: o.readyTimeoutMs ?? READY_TIMEOUT_MS,
  })
}

/**
 * Extra arguments for the Flashnode process, split on spaces:
 * - BENCH_FLASHNODE_NODE_ARGS: node options, for profiling a scenario
 *   (`BENCH_FLASHNODE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench -- --only send --peers flashnode`;
 *   node refuses --cpu-prof in NODE_OPTIONS);
 * - BENCH_FLASHNODE_ARGS: `flashnode start` options, after the scenario's own, for trying a setting
 *   (`BENCH_FLASHNODE_ARGS="--execution-workers 2" npm run bench -- --only simulate --peers flashnode`).
 */
function argsFromEnv(name: string): string[] {
  return splitArgs(process.env[name] ?? '')
}

/** Command-line arguments written as one string, split on white space ("" gives none). */
export function splitArgs(text: string): string[] {
  const trimmed = text.trim()
  return trimmed === '' ? [] : trimmed.split(/\s+/)
}

/** `flashnode-group`: a cluster of three nats-servers, then Flashnode leading a group of one on it. */
async function startGroupLeader(o: FlashnodeOptions): Promise<RunningNode> {
  const cluster = await launchNatsCluster()
  try {
    const group = ['--sequencer-group', 'bench', '--stream', cluster.urls.join(','), '--node-id', 'bench-0']
    const node = await startFlashnode({ ...o, peer: undefined, extraArgs: [...(o.extraArgs ?? []), ...group] })
    const deadline = Date.now() + (o.readyTimeoutMs ?? READY_TIMEOUT_MS)
    while ((await fetch(new URL('/leader', node.url), { signal: AbortSignal.timeout(2_000) }).catch(() => undefined))?.status !== 200) {
      if (Date.now() > deadline) {
        await node.stop()
        throw new Error('the group member did not lead in time')
      }
      await sleep(25)
    }
    return {
      ...node,
      peer: 'flashnode-group',
      cpuSeconds: () => node.cpuSeconds() + cluster.pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      stop: async () => {
        await node.stop()
        await cluster.dispose()
      },
    }
  } catch (err) {
    await cluster.dispose()
    throw err
  }
}
