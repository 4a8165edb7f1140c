/**
 * Binding a side server (the stream's own port, the metrics' own port): listen on host:port (0 picks a free
 * port) and answer the authority clients use (`host:port`, an IPv6 host in brackets).
 */

import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function listenOn(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  return `${host.includes(':') ? `[${host}]` : host}:${bound}`
}
