/**
 * The fuzz suite's HTTP client: raw bodies (any bytes), any method and Content-Type, over a keep-alive agent,
 * answering the status, Content-Type and body text. Never rejects on an HTTP status; a transport failure
 * (reset, refused) rejects, and the suite treats that as a failure: the server must answer, not drop.
 */

import { Agent, request as httpRequest } from 'node:http'
import type { TestContext } from 'node:test'

/** A request still unanswered after this long fails the case: the server must answer, not stall. */
const ANSWER_TIMEOUT_MS = 10_000

export interface FuzzRequest {
  readonly body: string | Uint8Array
  readonly method?: string
  readonly contentType?: string
}

export interface FuzzAnswer {
  readonly status: number
  readonly contentType: string | undefined
  readonly body: string
}

export class FuzzClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 })
  private readonly host: string
  private readonly port: number

  constructor(url: string) {
    const u = new URL(url)
    this.host = u.hostname
    this.port = Number(u.port)
  }

  send(req: FuzzRequest): Promise<FuzzAnswer> {
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        {
          host: this.host,
          port: this.port,
          method: req.method ?? 'POST',
          path: '/',
          headers: { 'content-type': req.contentType ?? 'application/json', 'content-length': Buffer.byteLength(req.body) },
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'],
              body: Buffer.concat(chunks).toString('utf8'),
            }))
          res.on('error', reject)
        },
      )
      r.setTimeout(ANSWER_TIMEOUT_MS, () => r.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)))
      r.on('error', reject)
      r.end(req.body)
    })
  }

  /** One JSON-RPC call, for the checks after a run. */
  async call(method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
    const answer = await this.send({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return JSON.parse(answer.body) as Record<string, unknown>
  }

  close(): void {
    this.agent.destroy()
  }
}

/** A client for each endpoint of a fuzz node (dedicated and public), closed when the test ends. */
export function endpointClients(t: TestContext, urls: { readonly dedicated: string; readonly public: string }): { dedicated: FuzzClient; pub: FuzzClient } {
  const dedicated = new FuzzClient(urls.dedicated)
  const pub = new FuzzClient(urls.public)
  t.after(() => {
    dedicated.close()
    pub.close()
  })
  return { dedicated, pub }
}
