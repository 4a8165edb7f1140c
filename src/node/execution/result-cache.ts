/**
 * Results of eth_call per (target, request): a sealed block and a published snapshot never change, so the
 * same call against them always answers the same — result or revert. Bounded LRU: `capacity` entries
 * (--call-cache) and MAX_BYTES in all (key text, return or revert data, and ~200 bytes of objects each), so
 * calls that return megabytes cannot fill the heap; failures that are not a property of the call (time
 * limits, shutdown, queue limits) are never cached.
 *
 * Keys: the target (a sealed block's hash, or the identity of a snapshot) and a canonical encoding of the
 * request and its overrides; past LONG_KEY characters (a call with kilobytes of calldata, a multicall), its
 * SHA-256 instead. V8 hashes a string of more than 16,383 characters by its length alone, so equally long
 * keys all meet in one bucket of the Map and every lookup compared the new key with each of them: 2.6 ms a
 * miss among 700 keys of 19 KB (a multicall of 50 balanceOf) on this machine, against ~19 µs for the digest.
 * Byte strings past LONG_BYTES (the multicall's 13 KB of calldata) enter the text as the SHA-256 of the
 * bytes themselves (`#` and base64: no hex text starts so), not as 26 KB of hex digested again: spelling
 * them out and hashing the text was ~13% of the main thread's time per multicall call.
 */

import { createHash } from 'node:crypto'
import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import type { PreconfirmedSnapshot } from '../../preconf/snapshot.ts'
import { SizedLru } from '../../primitives/lru.ts'
import type { ExecutionJob, ExecutionTarget, Executor, JobResult } from './jobs.ts'
import { registerGauge } from '../../primitives/memory-gauges.ts'

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: FlashnodeError }

const CACHEABLE_ERRORS = new Set(['executionReverted', 'executionFailed', 'invalidParams'])
const MAX_BYTES = 16 * 1024 * 1024
/** Canonical texts longer than this are keyed by their SHA-256 (see the top comment); V8's limit is 16,383. */
const LONG_KEY = 2048
/** Byte strings longer than this enter the canonical text as their SHA-256. */
const LONG_BYTES = 512

/** The cache key of a job's canonical text on a target. */
export function cacheKey(targetKey: string, text: string): string {
  return text.length > LONG_KEY ? `${targetKey}|#${createHash('sha256').update(text, 'utf8').digest('base64')}` : `${targetKey}|${text}`
}

/** Heap bytes an entry keeps: its key (one byte a character), its data, and its objects. */
function weight(outcome: Outcome, key: string): number {
  const data = outcome.ok ? outcome.value : outcome.error.data
  const dataBytes = data instanceof Uint8Array ? data.length : typeof data === 'string' ? data.length : 64
  return 200 + key.length + dataBytes + (outcome.ok ? 0 : outcome.error.message.length)
}

/** A stable text of a job: object keys sorted, absent (undefined) fields left out. Loops, not closures: it runs per call. */
function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return value.length > LONG_BYTES ? `#${createHash('sha256').update(value).digest('base64')}` : bytesToHex(value)
  if (typeof value === 'bigint') return `n${value.toString(16)}`
  if (value instanceof Map) {
    const entries: string[] = []
    for (const [k, v] of value) entries.push(`${canonical(k)}:${canonical(v)}`)
    return `{${entries.sort().join(',')}}`
  }
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += i === 0 ? canonical(value[i]) : `,${canonical(value[i])}`
    return `${out}]`
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    let out = '{'
    let first = true
    for (const k of Object.keys(record).sort()) {
      const v = record[k]
      if (v === undefined) continue
      out += first ? `${k}:${canonical(v)}` : `,${k}:${canonical(v)}`
      first = false
    }
    return `${out}}`
  }
  return JSON.stringify(value)
}

export class ResultCache {
  private readonly entries: SizedLru<string, Outcome>
  private readonly snapshotIds = new WeakMap<PreconfirmedSnapshot, number>()
  private nextId = 1

  constructor(capacity: number) {
    this.entries = new SizedLru({ maxEntries: capacity, maxBytes: MAX_BYTES }, weight)
    registerGauge('eth_call results', this.entries, (c) => c.gauge())
  }

  snapshotKey(s: PreconfirmedSnapshot): string {
    let id = this.snapshotIds.get(s)
    if (id === undefined) {
      id = this.nextId++
      this.snapshotIds.set(s, id)
    }
    return `p${id}`
  }

  /** `executor.run(job, target)`, or its remembered outcome for the same target key and job. */
  async through(targetKey: string, job: ExecutionJob, executor: Pick<Executor, 'run'>, target: ExecutionTarget): Promise<JobResult> {
    const key = cacheKey(targetKey, canonical(job))
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      if (hit.ok) return hit.value as JobResult
      throw hit.error
    }
    try {
      const value = await executor.run(job, target)
      this.entries.set(key, { ok: true, value })
      return value
    } catch (e) {
      if (e instanceof FlashnodeError && CACHEABLE_ERRORS.has(e.kind)) this.entries.set(key, { ok: false, error: e })
      throw e
    }
  }
}
