/** Test helper for the simulation modules: the JSON-RPC code of the FlashnodeError a step throws. */

import { FlashnodeError } from '../errors/errors.ts'

export function code(fn: () => unknown): number | undefined {
  try {
    fn()
  } catch (e) {
    if (e instanceof FlashnodeError) return e.code
    throw e
  }
  return undefined
}
