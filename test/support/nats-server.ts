/**
 * A real NATS server with JetStream (Debian's nats-server) for tests and benchmarks: on loopback, on the
 * port it picked itself (read from its log), its store in a temporary directory; stopped by the test (or by
 * its owner's `dispose`). It can be stopped and started again on the same port and store (a broker restart).
 * Debian installs it in /usr/sbin, which is looked in too.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import type { TestContext } from 'node:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface NatsServer {
  /** nats://127.0.0.1:PORT */
  readonly url: string
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>
  /** Starts it again on the same port and store. */
  restart(): Promise<void>
}

const LISTENING = /Listening for client connections on ([\d.]+):(\d+)/

/** The PATH, with where Debian puts nats-server. */
export const WITH_SBIN = `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin`

function launch(storeDir: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('nats-server', ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: WITH_SBIN } })
  let log = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server did not start in 20 s: ${log}`)), 20_000)
    const onData = (d: Buffer): void => {
      log += String(d)
      const m = LISTENING.exec(log)
      if (m === null || !/Server is ready/.test(log)) return
      clearTimeout(timer)
      child.stderr!.off('data', onData)
      resolve({ child, port: Number(m[2]) })
    }
    // nats-server logs to standard error.
    child.stderr!.on('data', onData)
    child.stdout!.resume()
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`nats-server exited (${signal ?? code}) before it was ready: ${log}`))
    })
  })
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

/** A server its caller owns: `dispose` stops it and removes its store. */
export async function launchNatsServer(): Promise<NatsServer & { dispose(): Promise<void> }> {
  const storeDir = mkdtempSync(join(tmpdir(), 'flashnode-nats-'))
  let { child, port } = await launch(storeDir, -1)
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () => end(child),
    async restart() {
      await end(child)
      ;({ child } = await launch(storeDir, port))
    },
    async dispose() {
      await end(child)
      rmSync(storeDir, { recursive: true, force: true })
    },
  }
}

/** A server stopped when the test ends. */
export async function startNatsServer(t: TestContext): Promise<NatsServer> {
  const server = await launchNatsServer()
  t.after(() => server.dispose())
  return server
}
