/**
 * State overrides (geth's override.StateOverride) and block overrides (override.BlockOverrides).
 *
 * State overrides: an object keyed by address; per account `balance` (256-bit), `nonce` (64-bit), `code`,
 * `state` (replaces all storage) or `stateDiff` (patches slots), never both, and `movePrecompileToAddress`.
 * Storage keys and values are exactly 32 bytes, as in geth. Map keys come out as lower-case `0x` hex (the
 * account address, 20 bytes; the slot, 32 bytes); a later spelling of the same address replaces an earlier one.
 * Block overrides: number, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas, blobBaseFee; `difficulty`
 * is accepted and dropped (BlockOverrides has no such field; it is a no-op after the merge); `beaconRoot` and
 * `withdrawals` are refused with geth's message.
 */

import type { AccountOverride, BlockOverrides, StateOverrides } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { checksumAddress } from './checksum.ts'
import { parseAddress, parseBytes, parseFixedBytes, parseHash, parseQuantity, parseUint64 } from './hex.ts'
import { fail, inField } from './param-error.ts'
import { isPlainObject, jsonKind, readFields, typeError } from './json.ts'

/** Field lists of the objects read here (module constants: readFields indexes each once). */
const ACCOUNT_OVERRIDE_FIELDS = ['balance', 'nonce', 'code', 'state', 'stateDiff', 'movePrecompileToAddress'] as const

function parseStorage(raw: unknown): Map<string, Uint8Array> {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'map[common.Hash]common.Hash')
  const out = new Map<string, Uint8Array>()
  for (const [key, value] of Object.entries(raw)) {
    const slot = inField(key, () => parseFixedBytes(key, 32, 'Hash'))
    out.set(bytesToHex(slot), inField(key, () => parseHash(value)))
  }
  return out
}

function parseAccountOverride(address: Uint8Array, raw: unknown): AccountOverride {
  if (raw === null || raw === undefined) return {}
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'override.OverrideAccount')
  const f = readFields(raw, ACCOUNT_OVERRIDE_FIELDS)
  const out: { -readonly [K in keyof AccountOverride]: AccountOverride[K] } = {}
  if (f.nonce !== undefined) out.nonce = inField('nonce', () => parseUint64(f.nonce))
  if (f.code !== undefined) out.code = inField('code', () => parseBytes(f.code))
  if (f.balance !== undefined) out.balance = inField('balance', () => parseQuantity(f.balance))
  if (f.state !== undefined) out.state = inField('state', () => parseStorage(f.state))
  if (f.stateDiff !== undefined) out.stateDiff = inField('stateDiff', () => parseStorage(f.stateDiff))
  if (f.movePrecompileToAddress !== undefined) {
    out.movePrecompileToAddress = inField('movePrecompileToAddress', () => parseAddress(f.movePrecompileToAddress))
  }
  if (out.state !== undefined && out.stateDiff !== undefined) {
    fail(`account ${checksumAddress(address)} has both 'state' and 'stateDiff'`)
  }
  return out
}

export function parseStateOverrides(raw: unknown): StateOverrides {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'override.StateOverride')
  const out = new Map<string, AccountOverride>()
  for (const [key, value] of Object.entries(raw)) {
    const address = inField(key, () => parseFixedBytes(key, 20, 'Address'))
    out.set(bytesToHex(address), inField(key, () => parseAccountOverride(address, value)))
  }
  return out
}

const BLOCK_FIELDS = [
  'number', 'difficulty', 'time', 'gasLimit', 'feeRecipient', 'prevRandao', 'baseFeePerGas', 'blobBaseFee',
  'beaconRoot', 'withdrawals',
] as const

export function parseBlockOverrides(raw: unknown): BlockOverrides {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'override.BlockOverrides')
  const f = readFields(raw, BLOCK_FIELDS)
  const out: { -readonly [K in keyof BlockOverrides]: BlockOverrides[K] } = {}
  if (f.number !== undefined) out.number = inField('number', () => parseQuantity(f.number))
  if (f.difficulty !== undefined) inField('difficulty', () => parseQuantity(f.difficulty))
  if (f.time !== undefined) out.time = inField('time', () => parseUint64(f.time))
  if (f.gasLimit !== undefined) out.gasLimit = inField('gasLimit', () => parseUint64(f.gasLimit))
  if (f.feeRecipient !== undefined) out.feeRecipient = inField('feeRecipient', () => parseAddress(f.feeRecipient))
  if (f.prevRandao !== undefined) out.prevRandao = inField('prevRandao', () => parseHash(f.prevRandao))
  if (f.baseFeePerGas !== undefined) out.baseFeePerGas = inField('baseFeePerGas', () => parseQuantity(f.baseFeePerGas))
  if (f.blobBaseFee !== undefined) out.blobBaseFee = inField('blobBaseFee', () => parseQuantity(f.blobBaseFee))
  if (f.beaconRoot !== undefined) fail('block override "beaconRoot" is not supported for this RPC method')
  if (f.withdrawals !== undefined) fail('block override "withdrawals" is not supported for this RPC method')
  return out
}
