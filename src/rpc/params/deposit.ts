/**
 * flashnode_sendDeposit's argument: a user deposit as an OP Stack test asks for one, `{from, to, mint, value,
 * gas, data (or input), isCreation}`. `from` and `gas` are required; mint and value default to 0, data to
 * empty; `isCreation: true` makes a contract creation and then `to` must be absent (a call needs `to`).
 * The source hash is not a field: the node makes it (sequencer/op-opening.ts).
 */

import type { DepositRequest } from '../../sequencer/block-opening.ts'
import { parseAddress, parseBytes, parseQuantity, parseUint64 } from './hex.ts'
import { isPlainObject, jsonKind, readFields, typeError } from './json.ts'
import { fail, parseField } from './param-error.ts'
import { parseBool } from './args.ts'

const FIELDS = ['from', 'to', 'mint', 'value', 'gas', 'data', 'input', 'isCreation'] as const

export function parseDepositRequest(raw: unknown): DepositRequest {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'DepositArgs')
  const f = readFields(raw, FIELDS)
  if (f.from === undefined) fail('missing from')
  if (f.gas === undefined) fail('missing gas')
  const isCreation = f.isCreation === undefined ? false : parseField('isCreation', parseBool, f.isCreation)
  if (isCreation && f.to !== undefined) fail('a creation (isCreation) has no to')
  if (!isCreation && f.to === undefined) fail('missing to (or isCreation: true)')
  const data = f.data === undefined ? undefined : parseField('data', parseBytes, f.data)
  const input = f.input === undefined ? undefined : parseField('input', parseBytes, f.input)
  if (data !== undefined && input !== undefined && Buffer.compare(data, input) !== 0) fail('both "data" and "input" are set and not equal')
  return {
    from: parseField('from', parseAddress, f.from),
    to: isCreation ? null : parseField('to', parseAddress, f.to),
    mint: f.mint === undefined ? 0n : parseField('mint', parseQuantity, f.mint),
    value: f.value === undefined ? 0n : parseField('value', parseQuantity, f.value),
    gas: parseField('gas', parseUint64, f.gas),
    data: input ?? data ?? new Uint8Array(0),
  }
}
