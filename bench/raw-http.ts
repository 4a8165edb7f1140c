/**
 * A minimal HTTP/1.1 keep-alive client over one TCP socket, for the load generator only.
 *
 * Why: on this machine node:http's client costs ~150 µs of CPU per request, so one generator process
 * tops out near 6,000 req/s while Anvil can answer over 20,000 (measured with wrk): the client was the
 * bottleneck. This client writes pre-built request bytes and parses just enough of the reply (status line,
 * Content-Length or chunked body, Connection: close), several times cheaper per request.
 * One request at a time per connection (no pipelining); a broken or closed socket fails the pending
 * request and is reopened on the next one. Not a general HTTP client: no redirects, no TLS, no 1xx.
 */

import net from 'node:net'

export interface RawReply {
  status: number
  text: string
}

/** The bytes of a JSON POST to `url`, built once per body. */
export function buildRequest(url: URL, body: Buffer): Buffer {
  const head =
    `POST ${url.pathname || '/'} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`
  return Buffer.concat([Buffer.from(head, 'latin1'), body])
}

const CRLFCRLF = Buffer.from('\r\n\r\n')

/** Parses a chunked body starting at `at`; returns the body and the end offset, or undefined if incomplete. */
function parseChunked(buf: Buffer, at: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = []
  let i = at
  for (;;) {
    const eol = buf.indexOf('\r\n', i, 'latin1')
    if (eol < 0) return undefined
    const size = parseInt(buf.toString('latin1', i, eol), 16)
    if (Number.isNaN(size)) throw new Error('bad chunk size')
    if (size === 0) {
      // the last chunk; optional trailers, then an empty line (found at `eol` itself when there are none)
      const t = buf.indexOf(CRLFCRLF, eol)
      return t < 0 ? undefined : { body: Buffer.concat(parts), end: t + 4 }
    }
    if (buf.length < eol + 2 + size + 2) return undefined
    parts.push(buf.subarray(eol + 2, eol + 2 + size))
    i = eol + 2 + size + 2
  }
}

export class RawConnection {
  private socket: net.Socket | undefined
  private buf: Buffer = Buffer.alloc(0)
  private pending: { resolve: (r: RawReply) => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | undefined

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  post(request: Buffer): Promise<RawReply> {
    if (this.pending !== undefined) return Promise.reject(new Error('request already in flight'))
    const socket = this.socket ?? this.open()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`timeout after ${this.timeoutMs} ms`)), this.timeoutMs)
      this.pending = { resolve, reject, timer }
      socket.write(request)
    })
  }

  close(): void {
    this.socket?.destroy()
    this.socket = undefined
  }

  private open(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true })
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk])
      try {
        this.parse()
      } catch (e) {
        this.fail(e as Error)
      }
    })
    socket.on('error', (e) => this.fail(e))
    socket.on('close', () => {
      if (this.socket === socket) this.fail(new Error('connection closed'))
    })
    this.socket = socket
    this.buf = Buffer.alloc(0)
    return socket
  }

  private parse(): void {
    const headerEnd = this.buf.indexOf(CRLFCRLF)
    if (headerEnd < 0 || this.pending === undefined) return
    const head = this.buf.toString('latin1', 0, headerEnd).toLowerCase()
    const status = Number(head.slice(9, 12))
    const length = /\r\ncontent-length:\s*(\d+)/.exec(head)
    let body: Buffer
    let end: number
    if (length !== null) {
      end = headerEnd + 4 + Number(length[1])
      if (this.buf.length < end) return
      body = this.buf.subarray(headerEnd + 4, end)
    } else if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
      const c = parseChunked(this.buf, headerEnd + 4)
      if (c === undefined) return
      ;({ body, end } = c)
    } else {
      throw new Error('reply without Content-Length or chunked encoding')
    }
    const text = body.toString('utf8')
    this.buf = this.buf.subarray(end)
    const p = this.pending
    this.pending = undefined
    clearTimeout(p.timer)
    if (/\r\nconnection:\s*close/.test(head)) this.close()
    p.resolve({ status, text })
  }

  private fail(e: Error): void {
    this.close()
    const p = this.pending
    this.pending = undefined
    if (p !== undefined) {
      clearTimeout(p.timer)
      p.reject(e)
    }
  }
}
