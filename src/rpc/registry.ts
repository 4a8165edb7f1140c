/**
 * The method registry: the contract between the transport (envelope, limits, error mapping) and the method
 * handlers.
 *
 * A handler receives the raw positional params (the transport has already checked that `params` is an array
 * or absent) and returns a JSON-ready value (strings, numbers, booleans, null, arrays, plain objects), or its
 * whole result already serialized as a `RawJson` (transport/messages.ts). It parses params with the schemas
 * in rpc/params and throws `FlashnodeError`s; it never builds envelopes and never picks error codes
 * (rpc/error-codes.ts does). Methods are looked up by exact name in a Map: no
 * reflection.
 */

export interface MethodContext {
  /** Aborted when the request's deadline passes or the client goes away. */
  readonly signal: AbortSignal
  /** Name of the endpoint (profile) that received the request, for logs and policy. */
  readonly endpoint: string
  /** The long-lived connection (WebSocket) the request came over; absent for plain HTTP. */
  readonly connection?: RpcConnection
}

/**
 * A client connection that outlives one request, so a handler (e.g. eth_subscribe) can push notifications
 * later. `send` after the connection closed is a no-op; `onClose` callbacks run once, when it closes (at
 * once if it already has).
 */
export interface RpcConnection {
  /** Unique for the life of the process. */
  readonly id: string
  /** Subscriptions this connection may hold (the endpoint's setting); absent: the subscription module's default. */
  readonly maxSubscriptions?: number
  /** Sends one already-serialized JSON-RPC message. */
  send(message: string): void
  onClose(callback: () => void): void
}

export type MethodHandler = (params: readonly unknown[], ctx: MethodContext) => Promise<unknown>

export type MethodTable = ReadonlyMap<string, MethodHandler>
