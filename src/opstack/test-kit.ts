/**
 * Test support for the OP Stack rule tests: reads the carried-over vector files under test/fixtures (their
 * README names every source) and converts their hex and decimal strings. Test code only.
 */

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { hexToBytes } from '../primitives/hex.ts'

const FIXTURES = new URL('../../test/fixtures/', import.meta.url)

/** A vector file, parsed (its shape is the caller's to state). */
export function readVectors<T>(relativePath: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(relativePath, FIXTURES)), 'utf8')) as T
}

export const bytes = (hex: string): Uint8Array => hexToBytes(hex.toLowerCase())
export const big = (decimal: string): bigint => BigInt(decimal)
