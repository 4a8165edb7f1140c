/**
 * A JetStream broker for the benchmarks: the tests' real nats-server (test/support/nats-server.ts: Debian's,
 * on loopback, its store in a temporary directory); undefined when nats-server is not installed (the rows
 * that need it say so). One broker serves every repetition of a scenario, and each repetition's sequencer
 * starts on a new chain: a scenario deletes the chain's stream once it is done with it, or the next sequencer
 * would find another history there and (rightly) publish nothing.
 */

import { spawnSync } from 'node:child_process'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { launchNatsServer, WITH_SBIN } from '../test/support/nats-server.ts'

export interface Broker {
  readonly url: string
  /** Deletes a stream if the broker has it (a repetition's sequencer starts on a new history). */
  deleteStream(name: string): Promise<void>
  stop(): Promise<void>
}

export async function startBroker(): Promise<Broker | undefined> {
  if (spawnSync('sh', ['-c', 'command -v nats-server'], { env: { ...process.env, PATH: WITH_SBIN } }).status !== 0) return undefined
  const server = await launchNatsServer()
  return {
    url: server.url,
    deleteStream: async (name) => {
      const nc = await connect({ servers: server.url })
      try {
        await (await jetstreamManager(nc)).streams.delete(name).catch(() => false)
      } finally {
        await nc.close()
      }
    },
    stop: () => server.dispose(),
  }
}
