/**
 * geth's JSON forms for tracer results: quantities (0x-prefixed, no leading zeros), data (0x-prefixed bytes,
 * "0x" when empty), addresses (20 bytes) and hashes (32 bytes), lowercase; and the revert reason geth's
 * abi.UnpackRevert finds in revert data (Error(string) and Panic(uint256)). Pure functions, no state.
 */

import { bytesToHex } from '../../primitives/hex.ts'

export const quantity = (n: bigint | number): string => '0x' + n.toString(16)
export const data = (bytes: Uint8Array): string => bytesToHex(bytes)
export const address = (a: bigint): string => '0x' + a.toString(16).padStart(40, '0')
export const hash = (h: bigint): string => '0x' + h.toString(16).padStart(64, '0')

/** A copy of bytes an observer is handed (observer.ts: inputs and outputs are borrowed). */
export const copy = (bytes: Uint8Array): Uint8Array => (bytes.length === 0 ? EMPTY : bytes.slice())
const EMPTY = new Uint8Array(0)

const ERROR_SELECTOR = 0x08c379a0
const PANIC_SELECTOR = 0x4e487b71
const PANIC_REASONS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
])

function word(bytes: Uint8Array, at: number): bigint | undefined {
  if (at + 32 > bytes.length) return undefined
  let v = 0n
  for (let i = at; i < at + 32; i++) v = (v << 8n) | BigInt(bytes[i]!)
  return v
}

/** The reason in revert data, or undefined when it holds none geth can read. */
export function revertReason(output: Uint8Array): string | undefined {
  if (output.length < 4) return undefined
  const selector = ((output[0]! << 24) | (output[1]! << 16) | (output[2]! << 8) | output[3]!) >>> 0
  const body = output.subarray(4)
  if (selector === PANIC_SELECTOR) {
    const code = word(body, 0)
    if (code === undefined) return undefined
    return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`
  }
  if (selector !== ERROR_SELECTOR) return undefined
  const offset = word(body, 0)
  if (offset === undefined || offset > BigInt(body.length)) return undefined
  const length = word(body, Number(offset))
  if (length === undefined) return undefined
  const start = Number(offset) + 32
  if (BigInt(start) + length > BigInt(body.length)) return undefined
  return new TextDecoder().decode(body.subarray(start, start + Number(length)))
}
