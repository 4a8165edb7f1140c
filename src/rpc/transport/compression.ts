/**
 * gzip on the HTTP transport: answers compressed for clients that accept it, request bodies sent compressed
 * inflated under the body limit. Both lanes use these (http-server.ts, http-fast-lane.ts).
 *
 * Answers: a JSON-RPC answer of at least `GZIP_FROM_BYTES` characters goes out gzipped (`Content-Encoding:
 * gzip`, `Vary: Accept-Encoding`) when the request's Accept-Encoding names gzip (or `*`) with a non-zero q.
 * Smaller answers (a state read's few hundred bytes) go out as they are: the gzip framing and the CPU cost
 * more than the bytes saved. Large answers (batches, simulations, receipts) shrink several times, hex being
 * half redundant. Compression runs on libuv's thread pool (async zlib), at the fastest level, so the event
 * loop does not wait on it and a large answer costs little CPU.
 *
 * Requests: `Content-Encoding: gzip` is inflated with the output capped at the body limit, so the limit is
 * the inflated size and a small zip bomb is refused (413) without inflating more than the limit. Identity
 * (or no header) is the plain body; any other coding is refused (415). Only node:http reads compressed
 * bodies: the fast lane hands such requests over.
 */

import { promisify } from 'node:util'
import { constants, gunzip, gzip } from 'node:zlib'

/** Answers from this many characters on are gzipped for a client that accepts it. */
export const GZIP_FROM_BYTES = 1024

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** Whether an Accept-Encoding value accepts gzip (`gzip` or `*`, without `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined || header.length === 0) return false
  let star = false
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = rawName!.trim().toLowerCase()
    if (name !== 'gzip' && name !== '*') continue
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='))
    const accepted = q === undefined || Number(q.slice(2)) > 0
    if (name === 'gzip') return accepted
    star = accepted
  }
  return star
}

export interface EncodedBody {
  readonly body: string | Buffer
  /** Content-Encoding and Vary when compressed. */
  readonly headers?: Readonly<Record<string, string>>
}

const GZIP_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' })

/** The body as it goes out to a client whose Accept-Encoding is `acceptEncoding`. */
export async function encodeAnswer(body: string, acceptEncoding: string | undefined): Promise<EncodedBody> {
  if (body.length < GZIP_FROM_BYTES || !acceptsGzip(acceptEncoding)) return { body }
  return { body: await gzipAsync(body, { level: constants.Z_BEST_SPEED }), headers: GZIP_HEADERS }
}

export type RequestCoding = 'identity' | 'gzip' | 'unsupported'

/** A request's Content-Encoding: absent or identity, gzip, or one this server does not read. */
export function requestCoding(header: string | undefined): RequestCoding {
  if (header === undefined) return 'identity'
  const coding = header.trim().toLowerCase()
  if (coding === '' || coding === 'identity') return 'identity'
  return coding === 'gzip' || coding === 'x-gzip' ? 'gzip' : 'unsupported'
}

export type Inflated =
  | { readonly kind: 'ok'; readonly data: Buffer }
  | { readonly kind: 'tooLarge' }
  | { readonly kind: 'invalid' }

/** Inflates a gzip body, refusing one whose inflated size passes `maxBytes` (never inflating beyond it). */
export async function inflateGzip(data: Buffer, maxBytes: number): Promise<Inflated> {
  try {
    return { kind: 'ok', data: await gunzipAsync(data, { maxOutputLength: maxBytes }) }
  } catch (err) {
    const code = (err as { code?: unknown }).code
    return code === 'ERR_BUFFER_TOO_LARGE' ? { kind: 'tooLarge' } : { kind: 'invalid' }
  }
}
