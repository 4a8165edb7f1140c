/**
 * Positional argument decoding, in geth's order: each given argument is parsed left to right; an argument past
 * the method's last is `too many arguments, want at most N`; then a missing required one is `missing value for
 * required argument N`. A parser's ParamError becomes `invalid argument N: <reason>`; other errors (already
 * FlashnodeErrors worded as geth words them) pass through. An optional argument given as `null` counts as
 * omitted, like geth's pointer arguments.
 */

import { invalidArgument, invalidParams } from '../../errors/errors.ts'
import { ParamError } from './param-error.ts'
import { jsonKind, typeError } from './json.ts'

export interface ArgSpec<T> {
  readonly required: boolean
  /** Receives the raw JSON value; `undefined` only for an omitted optional argument. */
  readonly parse: (raw: unknown) => T
}

export type ArgValues<S extends readonly ArgSpec<unknown>[]> = { -readonly [K in keyof S]: S[K] extends ArgSpec<infer T> ? T : never }

/** The parser sees `null` too: whether null is acceptable depends on the type (as in geth). */
export const required = <T>(parse: (raw: unknown) => T): ArgSpec<T> => ({ required: true, parse })

export const optional = <T>(parse: (raw: unknown) => T): ArgSpec<T | undefined> => ({
  required: false,
  parse: (raw) => (raw === null || raw === undefined ? undefined : parse(raw)),
})

export const withDefault = <T>(parse: (raw: unknown) => T, fallback: T): ArgSpec<T> => ({
  required: false,
  parse: (raw) => (raw === null || raw === undefined ? fallback : parse(raw)),
})

export function parseArgs<const S extends readonly ArgSpec<unknown>[]>(params: readonly unknown[], specs: S): ArgValues<S> {
  const out: unknown[] = []
  for (let i = 0; i < params.length; i++) {
    const spec = specs[i]
    if (spec === undefined) throw invalidParams(`too many arguments, want at most ${specs.length}`)
    try {
      out.push(spec.parse(params[i]))
    } catch (e) {
      if (e instanceof ParamError) throw invalidArgument(i, e.message)
      throw e
    }
  }
  for (let i = params.length; i < specs.length; i++) {
    const spec = specs[i]!
    if (spec.required) throw invalidParams(`missing value for required argument ${i}`)
    out.push(spec.parse(undefined))
  }
  return out as ArgValues<S>
}

/** A JSON boolean (geth's `bool`; `null` leaves it false). */
export function parseBool(raw: unknown): boolean {
  if (raw === null || raw === undefined) return false
  if (typeof raw !== 'boolean') throw typeError(jsonKind(raw), 'bool')
  return raw
}
