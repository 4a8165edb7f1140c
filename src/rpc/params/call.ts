/**
 * The transaction call object (geth's TransactionArgs) → `CallRequest`, for eth_call, eth_estimateGas and
 * eth_createAccessList.
 *
 * Field types and wording follow geth: addresses and hashes fixed-size, `gas` and `nonce` 64-bit, fees and
 * value 256-bit, `data` and `input` both accepted (`input` wins; both set and different is an error), access
 * and authorization lists with their required fields. Unknown fields are ignored and `null` means absent, as in
 * geth. `type` is not a geth field; it is read when it is a well-formed small quantity and ignored otherwise.
 * Checks that need chain state (chain id, fee defaults) belong to node/.
 */

import type { AccessListEntry, AuthorizationView } from '../../chain/types.ts'
import { equalBytes } from '../../primitives/hex.ts'
import type { CallRequest } from '../../node/api.ts'
import { parseAddress, parseBytes, parseHash, parseQuantity, parseUint64 } from './hex.ts'
import { fail, parseField } from './param-error.ts'
import { isPlainObject, jsonKind, readFields, typeError } from './json.ts'

/** Field lists of the objects read here (module constants: readFields indexes each once). */
const ACCESS_TUPLE_FIELDS = ['address', 'storageKeys'] as const
const AUTHORIZATION_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'] as const

const CALL_FIELDS = [
  'from', 'to', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'nonce', 'data', 'input',
  'accessList', 'chainId', 'maxFeePerBlobGas', 'blobVersionedHashes', 'authorizationList', 'type',
] as const

function listOf<T>(raw: unknown, goType: string, item: (raw: unknown) => T): T[] {
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), goType)
  return raw.map((v, i) => parseField(String(i), item, v))
}

function requiredField<T>(f: Partial<Record<string, unknown>>, name: string, owner: string, parse: (raw: unknown) => T): T {
  const raw = f[name]
  if (raw === undefined) fail(`missing required field '${name}' for ${owner}`)
  return parseField(name, parse, raw)
}

function parseAccessTuple(raw: unknown): AccessListEntry {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'types.AccessTuple')
  const f = readFields(raw, ACCESS_TUPLE_FIELDS)
  const address = requiredField(f, 'address', 'AccessTuple', parseAddress)
  const storageKeys = requiredField(f, 'storageKeys', 'AccessTuple', (v) => listOf(v, '[]common.Hash', parseHash))
  return { address, storageKeys }
}

export const parseAccessList = (raw: unknown): AccessListEntry[] => listOf(raw, 'types.AccessList', parseAccessTuple)

function parseAuthorization(raw: unknown): AuthorizationView {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'types.SetCodeAuthorization')
  const f = readFields(raw, AUTHORIZATION_FIELDS)
  const owner = 'SetCodeAuthorization'
  return {
    chainId: requiredField(f, 'chainId', owner, parseQuantity),
    address: requiredField(f, 'address', owner, parseAddress),
    nonce: requiredField(f, 'nonce', owner, parseUint64),
    yParity: requiredField(f, 'yParity', owner, parseUint64),
    r: requiredField(f, 'r', owner, parseQuantity),
    s: requiredField(f, 's', owner, parseQuantity),
  }
}

/** `type` is no geth field: taken when it reads as 0x0..0xff, ignored otherwise. */
function lenientType(raw: unknown): number | undefined {
  return typeof raw === 'string' && /^0x[0-9a-fA-F]{1,2}$/.test(raw) ? parseInt(raw.slice(2), 16) : undefined
}

/** The parser of each field but data, input and type, in the order their errors are found. */
const FIELD_PARSERS = {
  from: parseAddress,
  to: parseAddress,
  gas: parseUint64,
  gasPrice: parseQuantity,
  maxFeePerGas: parseQuantity,
  maxPriorityFeePerGas: parseQuantity,
  value: parseQuantity,
  nonce: parseUint64,
  accessList: parseAccessList,
  chainId: parseQuantity,
  maxFeePerBlobGas: parseQuantity,
  blobVersionedHashes: (v: unknown) => listOf(v, '[]common.Hash', parseHash),
  authorizationList: (v: unknown) => listOf(v, '[]types.SetCodeAuthorization', parseAuthorization),
} satisfies { [K in Exclude<keyof CallRequest, 'data' | 'type'>]-?: (raw: unknown) => NonNullable<CallRequest[K]> }
const FIELD_PARSER_LIST = Object.entries(FIELD_PARSERS) as [keyof typeof FIELD_PARSERS, (raw: unknown) => unknown][]

export function parseCallRequest(raw: unknown): CallRequest {
  // geth decodes a JSON null into an all-default TransactionArgs.
  if (raw === null || raw === undefined) return {}
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'ethapi.TransactionArgs')
  const f = readFields(raw, CALL_FIELDS)
  const data = f.data === undefined ? undefined : parseField('data', parseBytes, f.data)
  const input = f.input === undefined ? undefined : parseField('input', parseBytes, f.input)
  // Only the fields present are set (no closures, no deletes: one small object per call).
  const req: Record<string, unknown> = {}
  for (const [name, parse] of FIELD_PARSER_LIST) {
    const value = f[name]
    if (value !== undefined) req[name] = parseField(name, parse, value)
  }
  const chosen = input ?? data
  if (chosen !== undefined) req.data = chosen
  const type = lenientType(f.type)
  if (type !== undefined) req.type = type
  if (data !== undefined && input !== undefined && !equalBytes(data, input)) {
    fail('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
  }
  if (req.gasPrice !== undefined && (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined)) {
    fail('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  return req as CallRequest
}
