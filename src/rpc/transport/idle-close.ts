/**
 * Closing idle HTTP keep-alive connections (both lanes: http-fast-lane.ts and node:http) without ever
 * cutting a request that is on its way in.
 *
 * Owns: the idle rule. A connection is idle when it has no request in progress and no byte of a next one;
 * it is kept `idleTimeoutMs` (advertised as `Keep-Alive: timeout=N`, whole seconds, so clients that honour
 * the hint stop reusing it first) and closed IDLE_GRACE_MS after that, the margin node:http also keeps.
 *
 * Why the decision waits: a socket's inactivity timer fires in the event loop's timers phase, before the
 * poll phase reads what arrived meanwhile. After a long synchronous stretch (a seal on the main thread) a
 * client's next request can be sitting unread in the kernel's buffer when the timer fires; closing then
 * throws the request away with a TCP reset (the client sees ECONNRESET). So a timeout only asks for a check
 * after the next poll (setImmediate), and the connection is closed only if by then no byte has arrived
 * and the lane has nothing in progress. A connection that is kept gets its timer again from its activity.
 */

import type { Socket } from 'node:net'

/** How long after the advertised idle time a connection is really closed (node:http's own buffer). */
export const IDLE_GRACE_MS = 1_000

/** The socket timeout that closes an idle connection. */
export const idleCloseAfterMs = (idleTimeoutMs: number): number => idleTimeoutMs + IDLE_GRACE_MS

/** The `Keep-Alive` header value advertising the idle time (whole seconds, as node:http writes it). */
export const keepAliveHeader = (idleTimeoutMs: number): string => `timeout=${Math.floor(idleTimeoutMs / 1000)}`

/**
 * Called when `socket`'s idle timer fires: closes it after the next poll unless a byte arrived by then or
 * `busy()` (the lane has a request in progress or partly received); `close` does the closing.
 */
export function closeIfStillIdle(socket: Socket, busy: () => boolean, close: () => void): void {
  const readBefore = socket.bytesRead
  setImmediate(() => {
    if (socket.destroyed || socket.bytesRead !== readBefore || busy()) return
    close()
  })
}
