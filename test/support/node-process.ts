/**
 * A Flashnode process started through the CLI, as a user runs it: for tests that need a real process
 * (kill -9, restarts). Waits for the `listening on` line; stop() is SIGTERM then SIGKILL.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestContext } from 'node:test'

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface NodeProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Resolves with the exit signal or code once the process has ended. */
  readonly exited: Promise<string>
  stderr(): string
  /** Resolves with the first capture group of `pattern` once the standard output (or error) matches it. */
  printed(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<string>
  kill9(): Promise<string>
  stop(): Promise<void>
}

/** How a test runs the CLI: the TypeScript sources through tsx (the default), or a built file (compiled-build.test.ts). */
export const FROM_SOURCES: readonly string[] = ['--import', 'tsx', 'src/cli/main.ts']

export async function spawnNode(t: TestContext, args: string[], env: Record<string, string> = {}, cli: readonly string[] = FROM_SOURCES): Promise<NodeProcess> {
  const child = spawn(process.execPath, [...cli, 'start', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr!.on('data', (d) => (err += String(d)))
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start in 60 s: ${err}`)), 60_000)
    child.stdout!.on('data', (d) => {
      out += String(d)
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
    void exited.then((how) => {
      clearTimeout(timer)
      reject(new Error(`node exited (${how}) before listening: ${err}`))
    })
  })
  const printed = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout') =>
    new Promise<string>((resolve, reject) => {
      const text = () => (stream === 'stdout' ? out : err)
      const timer = setTimeout(() => reject(new Error(`the node did not print ${pattern} in 60 s: ${text()}`)), 60_000)
      const check = (): void => {
        const m = pattern.exec(text())
        if (m === null) return
        clearTimeout(timer)
        child[stream]!.off('data', check)
        resolve(m[1] ?? m[0])
      }
      // After the listener that collects the text: it sees each chunk once collected.
      child[stream]!.on('data', check)
      check()
    })
  const kill9 = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    return exited
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  t.after(stop)
  return { url, child, exited, stderr: () => err, printed, kill9, stop }
}

/** One JSON-RPC call; with `timeoutMs`, a deadline (a frozen process never holds the caller). */
export async function rpc<T>(url: string, method: string, params: unknown[] = [], timeoutMs?: number): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ...(timeoutMs !== undefined ? { signal: AbortSignal.timeout(timeoutMs) } : {}) })
  const body = (await res.json()) as { result?: T; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}
