/**
 * A probe run as its own OS process (visibility-probe.ts, stream-probe.ts), so that what it measures is not
 * slowed by the orchestrator: its config goes in a temporary file (`@file` argument), it may print a `ready`
 * line once set up, and its last line of standard output is its JSON result. Killed past `timeoutMs`.
 */

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ProbeRun<T> {
  /** Resolves when the probe prints `ready` (or ends). */
  readonly ready: Promise<void>
  readonly result: Promise<T>
  /** Ends it now (its result then rejects, unless it had already ended). */
  kill(): void
}

export function startProbe<T>(script: string, config: unknown, timeoutMs: number): ProbeRun<T> {
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-probe-'))
  const file = join(dir, 'config.json')
  writeFileSync(file, JSON.stringify(config))
  const child = spawn(process.execPath, ['--import', 'tsx', script, `@${file}`], { stdio: ['ignore', 'pipe', 'pipe'] })
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
  }
}
