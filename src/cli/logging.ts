/**
 * The node's log as the `flashnode` command writes it: pino, on standard error (standard output keeps the
 * start banner and the listening lines), as JSON lines (`--log-format json`, the default when standard
 * error is not a terminal) or a readable line per entry (`pretty`, the default on a terminal). `--log-level`
 * keeps that level and above. Each JSON line has `level` (a name), `time` (ISO 8601), `msg` and the entry's
 * fields. pino-pretty is loaded only for a readable log (it costs ~40 ms and ~10 MB at every start).
 */

import pino from 'pino'
import type { Logger } from '../primitives/logger.ts'
import { UsageError } from './options.ts'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export async function makeLogger(level: string, format: string): Promise<Logger> {
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`)
  if (format !== 'auto' && format !== 'json' && format !== 'pretty') throw new UsageError(`--log-format must be json, pretty or auto, got "${format}"`)
  const readable = format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true)
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  }
  const destination = readable
    ? (await import('pino-pretty')).default({ destination: 2, sync: true, colorize: process.stderr.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' })
    : pino.destination({ dest: 2, sync: true })
  const log = pino(options, destination)
  return {
    debug: (fields, message) => log.debug(fields, message),
    info: (fields, message) => log.info(fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
  }
}
