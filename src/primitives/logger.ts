/**
 * The node's logger port: structured lines (a message and fields) at four levels. Every layer that logs takes
 * a Logger; cli/ makes the real one (pino: JSON lines, or a readable form on a terminal), and a node made
 * without one logs nothing. Fields are plain values (numbers, strings, booleans); never a private key or a
 * request body.
 */

export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>

export interface Logger {
  debug(fields: LogFields, message: string): void
  info(fields: LogFields, message: string): void
  warn(fields: LogFields, message: string): void
  error(fields: LogFields, message: string): void
}

/** Logs nothing. */
export const SILENT_LOGGER: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
}

/** An error as log fields: its name and message (and its cause's message), never its whole object. */
export function errorFields(err: unknown): LogFields {
  if (!(err instanceof Error)) return { error: String(err) }
  const cause = err.cause instanceof Error ? err.cause.message : undefined
  return { error: err.message, errorName: err.name, ...(cause !== undefined ? { cause } : {}), stack: err.stack?.split('\n').slice(1, 4).join(' | ').trim() }
}
