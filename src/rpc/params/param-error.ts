/**
 * The one error type of the param parsers, and the helpers that give it a location.
 *
 * A parser throws `ParamError(reason)` with geth's reason wording; a parser of a nested field wraps its child
 * with `inField`, so the message can say where the bad value sits (`from: hex string without 0x prefix`).
 * `parseArgs` turns a ParamError into `invalid argument N: …`. Errors whose wording geth gives without the
 * `invalid argument N:` prefix (the storage key, the log range) are thrown as FlashnodeErrors directly and pass
 * through untouched. Never thrown past rpc/params.
 */

export class ParamError extends Error {
  readonly reason: string
  /** Field names from the argument's root down to the bad value. */
  readonly path: readonly string[]

  constructor(reason: string, path: readonly string[] = []) {
    super(path.length === 0 ? reason : `${path.join('.')}: ${reason}`)
    this.name = 'ParamError'
    this.reason = reason
    this.path = path
  }

  /** The same error, one level further down in `field`. */
  within(field: string): ParamError {
    return new ParamError(this.reason, [field, ...this.path])
  }
}

export function fail(reason: string): never {
  throw new ParamError(reason)
}

/** `parse(raw)`, locating any ParamError it throws inside `field` (inField without a closure, for hot paths). */
export function parseField<T>(field: string, parse: (raw: unknown) => T, raw: unknown): T {
  try {
    return parse(raw)
  } catch (e) {
    if (e instanceof ParamError) throw e.within(field)
    throw e
  }
}

/** Runs `parse` and locates any ParamError it throws inside `field`. */
export function inField<T>(field: string, parse: () => T): T {
  return parseField(field, parse, undefined)
}
