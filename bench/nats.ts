/**
 * A JetStream broker for the benchmarks: Debian's nats-server on loopback, on a port it picks, its store in a
 * temporary directory; undefined when nats-server is not installed (the rows that need it say so). One broker
 * serves every repetition of a scenario, and each repetition's sequencer starts on a new chain: a scenario
 * deletes the chain's stream once it is done with it, or the next sequencer would find another history there
 * and (rightly) publish nothing.
 */

import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'

export interface Broker {
  readonly url: string
  /** Deletes a stream if the broker has it (a repetition's sequencer starts on a new history). */
  deleteStream(name: string): Promise<void>
  stop(): Promise<void>
}

export async function startBroker(): Promise<Broker | undefined> {
  const path = `${process.env['PATH'] ?? ''}:/usr/sbin:/sbin`
  if (spawnSync('sh', ['-c', 'command -v nats-server'], { env: { ...process.env, PATH: path } }).status !== 0) return undefined
  const store = mkdtempSync(join(tmpdir(), 'flashnode-bench-nats-'))
  const child = spawn('nats-server', ['-js', '-sd', store, '-a', '127.0.0.1', '-p', '-1'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PATH: path } })
  let log = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server did not start in 20 s: ${log}`)), 20_000)
    child.stderr!.on('data', (d: Buffer) => {
      log += String(d)
      const m = /Listening for client connections on [\d.]+:(\d+)/.exec(log)
      if (m !== null && /Server is ready/.test(log)) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
    child.once('exit', (code) => reject(new Error(`nats-server exited ${code}: ${log}`)))
  })
  return {
    url: `nats://127.0.0.1:${port}`,
    deleteStream: async (name) => {
      const nc = await connect({ servers: `nats://127.0.0.1:${port}` })
      try {
        await (await jetstreamManager(nc)).streams.delete(name).catch(() => false)
      } finally {
        await nc.close()
      }
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(store, { recursive: true, force: true })
    },
  }
}
