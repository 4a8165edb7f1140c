/**
 * The limit on open connections of one endpoint: HTTP keep-alive sockets and WebSockets together (a
 * WebSocket is the HTTP socket it was upgraded from, so counting sockets counts both).
 *
 * A socket accepted while `max` are open is not dropped: it is marked over the limit, and its first request
 * (or upgrade) is answered HTTP 503 with a JSON-RPC error naming the limit, then closed. Such a socket gets
 * `OVER_LIMIT_IDLE_MS` to send that request. Marked sockets do not count towards the limit, but at most
 * `MAX_REFUSING` of them are kept at once: past that (a flood), new sockets are destroyed at once, since
 * answering each would itself hold resources without bound.
 *
 * Owns the count only; the HTTP and WebSocket code ask `isOverLimit(socket)` and send the refusal.
 */

import type { Server } from 'node:net'
import type { Socket } from 'node:net'

/** Over-limit sockets kept open at once to be told why; beyond that they are destroyed unanswered. */
export const MAX_REFUSING = 64
/** How long an over-limit socket may take to send the request that gets the refusal. */
export const OVER_LIMIT_IDLE_MS = 5_000

export interface ConnectionLimit {
  /** Connections currently counted (over-limit ones excluded). */
  open(): number
  isOverLimit(socket: Socket): boolean
  readonly max: number
}

export function limitConnections(server: Server, max: number): ConnectionLimit {
  let open = 0
  let refusing = 0
  const overLimit = new WeakSet<Socket>()
  server.on('connection', (socket: Socket) => {
    if (open < max) {
      open++
      socket.once('close', () => open--)
      return
    }
    if (refusing >= MAX_REFUSING) {
      socket.destroy()
      return
    }
    refusing++
    overLimit.add(socket)
    socket.once('close', () => refusing--)
    socket.setTimeout(OVER_LIMIT_IDLE_MS, () => socket.destroy())
  })
  return { open: () => open, isOverLimit: (socket) => overLimit.has(socket), max }
}

export const tooManyConnectionsMessage = (max: number): string => `too many connections (limit ${max})`
