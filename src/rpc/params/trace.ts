/**
 * geth's TraceConfig and TraceCallConfig, parsed: `tracer` (a name; absent: the struct logger),
 * `tracerConfig` (the tracer's own object, checked by the tracer), the struct logger's top-level options
 * (`enableMemory`, `disableStack`, `disableStorage`, `enableReturnData`, `debug`, `limit`), `timeout` (a Go
 * duration, "5s" by default) and `reexec` (accepted, meaningless here: every block's state is kept); for
 * debug_traceCall also `stateOverrides` and `blockOverrides`, eth_call's. Other fields are ignored, as
 * geth's JSON decoding ignores them. Errors are geth's words.
 */

import type { BlockOverrides, StateOverrides, TraceSpec } from '../../node/api.ts'
import { DEFAULT_TRACE_TIMEOUT_MS } from '../../node/trace-service.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'
import { isPlainObject, jsonKind, typeError } from './json.ts'
import { fail } from './param-error.ts'

export interface TraceConfig {
  readonly spec: TraceSpec
  readonly timeoutMs: number
}

export interface TraceCallConfig extends TraceConfig {
  readonly state?: StateOverrides
  readonly block?: BlockOverrides
}

const LOGGER_FLAGS = ['enableMemory', 'disableStack', 'disableStorage', 'enableReturnData', 'debug'] as const

export function parseTraceConfig(raw: unknown): TraceConfig {
  if (raw === undefined || raw === null) return { spec: {}, timeoutMs: DEFAULT_TRACE_TIMEOUT_MS }
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'tracers.TraceConfig')
  const logger: Record<string, unknown> = {}
  for (const flag of LOGGER_FLAGS) {
    const v = raw[flag]
    if (v === undefined || v === null) continue
    if (typeof v !== 'boolean') throw typeError(jsonKind(v), 'bool')
    logger[flag] = v
  }
  if (raw['limit'] !== undefined && raw['limit'] !== null) {
    const limit = raw['limit']
    if (typeof limit !== 'number' || !Number.isInteger(limit)) throw typeError(jsonKind(limit), 'int')
    logger['limit'] = limit
  }
  const tracer = raw['tracer']
  if (tracer !== undefined && tracer !== null && typeof tracer !== 'string') throw typeError(jsonKind(tracer), 'string')
  const timeout = raw['timeout']
  if (timeout !== undefined && timeout !== null && typeof timeout !== 'string') throw typeError(jsonKind(timeout), 'string')
  const spec: TraceSpec = {
    ...(typeof tracer === 'string' && tracer !== '' ? { tracer } : {}),
    ...(raw['tracerConfig'] !== undefined && raw['tracerConfig'] !== null ? { tracerConfig: raw['tracerConfig'] } : {}),
    ...(Object.keys(logger).length > 0 ? { logger } : {}),
  }
  return { spec, timeoutMs: typeof timeout === 'string' ? parseDuration(timeout) : DEFAULT_TRACE_TIMEOUT_MS }
}

export function parseTraceCallConfig(raw: unknown): TraceCallConfig {
  const config = parseTraceConfig(raw)
  if (!isPlainObject(raw)) return config
  const state = raw['stateOverrides'] === undefined || raw['stateOverrides'] === null ? undefined : parseStateOverrides(raw['stateOverrides'])
  const block = raw['blockOverrides'] === undefined || raw['blockOverrides'] === null ? undefined : parseBlockOverrides(raw['blockOverrides'])
  return { ...config, ...(state !== undefined ? { state } : {}), ...(block !== undefined ? { block } : {}) }
}

const UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** A Go duration ("5s", "1.5s", "300ms", "1m30s") in milliseconds; a zero or negative one is refused. */
export function parseDuration(text: string): number {
  const invalid = (): never => fail(`time: invalid duration ${JSON.stringify(text)}`)
  if (text === '' || text === '0') return invalid()
  let ms = 0
  let rest = text
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/.exec(rest)
    if (m === null) return invalid()
    ms += Number(m[1]) * UNITS[m[2]!]!
    rest = rest.slice(m[0].length)
  }
  if (!(ms > 0)) return invalid()
  return ms
}
