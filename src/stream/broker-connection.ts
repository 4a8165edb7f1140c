/**
 * One NATS connection kept up for as long as its owner wants it (the sequencer's JetStream publisher, a
 * follower's JetStream source). The NATS client reconnects by itself once it has connected; this adds the
 * first connection (retried every `retryMs` until it succeeds, on a timer that never holds the process) and
 * a new one if the client ever gives up. Owners hear `up` (connected, or reconnected: the broker may have
 * restarted, so anything set up on it is set up again) and `down`; `connection` is the connection only while
 * it is up. Nothing here waits on the caller's path: starting returns at once.
 */

import { connect, type NatsConnection } from '@nats-io/transport-node'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import { natsServers } from './nats-url.ts'

export interface BrokerConnectionOptions {
  /** nats://host:port */
  /** nats://host:port, or a cluster's servers as a comma-separated list. */
  readonly url: string
  /** The connection's name as the broker shows it. */
  readonly name: string
  readonly retryMs: number
  readonly log?: Logger
  /** Connected or reconnected; the connection counts as up once this has resolved. */
  readonly onUp?: (nc: NatsConnection) => Promise<void> | void
  readonly onDown?: () => void
}

export class BrokerConnection {
  private nc: NatsConnection | undefined
  private up = false
  private closed = false
  private timer: NodeJS.Timeout | undefined
  private waiters: (() => void)[] = []
  private readonly log: Logger

  constructor(private readonly options: BrokerConnectionOptions) {
    this.log = options.log ?? SILENT_LOGGER
  }

  /** The connection while it is up (connected, and the owner's setup done). */
  get connection(): NatsConnection | undefined {
    return this.up ? this.nc : undefined
  }

  get isUp(): boolean {
    return this.up
  }

  start(): void {
    void this.connect()
  }

  /** Resolves once the connection is up (at once if it is). */
  whenUp(): Promise<void> {
    if (this.up) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    this.setDown()
    const nc = this.nc
    this.nc = undefined
    await nc?.close().catch(() => undefined)
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    let nc: NatsConnection
    try {
      nc = await connect({ servers: serversOf(this.options.url), name: this.options.name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: this.options.retryMs, pingInterval: 10_000 })
    } catch (err) {
      this.log.debug({ url: this.options.url, ...errorFields(err) }, 'broker: not reachable yet')
      return this.later()
    }
    if (this.closed) return void (await nc.close().catch(() => undefined))
    this.nc = nc
    void this.watch(nc)
    void nc.closed().then(() => {
      if (this.nc !== nc) return
      this.nc = undefined
      this.setDown()
      this.later()
    })
    await this.setUp(nc)
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.nc !== nc) return
      if (status.type === 'disconnect') {
        this.log.warn({ url: this.options.url }, 'broker: disconnected')
        this.setDown()
      } else if (status.type === 'reconnect') {
        this.log.info({ url: this.options.url }, 'broker: reconnected')
        await this.setUp(nc)
      }
    }
  }

  private async setUp(nc: NatsConnection): Promise<void> {
    try {
      await this.options.onUp?.(nc)
    } catch (err) {
      // The broker answers but the setup failed (e.g. JetStream not enabled): try again on a new connection.
      this.log.warn({ url: this.options.url, ...errorFields(err) }, 'broker: connected, but could not set up; retrying')
      if (this.nc === nc) this.nc = undefined
      await nc.close().catch(() => undefined)
      return this.later()
    }
    if (this.nc !== nc || this.closed) return
    this.up = true
    for (const resolve of this.waiters.splice(0)) resolve()
  }

  private setDown(): void {
    if (!this.up) return
    this.up = false
    this.options.onDown?.()
  }

  private later(): void {
    if (this.closed) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.connect(), this.options.retryMs)
    this.timer.unref()
  }
}

/** The client's server list; a list that does not parse is passed as given (the client says what is wrong). */
function serversOf(url: string): string[] | string {
  const servers = natsServers(url)
  return servers instanceof Error ? url : servers
}
