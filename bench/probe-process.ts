/**
 * A probe run as its own OS process (visibility-probe.ts, stream-probe.ts, throughput-sender.ts), so that
 * what it measures is not slowed by the orchestrator: its config goes in a temporary file (`@file` argument),
 * it may print a `ready` line once set up (and then wait for `go()`, a line on its standard input, so that
 * several probes start on the same signal: `waitForGo`), and its last line of standard output is its JSON
 * result. Killed past `timeoutMs`.
 */

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface ProbeRun<T> {
  /** Resolves when the probe prints `ready` (or ends). */
  readonly ready: Promise<void>
  readonly result: Promise<T>
  /** Ends it now (its result then rejects, unless it had already ended). */
  kill(): void
  /** Releases a probe waiting in `waitForGo`. */
  go(): void
}

export function startProbe<T>(script: string, config: unknown, timeoutMs: number): ProbeRun<T> {
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-probe-'))
  const file = join(dir, 'config.json')
  writeFileSync(file, JSON.stringify(config))
  const child = spawn(process.execPath, ['--import', 'tsx', script, `@${file}`], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let onReady: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (onReady = resolve))
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString()
    if (stdout.startsWith('ready\n')) onReady()
  })
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const result = new Promise<T>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(killer)
      rmSync(dir, { recursive: true, force: true })
      const line = stdout.trim().split('\n').pop() ?? ''
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as T)
      else reject(new Error(`${script} exited ${code}: ${stderr.trim().slice(-500)}`))
    })
  })
  return {
    ready: Promise.race([ready, result.then(() => undefined, () => undefined)]),
    result,
    kill: () => {
      result.catch(() => undefined)
      child.kill('SIGKILL')
    },
    go: () => {
      child.stdin.end('go\n')
    },
  }
}

/** The probe side of `go()`: resolves when the orchestrator releases it (a line on standard input). */
export function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause()
      resolve()
    })
  })
}

/**
 * The probe side: when `moduleUrl` is the script node was started with, reads the config (`@file` or inline
 * JSON), runs `probe` on it and prints its result as the last line (exit 0), or the failure (exit 1).
 */
export function runAsProbe<C, R>(moduleUrl: string, probe: (cfg: C) => Promise<R>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return
  const arg = process.argv[2] ?? ''
  const cfg = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as C
  probe(cfg).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`)
      process.exit(0)
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`)
      process.exit(1)
    },
  )
}
