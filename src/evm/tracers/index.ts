/**
 * geth's built-in tracers by name, as debug_traceTransaction's `tracer` and `tracerConfig` name them:
 * createTracer(name, config) gives a Tracer (tracer.ts) for one transaction; traceTransaction runs it.
 * No name (undefined or '') is geth's struct logger, configured by the trace config's own fields (enableMemory,
 * disableStack, ...). Unknown names and bad configurations throw TracerConfigError.
 */

import { CallTracer, callTracerConfig } from './call.ts'
import { FlatCallTracer, flatCallTracerConfig } from './call-flat.ts'
import { Erc7562Tracer, erc7562TracerConfig } from './erc7562.ts'
import { FourByteTracer } from './four-byte.ts'
import { MuxTracer, NoopTracer } from './mux.ts'
import { PrestateTracer, prestateTracerConfig } from './prestate.ts'
import { StructLogger, structLoggerConfig } from './struct-logger.ts'
import { configObject, TracerConfigError, type Tracer } from './tracer.ts'

export { traceTransaction, TracerConfigError, TraceTooLarge, type TraceTxContext, type Tracer } from './tracer.ts'

export const TRACER_NAMES = ['callTracer', 'flatCallTracer', 'prestateTracer', '4byteTracer', 'noopTracer', 'muxTracer', 'erc7562Tracer'] as const

export function createTracer(name: string | undefined, config?: unknown): Tracer {
  switch (name) {
    case undefined:
    case '':
      return new StructLogger(structLoggerConfig(config))
    case 'callTracer':
      return new CallTracer(callTracerConfig(config))
    case 'flatCallTracer':
      return new FlatCallTracer(flatCallTracerConfig(config))
    case 'prestateTracer':
      return new PrestateTracer(prestateTracerConfig(config))
    case '4byteTracer':
      return new FourByteTracer()
    case 'erc7562Tracer':
      return new Erc7562Tracer(erc7562TracerConfig(config))
    case 'noopTracer':
      return new NoopTracer()
    case 'muxTracer': {
      const tracers = new Map<string, Tracer>()
      for (const [inner, innerConfig] of Object.entries(configObject(config))) {
        if (inner === 'muxTracer') throw new TracerConfigError('muxTracer cannot nest itself')
        if (inner === '') throw new TracerConfigError('tracer  not found') // the struct logger has no name to nest by
        tracers.set(inner, createTracer(inner, innerConfig))
      }
      return new MuxTracer(tracers)
    }
    default:
      throw new TracerConfigError(`tracer ${name} not found`)
  }
}
