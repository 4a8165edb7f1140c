/**
 * What every precompile module shares: the result shapes (success with its gas, or failure consuming all the
 * gas given), and the byte <-> bigint conversions the curve precompiles read and write their words with.
 *
 * Invariants: a failure always reports gasUsed = the gas given; bytes read past the end of an input are zero
 * (the precompiles' "virtual padding"); no function here allocates more than the bytes it is asked for.
 */

import { ExecutionTimeout } from '../types.ts'

/** Throws ExecutionTimeout when `deadline` (epoch ms) has passed: for precompiles whose time outruns their gas. */
export function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && Date.now() > deadline) throw new ExecutionTimeout()
}

/** Pairs multiplied per look at the clock in pairingIsOne (a few tens of ms of Miller loops). */
const PAIRS_PER_CLOCK_CHECK = 4

/** What pairingIsOne needs of a pairing-friendly curve (noble's bn254 and bls12_381 both have it). */
export interface PairingCurve<P, F> {
  pairingBatch(pairs: P[], withFinalExponent?: boolean): F
  readonly fields: { readonly Fp12: { mul(a: F, b: F): F; finalExponentiate(x: F): F; eql(a: F, b: F): boolean; readonly ONE: F } }
}

/**
 * Whether the product of the pairings of `pairs` is one: Miller loops a few pairs at a time, the clock looked
 * at between them (one pairing costs milliseconds here, 50M gas of them half a minute), then one final
 * exponentiation of the product, which equals the batch's.
 */
export function pairingIsOne<P, F>(curve: PairingCurve<P, F>, pairs: P[], deadline: number | undefined): boolean {
  const Fp12 = curve.fields.Fp12
  let product = Fp12.ONE
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CLOCK_CHECK) {
    checkDeadline(deadline)
    product = Fp12.mul(product, curve.pairingBatch(pairs.slice(i, i + PAIRS_PER_CLOCK_CHECK), false))
  }
  return Fp12.eql(Fp12.finalExponentiate(product), Fp12.ONE)
}

export interface PrecompileResult {
  readonly ok: boolean
  readonly gasUsed: number
  readonly output: Uint8Array
}

export const EMPTY = new Uint8Array(0)

/** The precompile failed: every unit of `gas` is consumed and nothing is returned. */
export function failure(gas: number): PrecompileResult {
  return { ok: false, gasUsed: gas, output: EMPTY }
}

export function success(gasUsed: number, output: Uint8Array): PrecompileResult {
  return { ok: true, gasUsed, output }
}

/** The number of 32-byte words `length` bytes take (rounded up). */
export function wordCount(length: number): number {
  return Math.ceil(length / 32)
}

const HEX_OF_BYTE: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian number in data[start, end), with bytes past data's end read as zero. */
export function readUint(data: Uint8Array, start: number, end: number): bigint {
  let hex = ''
  const stop = Math.min(end, data.length)
  for (let i = start; i < stop; i++) hex += HEX_OF_BYTE[data[i]!]
  if (hex === '') return 0n
  let value = BigInt('0x' + hex)
  if (stop < end && stop > start) value <<= BigInt(8 * (end - stop))
  return value
}

/** Whether data[start, end) is all zero. */
export function isZeroRange(data: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (data[i] !== 0) return false
  return true
}

/** Writes `value` big-endian into out[start, start + length) (value must fit). */
export function writeUint(out: Uint8Array, start: number, length: number, value: bigint): void {
  let v = value
  for (let i = start + length - 1; i >= start && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
}

/** `value` as `length` big-endian bytes. */
export function uintBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length)
  writeUint(out, 0, length, value)
  return out
}

/** `data` right-padded with zeros (or truncated) to exactly `length` bytes (a view when already long enough). */
export function rightPadded(data: Uint8Array, length: number): Uint8Array {
  if (data.length >= length) return data.subarray(0, length)
  const out = new Uint8Array(length)
  out.set(data)
  return out
}
