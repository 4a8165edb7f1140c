import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fastLzCompressedLength } from './fastlz.ts'
import { bytes, readVectors } from './test-kit.ts'

interface FastLzCase {
  name: string
  input?: string
  inputRef?: 'emptyTxRlp'
  repeatByte?: number
  repeatCount?: number
  length: number
}
interface Vectors {
  emptyTxRlp: string
  fastLz: { cases: FastLzCase[] }
}

const vectors = readVectors<Vectors>('op-geth/rollup-cost-vectors.json')

function inputOf(c: FastLzCase): Uint8Array {
  if (c.inputRef !== undefined) return bytes(vectors[c.inputRef])
  if (c.repeatByte !== undefined) return new Uint8Array(c.repeatCount!).fill(c.repeatByte)
  return bytes(c.input!)
}

test("FastLZ compressed length agrees with op-geth's TestFlzCompressLen vectors", () => {
  assert.equal(vectors.fastLz.cases.length, 5)
  for (const c of vectors.fastLz.cases) assert.equal(fastLzCompressedLength(inputOf(c)), c.length, c.name)
})
