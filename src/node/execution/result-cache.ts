/**
 * Results of eth_call per (target, request): a sealed block and a published snapshot never change, so the
 * same call against them always answers the same — result or revert. Bounded LRU; failures that are not a
 * property of the call (time limits, shutdown, queue limits) are never cached.
 *
 * Keys: the target (a sealed block's hash, or the identity of a snapshot) and a canonical encoding of the
 * request and its overrides.
 */

import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import type { PreconfirmedSnapshot } from '../../sequencer/snapshot.ts'
import { Lru } from '../../primitives/lru.ts'
import type { ExecutionJob } from './jobs.ts'

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: FlashnodeError }

const CACHEABLE_ERRORS = new Set(['executionReverted', 'executionFailed', 'invalidParams'])

function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return bytesToHex(value)
  if (typeof value === 'bigint') return `n${value.toString(16)}`
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${canonical(k)}:${canonical(v)}`).sort().join(',')}}`
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${k}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

export class ResultCache {
  private readonly entries: Lru<string, Outcome>
  private readonly snapshotIds = new WeakMap<PreconfirmedSnapshot, number>()
  private nextId = 1

  constructor(capacity: number) {
    this.entries = new Lru(capacity)
  }

  snapshotKey(s: PreconfirmedSnapshot): string {
    let id = this.snapshotIds.get(s)
    if (id === undefined) {
      id = this.nextId++
      this.snapshotIds.set(s, id)
    }
    return `p${id}`
  }

  async through<T>(targetKey: string, job: ExecutionJob, run: () => Promise<T>): Promise<T> {
    const key = `${targetKey}|${canonical(job)}`
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      if (hit.ok) return hit.value as T
      throw hit.error
    }
    try {
      const value = await run()
      this.entries.set(key, { ok: true, value })
      return value
    } catch (e) {
      if (e instanceof FlashnodeError && CACHEABLE_ERRORS.has(e.kind)) this.entries.set(key, { ok: false, error: e })
      throw e
    }
  }
}
