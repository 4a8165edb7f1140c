/**
 * A direct route to the server that leads a replicated stream (issue 40: what replication adds to a
 * pre-confirmation). A JetStream publish goes to the stream's Raft leader, which stores it, replicates it to
 * a quorum and answers; a client connected to another server of the cluster has its publish and its answer
 * relayed through that server, one more hop each way. A sequencer group's leader publishes every flashblock
 * and waits for the answer before announcing it, so it opens one more connection, to the stream leader's
 * own server, found by asking each of the cluster's servers its name.
 *
 * It owns that one connection (no reconnection: when it closes, the caller goes back to its own connection)
 * and never publishes, never retries and never decides anything about the stream; the stream leader may
 * move later (a broker restarted), which costs the hop again, nothing else.
 */

import { connect, type NatsConnection } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'

/** How long one server is given to answer while looking for the stream's leader. */
const PROBE_TIMEOUT_MS = 1_000

/**
 * A connection to the server among `servers` (host:port, as the NATS client takes them) that leads `stream`
 * now; undefined when `nc` is already connected to it, when no server names itself so, or when the stream's
 * leader cannot be read. Never throws.
 */
export async function connectToStreamLeader(nc: NatsConnection, servers: readonly string[], stream: string, name: string): Promise<NatsConnection | undefined> {
  let leader: string | undefined
  try {
    const jsm = await jetstreamManager(nc, { timeout: PROBE_TIMEOUT_MS, checkAPI: false })
    leader = (await jsm.streams.info(stream)).cluster?.leader
  } catch {
    return undefined
  }
  if (leader === undefined || nc.info?.server_name === leader) return undefined
  for (const server of servers) {
    const direct = await connect({ servers: server, name, reconnect: false, timeout: PROBE_TIMEOUT_MS, pingInterval: 2_000 }).catch(() => undefined)
    if (direct === undefined) continue
    if (direct.info?.server_name === leader) return direct
    await direct.close().catch(() => undefined)
  }
  return undefined
}
