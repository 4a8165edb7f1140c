/**
 * eth_simulateV1's first argument (geth's simOpts) -> SimulatePayload.
 *
 * `blockStateCalls` is an array of { blockOverrides, stateOverrides, calls }; `traceTransfers`,
 * `validation` and `returnFullTransactions` are booleans (absent or null = false). A `null` where an
 * object or array is expected reads as empty, as Go decodes it. Calls are eth_call's transaction objects
 * (params/call.ts), with eth_call's rule for `data` and `input` (both set and different is refused: geth's
 * simulator silently runs `input`, which hid the caller's mistake), and one difference geth's simulator
 * has: `gasPrice` given together with EIP-1559 fees is refused only when the call is reached (so earlier
 * blocks' errors come first). Block overrides add `difficulty`, `beaconRoot` and `withdrawals` to
 * eth_call's, and take the block's time as geth's `time` or as `timestamp` (the service contract's word,
 * and the block result's field); both given with different values is refused. An unknown blockOverrides
 * field is refused in the words of Go's strict decoder (`json: unknown field "…"`) instead of being
 * ignored, since an ignored override silently simulates another block than the caller asked for.
 * The rest of the checks (counts, order, limits) belong to the simulator.
 */

import type { WithdrawalView } from '../../chain/types.ts'
import type { SimBlockInput, SimBlockOverrides, SimCall, SimulatePayload } from '../../simulate/types.ts'
import { parseBool } from './args.ts'
import { parseCallRequest } from './call.ts'
import { parseAddress, parseHash, parseQuantity, parseUint64 } from './hex.ts'
import { isPlainObject, jsonKind, readFields, typeError } from './json.ts'
import { parseStateOverrides } from './overrides.ts'
import { fail, inField } from './param-error.ts'

/** Field lists of the objects read here (module constants: readFields indexes each once). */
const CALL_FEE_FIELDS = ['data', 'input', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const
const WITHDRAWAL_FIELDS = ['index', 'validatorIndex', 'address', 'amount'] as const
const BLOCK_STATE_CALL_FIELDS = ['blockOverrides', 'stateOverrides', 'calls'] as const
const PAYLOAD_FIELDS = ['blockStateCalls', 'traceTransfers', 'validation', 'returnFullTransactions'] as const

function listOf<T>(raw: unknown, goType: string, item: (raw: unknown) => T): T[] {
  if (raw === null || raw === undefined) return []
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), goType)
  return raw.map((v, i) => inField(String(i), () => item(v)))
}

/** A copy of `obj` without the named fields (matched as Go matches them, ignoring case). */
function without(obj: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const drop = new Set(names.map((n) => n.toLowerCase()))
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !drop.has(k.toLowerCase())))
}

export function parseSimCall(raw: unknown): SimCall {
  if (!isPlainObject(raw)) return parseCallRequest(raw)
  const f = readFields(raw, CALL_FEE_FIELDS)
  const obj = raw
  const conflicting = f.gasPrice !== undefined && (f.maxFeePerGas !== undefined || f.maxPriorityFeePerGas !== undefined)
  if (!conflicting) return parseCallRequest(obj)
  const req = parseCallRequest(without(obj, ['gasPrice']))
  return { ...req, gasPrice: inField('gasPrice', () => parseQuantity(f.gasPrice)), conflictingFees: true }
}

function parseWithdrawal(raw: unknown): WithdrawalView {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'types.Withdrawal')
  const f = readFields(raw, WITHDRAWAL_FIELDS)
  const req = <T>(name: keyof typeof f, parse: (v: unknown) => T): T => {
    if (f[name] === undefined) fail(`missing required field '${name}' for Withdrawal`)
    return inField(name, () => parse(f[name]))
  }
  return {
    index: req('index', parseUint64),
    validatorIndex: req('validatorIndex', parseUint64),
    address: req('address', parseAddress),
    amount: req('amount', parseUint64),
  }
}

const BLOCK_FIELDS = [
  'number', 'difficulty', 'time', 'timestamp', 'gasLimit', 'feeRecipient', 'prevRandao', 'baseFeePerGas', 'blobBaseFee',
  'beaconRoot', 'withdrawals',
] as const
const BLOCK_FIELD_NAMES: ReadonlySet<string> = new Set(BLOCK_FIELDS.map((name) => name.toLowerCase()))

export function parseSimBlockOverrides(raw: unknown): SimBlockOverrides {
  if (raw === null || raw === undefined) return {}
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'override.BlockOverrides')
  for (const key of Object.keys(raw)) if (!BLOCK_FIELD_NAMES.has(key.toLowerCase())) fail(`json: unknown field ${JSON.stringify(key)}`)
  const f = readFields(raw, BLOCK_FIELDS)
  const out: { -readonly [K in keyof SimBlockOverrides]: SimBlockOverrides[K] } = {}
  const opt = <T>(name: (typeof BLOCK_FIELDS)[number], parse: (v: unknown) => T): T | undefined =>
    f[name] === undefined ? undefined : inField(name, () => parse(f[name]))
  out.number = opt('number', parseQuantity)
  out.difficulty = opt('difficulty', parseQuantity)
  out.time = opt('time', parseUint64)
  const timestamp = opt('timestamp', parseUint64)
  if (out.time !== undefined && timestamp !== undefined && out.time !== timestamp) {
    fail('both "time" and "timestamp" are set and not equal. Please use one of them to pass the block time')
  }
  out.time ??= timestamp
  out.gasLimit = opt('gasLimit', parseUint64)
  out.feeRecipient = opt('feeRecipient', parseAddress)
  out.prevRandao = opt('prevRandao', parseHash)
  out.baseFeePerGas = opt('baseFeePerGas', parseQuantity)
  out.blobBaseFee = opt('blobBaseFee', parseQuantity)
  out.beaconRoot = opt('beaconRoot', parseHash)
  out.withdrawals = opt('withdrawals', (v) => listOf(v, 'types.Withdrawals', parseWithdrawal))
  for (const key of Object.keys(out) as (keyof SimBlockOverrides)[]) if (out[key] === undefined) delete out[key]
  return out
}

function parseSimBlock(raw: unknown): SimBlockInput {
  if (raw === null || raw === undefined) return { calls: [] }
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'ethapi.simBlock')
  const f = readFields(raw, BLOCK_STATE_CALL_FIELDS)
  const blockOverrides = inField('blockOverrides', () => parseSimBlockOverrides(f.blockOverrides))
  const stateOverrides = f.stateOverrides === undefined ? undefined : inField('stateOverrides', () => parseStateOverrides(f.stateOverrides))
  const calls = inField('calls', () => listOf(f.calls, '[]ethapi.TransactionArgs', parseSimCall))
  return { blockOverrides, ...(stateOverrides !== undefined ? { stateOverrides } : {}), calls }
}

export function parseSimulatePayload(raw: unknown): SimulatePayload {
  if (raw === null || raw === undefined) return { blockStateCalls: [], traceTransfers: false, validation: false, returnFullTransactions: false }
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'ethapi.simOpts')
  const f = readFields(raw, PAYLOAD_FIELDS)
  return {
    blockStateCalls: inField('blockStateCalls', () => listOf(f.blockStateCalls, '[]ethapi.simBlock', parseSimBlock)),
    traceTransfers: inField('traceTransfers', () => parseBool(f.traceTransfers)),
    validation: inField('validation', () => parseBool(f.validation)),
    returnFullTransactions: inField('returnFullTransactions', () => parseBool(f.returnFullTransactions)),
  }
}
