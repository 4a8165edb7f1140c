/**
 * Test support for the OP Stack rule tests: reads the carried-over vector files under test/fixtures (their
 * README names every source) and converts their hex and decimal strings. Test code only.
 */

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { hexToBytes, parseQuantity } from '../primitives/hex.ts'
import type { DepositTransaction } from './deposit-tx.ts'

const FIXTURES = new URL('../../test/fixtures/', import.meta.url)

/** A vector file, parsed (its shape is the caller's to state). */
export function readVectors<T>(relativePath: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(relativePath, FIXTURES)), 'utf8')) as T
}

export const bytes = (hex: string): Uint8Array => hexToBytes(hex.toLowerCase())
export const big = (decimal: string): bigint => BigInt(decimal)

/** A deposit's fields as an RPC answer (op-geth's JSON view) serves them; `isSystemTx` absent means false. */
export function depositOfRpcJson(json: Readonly<Record<string, string | boolean | undefined>>): DepositTransaction {
  const hex = (key: string): string => {
    const v = json[key]
    if (typeof v !== 'string') throw new TypeError(`the RPC deposit has no ${key}`)
    return v
  }
  return {
    sourceHash: bytes(hex('sourceHash')),
    from: bytes(hex('from')),
    to: json['to'] === null || json['to'] === undefined ? null : bytes(hex('to')),
    mint: parseQuantity(hex('mint')),
    value: parseQuantity(hex('value')),
    gas: parseQuantity(hex('gas')),
    isSystemTx: json['isSystemTx'] === true,
    data: bytes(hex('input')),
  }
}
