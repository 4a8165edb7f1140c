/**
 * What crosses the thread boundary between the node and its execution workers: snapshots as plain data
 * (accounts as RLP, maps as entry lists), errors as their typed fields. Structured clone does the rest.
 */

import { createAccountFromRLP, type Account } from '@ethereumjs/util'
import { FlashnodeError, isFlashnodeError, type ErrorKind } from '../../errors/errors.ts'
import type { StateDiff } from '../../state/state-diff.ts'
import type { PreconfirmedSnapshot } from '../../sequencer/snapshot.ts'
import { pendingBaseData } from '../../simulate/base.ts'

export interface WireSnapshot {
  readonly version: number
  readonly parentNumber: bigint
  readonly parentStateRoot: Uint8Array
  readonly headerRlp: Uint8Array
  /** Gas and blob gas the pre-confirmed transactions used (a simulation's base header carries them). */
  readonly gasUsed: bigint
  readonly blobGasUsed: bigint
  readonly accounts: [string, Uint8Array | null][]
  readonly storage: [string, [string, Uint8Array][]][]
  readonly wiped: string[]
  readonly codes: [string, Uint8Array][]
}

export interface WireError {
  readonly kind: ErrorKind
  readonly message: string
  readonly data?: unknown
  readonly code?: number
}

export function snapshotToWire(s: PreconfirmedSnapshot, version: number): WireSnapshot {
  const base = pendingBaseData(s)
  return {
    version,
    parentNumber: s.parent.number,
    parentStateRoot: s.parent.stateRoot,
    headerRlp: s.header.serialize(),
    gasUsed: base.gasUsed,
    blobGasUsed: base.blobGasUsed,
    accounts: [...s.diff.accounts].map(([k, a]) => [k, a === null ? null : a.serialize()]),
    storage: [...s.diff.storage].map(([k, slots]) => [k, [...slots]]),
    wiped: [...s.diff.wiped],
    codes: [...s.diff.codes],
  }
}

export function diffFromWire(w: WireSnapshot): StateDiff {
  return {
    accounts: new Map<string, Account | null>(w.accounts.map(([k, a]) => [k, a === null ? null : createAccountFromRLP(a)])),
    storage: new Map(w.storage.map(([k, slots]) => [k, new Map(slots)])),
    wiped: new Set(w.wiped),
    codes: new Map(w.codes),
  }
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
