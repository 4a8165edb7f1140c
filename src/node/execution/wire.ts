/**
 * Errors as they cross the thread boundary between the node and its execution workers: their typed fields,
 * rebuilt as the same FlashnodeError on the other side. (Snapshots cross in their own wire form:
 * preconf/wire.ts. Structured clone carries the rest.)
 */

import { FlashnodeError, isFlashnodeError, type ErrorKind } from '../../errors/errors.ts'

export interface WireError {
  readonly kind: ErrorKind
  readonly message: string
  readonly data?: unknown
  readonly code?: number
}

export function errorToWire(e: unknown): WireError {
  if (isFlashnodeError(e)) {
    return { kind: e.kind, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}), ...(e.code !== undefined ? { code: e.code } : {}) }
  }
  return { kind: 'internal', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }
}

export function errorFromWire(w: WireError): FlashnodeError {
  return new FlashnodeError(w.kind, w.message, { ...(w.data !== undefined ? { data: w.data } : {}), ...(w.code !== undefined ? { code: w.code } : {}) })
}
