import { test } from 'node:test'
import assert from 'node:assert/strict'
import { p256 } from '@noble/curves/nist.js'
import { rulesFor } from '../fork.ts'
import { p256verify } from './p256verify.ts'
import { compare, concat, flipBit, ourRun, seeded, word } from './test-kit.ts'

const N = p256.Point.Fn.ORDER
const P = p256.Point.Fp.ORDER

test('P256VERIFY matches the library on valid, high-s, tampered and out-of-range signatures and keys', async () => {
  const random = seeded('p256verify')
  let valid = 0
  let invalid = 0
  for (let i = 0; i < 40; i++) {
    const secretKey = p256.utils.randomSecretKey(random.bytes(48))
    const publicKey = p256.getPublicKey(secretKey, false)
    const qx = publicKey.subarray(1, 33)
    const qy = publicKey.subarray(33, 65)
    const hash = random.chance(0.1) ? new Uint8Array(32).fill(0xff) : random.bytes(32)
    const signature = p256.sign(hash, secretKey, { prehash: false, lowS: false })
    const r = signature.subarray(0, 32)
    const s = signature.subarray(32, 64)
    const highS = word(N - BigInt('0x' + Buffer.from(s).toString('hex')))
    const cases = [
      concat(hash, r, s, qx, qy),
      concat(hash, r, highS, qx, qy),
      flipBit(random, concat(hash, r, s, qx, qy)),
      concat(hash, word(random.pick([0n, N, N + 1n, 2n ** 256n - 1n])), s, qx, qy),
      concat(hash, r, word(random.pick([0n, N, N + 1n])), qx, qy),
      concat(hash, r, s, word(BigInt('0x' + Buffer.from(qx).toString('hex')) + P < 2n ** 256n ? BigInt('0x' + Buffer.from(qx).toString('hex')) + P : P), qy),
      concat(hash, r, s, new Uint8Array(64)),
      concat(hash, r, s, qx, qy).subarray(0, random.pick([0, 1, 159])),
      concat(hash, r, s, qx, qy, random.bytes(1)),
    ]
    for (const input of cases) {
      const gas = random.pick([6900, 6900, 7000, 6899])
      const result = await compare(0x100n, p256verify, input, gas, random.pick(['osaka'] as const), 'p256verify')
      if (result.output !== '') valid++
      else if (result.ok) invalid++
    }
  }
  assert.ok(valid >= 40 && invalid >= 40, `both outcomes seen (${valid} valid, ${invalid} invalid)`)
})

test('P256VERIFY charges 6900 for any input and fails only for want of gas', () => {
  const rules = rulesFor('osaka')
  assert.deepEqual(ourRun(p256verify, new Uint8Array(0), 6900, rules), { ok: true, gasUsed: 6900, output: '' })
  assert.deepEqual(ourRun(p256verify, new Uint8Array(160), 10000, rules), { ok: true, gasUsed: 6900, output: '' })
  assert.equal(ourRun(p256verify, new Uint8Array(160), 6899, rules).ok, false)
})
