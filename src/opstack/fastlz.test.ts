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

test('FastLZ: a count does not depend on the inputs counted before it (the hash table is shared between calls)', () => {
  const cases = vectors.fastLz.cases
  const alone = cases.map((c) => fastLzCompressedLength(inputOf(c)))
  // Every input after every other (a long one's entries sit in the table when a short one is counted), twice over.
  for (let round = 0; round < 2; round++) {
    for (const before of cases) {
      for (const [i, c] of cases.entries()) {
        fastLzCompressedLength(inputOf(before))
        assert.equal(fastLzCompressedLength(inputOf(c)), alone[i], `${c.name} after ${before.name}`)
      }
    }
  }
  assert.deepEqual(alone, cases.map((c) => c.length))
})
