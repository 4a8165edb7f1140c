/**
 * How a flashblock message's JSON is held in a JetStream stream (jetstream-layout.ts): as it is, or
 * Brotli-compressed (the `Flashnode-Encoding: br` header; a sequencer group's replicated stream, where every
 * byte is sent to and written by three servers before the leader may announce, so a smaller message is a
 * shorter acknowledgement). Every reader goes through `storedJson`, which takes both forms; the JSON itself
 * is the WebSocket stream's, unchanged.
 *
 * Owns only the encoding: never the message's content, its headers other than the encoding's, or a choice
 * of which stream compresses.
 */

import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'

/** The value of the encoding header for Brotli. */
export const BROTLI_ENCODING = 'br'

/**
 * Brotli's quality 1 in text mode: within a few percent of its default's size on flashblock messages (hex in
 * JSON, about a seventh of the JSON) at a small fraction of its time (docs/performance.md).
 */
const OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }

/** A message's JSON bytes as a compressed stream message stores them (with BROTLI_ENCODING in its header). */
export function compressForStream(json: Uint8Array): Buffer {
  return brotliCompressSync(json, OPTIONS)
}

/** A message was stored with an encoding this node does not read. */
export class UnknownStreamEncoding extends Error {
  override readonly name = 'UnknownStreamEncoding'
  constructor(readonly encoding: string) {
    super(`a stream message in an unknown encoding (${JSON.stringify(encoding)})`)
  }
}

/** The JSON bytes of a stored message; `encoding` is its header's value ('' or undefined: stored as it is). */
export function storedJson(data: Uint8Array, encoding: string | undefined): Uint8Array {
  if (encoding === undefined || encoding === '') return data
  if (encoding === BROTLI_ENCODING) return brotliDecompressSync(data)
  throw new UnknownStreamEncoding(encoding)
}
