/** Test helper for the param parsers: the message of the ParamError a parse throws (fails otherwise). */

import assert from 'node:assert/strict'
import { ParamError } from './param-error.ts'

export const reason = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    assert.ok(e instanceof ParamError, `expected a ParamError, got ${String(e)}`)
    return e.message
  }
  assert.fail('expected a throw')
}
