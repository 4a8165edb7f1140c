/**
 * The metrics alone on their own port (`--metrics-port N`), for operators who keep the RPC port public and
 * scrape from inside: GET/HEAD `/metrics` is the Prometheus text exposition, any other path 404, any other
 * method 405. The same Host check as the RPC port.
 */

import { createServer, type Server } from 'node:http'
import { isHostAllowed } from './host-check.ts'
import { listenOn } from './listen.ts'

export interface RunningMetricsServer {
  readonly url: string
  close(): Promise<void>
}

export async function startMetricsServer(
  exposition: () => Promise<{ contentType: string; body: string }>,
  opts: { host: string; port: number; allowedHosts: readonly string[] },
): Promise<RunningMetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const plain = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' })
      res.end(text)
    }
    if (!isHostAllowed(req.headers.host, opts.allowedHosts)) return plain(403, 'invalid host specified\n')
    if (path !== '/metrics') return plain(404, 'not found: the metrics are at /metrics\n')
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'method not allowed\n')
    exposition().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) })
        res.end(req.method === 'HEAD' ? undefined : body)
      },
      () => plain(500, 'metrics unavailable\n'),
    )
  })
  const authority = await listenOn(server, opts.host, opts.port)
  return {
    url: `http://${authority}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
