/**
 * Test helper: starts the node the rpc-compat run talks to, as a child process running the project's serve
 * command, and stops it again.
 *
 * Contract with scripts/serve-rpc-compat.ts: it takes `--port N` (0 = any free port) and `--datadir DIR`,
 * imports the rpc-compat chain, and prints `flashnode listening on http://127.0.0.1:PORT` on stdout once
 * it serves. We run it as `node --import tsx scripts/serve-rpc-compat.ts --port 0 --datadir <dir>` from
 * the repo root and wait for that line. Start-up fails fast and loudly instead of hanging: a missing
 * script, an early exit or no line within the timeout rejects with the child's stderr (and the child is
 * killed). After start-up both pipes keep being drained so a chatty node never blocks on a full pipe;
 * stderr's tail is kept for diagnostics. stop() sends SIGTERM, then SIGKILL after 5 s, and resolves once
 * the child has exited; if the test process exits first the child is SIGKILLed so it never outlives it.
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, located from test/conformance/. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const SERVE_SCRIPT = 'scripts/serve-rpc-compat.ts'

const READY_LINE = /listening on (http:\/\/\S+)/
const STDERR_TAIL_CHARS = 16_000
const KILL_GRACE_MS = 5_000

export interface ServeOptions {
  /** The node's data directory (the caller creates and removes it). */
  datadir: string
  /** How long to wait for the ready line; default 120 s. */
  timeoutMs?: number
  /** Script path relative to the repo root; default scripts/serve-rpc-compat.ts. */
  script?: string
}

export interface ServeHandle {
  /** The node's HTTP endpoint, as printed by the serve command. */
  readonly url: string
  /** The child's stderr so far (its last 16 000 characters). */
  stderr(): string
  /** SIGTERM, SIGKILL after 5 s if still alive; resolves when the child has exited. Idempotent. */
  stop(): Promise<void>
}

function hasExited(child: ChildProcess): boolean {
  // pid is undefined when the spawn itself failed: there is nothing to wait for.
  return child.pid === undefined || child.exitCode !== null || child.signalCode !== null
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Starts the serve command; resolves once it prints its URL. */
export function startServe(opts: ServeOptions): Promise<ServeHandle> {
  const script = opts.script ?? SERVE_SCRIPT
  const timeoutMs = opts.timeoutMs ?? 120_000
  if (!existsSync(join(REPO_ROOT, script))) {
    return Promise.reject(new Error(`cannot start the node: ${script} does not exist (looked in ${REPO_ROOT})`))
  }

  const args = ['--import', 'tsx', script, '--port', '0', '--datadir', opts.datadir]
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const killOnExit = (): void => {
    child.kill('SIGKILL')
  }
  process.once('exit', killOnExit)

  let stderr = ''
  // 'close' comes after 'exit' once the pipes are drained: the whole stderr is in by then.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)
  })

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const exited = waitForExit(child)
      if (!hasExited(child)) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS)
        await exited
        clearTimeout(timer)
      }
      process.removeListener('exit', killOnExit)
    })()
    return stopping
  }

  return new Promise<ServeHandle>((resolve, reject) => {
    let settled = false
    let stdoutBuf = ''
    const fail = (why: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // Let the child's last stderr arrive before quoting it (bounded, in case 'close' never comes).
      void stop()
        .then(() => Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]))
        .then(() => {
          const tail = stderr.trim()
          reject(new Error(`${script} ${why}${tail ? `; its stderr:\n${tail}` : ' (no stderr)'}`))
        })
    }
    const timer = setTimeout(() => fail(`printed no "listening on http://..." line within ${timeoutMs} ms`), timeoutMs)

    child.once('error', (err) => fail(`could not be spawned: ${err.message}`))
    child.once('exit', (code, signal) => fail(`exited before it was ready (${signal ?? `code ${code}`})`))

    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      if (settled) return // keep draining; nothing more to look for
      stdoutBuf += chunk
      let nl: number
      while ((nl = stdoutBuf.indexOf('\n')) >= 0) {
        const line = stdoutBuf.slice(0, nl)
        stdoutBuf = stdoutBuf.slice(nl + 1)
        const m = READY_LINE.exec(line)
        if (m) {
          settled = true
          clearTimeout(timer)
          resolve({ url: m[1]!, stderr: () => stderr, stop })
          return
        }
      }
    })
  })
}
