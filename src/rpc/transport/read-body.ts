/**
 * Reads an HTTP request body up to a byte limit.
 *
 * Invariants: never holds more than `maxBytes` of body in memory. A declared Content-Length over the limit
 * is refused before a byte is read; a body that grows past the limit while streaming (chunked) is refused at
 * the chunk that crosses it, the chunks kept so far are dropped and the request stream is paused (the
 * caller answers 413 with `Connection: close`, so the rest is never read into memory). Never rejects.
 */

import type { IncomingMessage } from 'node:http'

export type BodyResult =
  | { readonly kind: 'ok'; readonly data: Buffer; readonly bytes: number }
  | { readonly kind: 'tooLarge' }
  /** The client went away or the stream failed before the body ended. */
  | { readonly kind: 'aborted' }

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ kind: 'tooLarge' })

  return new Promise<BodyResult>((resolve) => {
    let chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (result: BodyResult): void => {
      if (settled) return
      settled = true
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onAborted)
      req.off('close', onAborted)
      resolve(result)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > maxBytes) {
        chunks = []
        req.pause()
        settle({ kind: 'tooLarge' })
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => settle({ kind: 'ok', data: Buffer.concat(chunks, size), bytes: size })
    const onAborted = (): void => settle({ kind: 'aborted' })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onAborted)
    req.on('close', onAborted)
  })
}
