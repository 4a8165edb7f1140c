/**
 * A one-off read of a span of the sequencer's WebSocket stream: the messages after sequence `after` and before
 * sequence `before`, from what the sequencer keeps (`?after=`, docs/stream.md). A follower reading the
 * stream through JetStream uses it to fill a hole the broker path left (a message the sequencer dropped from
 * that path): the sequencer's own stream still has it for a while.
 *
 * It answers the messages (parsed JSON, in order) once one at or past `before` arrives; or, when the span
 * cannot be had (the sequencer no longer keeps it: close 4000; another history: 4001; unreachable; longer
 * than `max` messages; not done within `timeoutMs`), the reason. Never holds more than `max` messages.
 */

import WebSocket from 'ws'

export interface StreamRangeOptions {
  readonly timeoutMs: number
  readonly max: number
}

export type StreamRange = { readonly messages: unknown[] } | { readonly missing: string }

export function readStreamRange(url: string, after: number, before: number, options: StreamRangeOptions): Promise<StreamRange> {
  if (before - after - 1 > options.max) return Promise.resolve({ missing: `${before - after - 1} messages missed, more than ${options.max}` })
  return new Promise((resolve) => {
    const messages: unknown[] = []
    const socket = new WebSocket(`${url}?after=${after}`, { perMessageDeflate: false })
    let done = false
    const finish = (result: StreamRange): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.removeAllListeners('message')
      socket.terminate()
      resolve(result)
    }
    const timer = setTimeout(() => finish({ missing: `not read within ${options.timeoutMs} ms` }), options.timeoutMs)
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return finish({ missing: 'a binary message on a JSON subscription' })
      let message: unknown
      try {
        message = JSON.parse(data.toString('utf8'))
      } catch {
        return finish({ missing: 'a message that is not JSON' })
      }
      const sequence = (message as { metadata?: { sequence?: unknown } }).metadata?.sequence
      if (typeof sequence !== 'number') return finish({ missing: 'a message without a sequence' })
      if (sequence >= before) return finish({ messages })
      messages.push(message)
      if (messages.length > options.max) finish({ missing: `more than ${options.max} messages` })
    })
    socket.on('close', (code: number, reason: Buffer) => finish({ missing: `the sequencer's stream closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})` }))
    socket.on('error', (err: Error) => finish({ missing: `the sequencer's stream: ${err.message}` }))
  })
}
