/**
 * Validation of one JSON-RPC request object (a single request or one batch item), before anything runs.
 *
 * Owns the envelope rules: `jsonrpc` must be "2.0", `method` a string of at most `maxMethodNameLength`
 * characters, `id` (when present) a string, number or null, `params` absent, null or an array (an object is
 * -32602 `non-array args`, as in geth, since handlers are positional). A request without an `id` member is
 * a notification (`"id": null` is a request). Structural faults are answered even without an id (with id
 * null, per the JSON-RPC spec); faults of a well-formed notification (unknown method, bad params) are not.
 * Methods are looked up by exact name in the Map.
 */

import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { RawId, type RequestId } from './messages.ts'

export type PreparedRequest =
  | {
      readonly kind: 'invalid'
      readonly id: RequestId
      /** A notification gets no response, even for an error. */
      readonly notification: boolean
      readonly error: FlashnodeError
    }
  | {
      readonly kind: 'call'
      readonly id: RequestId
      readonly notification: boolean
      readonly method: string
      readonly params: readonly unknown[]
      readonly handler: MethodHandler
    }

const NO_PARAMS: readonly unknown[] = Object.freeze([])

export function prepareRequest(item: unknown, methods: MethodTable, maxMethodNameLength: number): PreparedRequest {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return invalid(null, 'invalid request')
  const req = item as Record<string, unknown>
  const hasId = Object.hasOwn(req, 'id')
  if (hasId && !isRequestId(req.id)) return invalid(null, 'invalid request')
  const id = hasId ? (req.id as RequestId) : null
  if (req.jsonrpc !== '2.0') return invalid(id, 'invalid request')
  const method = req.method
  if (typeof method !== 'string') return invalid(id, 'invalid request')
  if (method.length > maxMethodNameLength) return invalid(id, 'invalid request: method name too long')

  const notification = !hasId
  const handler = methods.get(method)
  if (handler === undefined) {
    const error = new FlashnodeError('methodNotFound', `the method ${method} does not exist/is not available`)
    return { kind: 'invalid', id, notification, error }
  }
  const params = req.params
  if (params === undefined || params === null) return { kind: 'call', id, notification, method, params: NO_PARAMS, handler }
  if (!Array.isArray(params)) {
    return { kind: 'invalid', id, notification, error: new FlashnodeError('invalidParams', 'non-array args') }
  }
  return { kind: 'call', id, notification, method, params, handler }
}

/** The id to echo when a whole payload is refused (geth: the first request's id). */
export function firstRequestId(items: readonly unknown[]): RequestId {
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue
    const id = (item as Record<string, unknown>).id
    if (id !== null && isRequestId(id)) return id
  }
  return null
}

export function isRequestId(value: unknown): value is RequestId {
  return value === null || typeof value === 'string' || value instanceof RawId || (typeof value === 'number' && Number.isFinite(value))
}

function invalid(id: RequestId, message: string): PreparedRequest {
  return { kind: 'invalid', id, notification: false, error: new FlashnodeError('invalidRequest', message) }
}
