/**
 * A TCP relay on loopback for tests: it forwards every connection to a target port, until the test cuts it
 * (open connections destroyed, new ones refused: the target is gone as far as the client can tell), and can
 * be opened again on the same port. Closed when the test ends.
 */

import { connect, createServer, type Server, type Socket } from 'node:net'
import type { TestContext } from 'node:test'

export interface TcpRelay {
  readonly port: number
  /** Destroys every relayed connection and stops listening. */
  cut(): Promise<void>
  /** Listens again on the same port. */
  reopen(): Promise<void>
}

export async function startTcpRelay(t: TestContext, targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>()
  const serve = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      for (const s of [client, upstream]) {
        sockets.add(s)
        s.on('close', () => sockets.delete(s))
        s.on('error', () => undefined)
      }
      client.pipe(upstream)
      upstream.pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
    })
  let server = serve()
  const port = await listen(server, 0)
  const cut = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const s of sockets) s.destroy()
    await closed
  }
  t.after(cut)
  return {
    port,
    cut,
    async reopen() {
      server = serve()
      await listen(server, port)
    },
  }
}
