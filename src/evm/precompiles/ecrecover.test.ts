import { test } from 'node:test'
import assert from 'node:assert/strict'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../../primitives/keccak.ts'
import { rulesFor } from '../fork.ts'
import { ecrecover } from './ecrecover.ts'
import { compare, concat, fromHex, ourRun, seeded, word } from './test-kit.ts'

const N = secp256k1.Point.Fn.ORDER

test('ECRECOVER matches the library on signatures, bad v, r and s at the bounds, short inputs and gas', async () => {
  const random = seeded('ecrecover')
  const forks = ['frontier', 'homestead', 'byzantium', 'cancun', 'osaka'] as const
  for (let i = 0; i < 25; i++) {
    const secretKey = secp256k1.utils.randomSecretKey(random.bytes(48))
    const hash = random.bytes(32)
    const signature = secp256k1.sign(hash, secretKey, { prehash: false, format: 'recovered' })
    const recovery = signature[0]!
    const r = signature.subarray(1, 33)
    const s = signature.subarray(33, 65)
    const valid = concat(hash, word(27n + BigInt(recovery)), r, s)
    const fork = random.pick(forks)
    await compare(1n, ecrecover, valid, 3000 + random.int(100), fork, 'valid signature')
    await compare(1n, ecrecover, concat(hash, word(28n - BigInt(recovery)), r, s), 3000, fork, 'other parity')
    await compare(1n, ecrecover, valid, 2999, fork, 'too little gas')
    const badV = valid.slice()
    badV[32 + random.int(31)] = 1 + random.int(255)
    await compare(1n, ecrecover, badV, 3000, fork, 'v with high bytes')
    for (const v of [0n, 1n, 26n, 29n, 27n + 256n]) await compare(1n, ecrecover, concat(hash, word(v), r, s), 3000, fork, `v = ${v}`)
    const bound = random.pick([0n, N, N - 1n, N + 1n, (1n << 256n) - 1n, 1n])
    await compare(1n, ecrecover, concat(hash, word(27n), word(bound), s), 3000, fork, 'r at a bound')
    await compare(1n, ecrecover, concat(hash, word(28n), r, word(bound)), 3000, fork, 's at a bound')
    await compare(1n, ecrecover, valid.subarray(0, random.int(128)), 3000, fork, 'short input')
    await compare(1n, ecrecover, concat(valid, random.bytes(random.int(40))), 3000, fork, 'long input')
    await compare(1n, ecrecover, concat(random.bytes(32), word(27n), random.bytes(64)), 3000, fork, 'random r and s')
  }
  await compare(1n, ecrecover, fromHex(''), 3000, 'cancun', 'empty input')
})

test('ECRECOVER: v must be exactly 27 or 28 as a whole word; any high byte set gives empty output, every run', () => {
  const rules = rulesFor('cancun')
  const secretKey = new Uint8Array(32).fill(7)
  const hash = keccak256(new TextEncoder().encode('flashnode'))
  const signature = secp256k1.sign(hash, secretKey, { prehash: false, format: 'recovered' })
  const v = 27n + BigInt(signature[0]!)
  const rs = signature.subarray(1, 65)
  const signer = keccak256(secp256k1.getPublicKey(secretKey, false).subarray(1)).subarray(12)
  const ok = ourRun(ecrecover, concat(hash, word(v), rs), 3000, rules)
  assert.equal(ok.output, '00'.repeat(12) + Buffer.from(signer).toString('hex'), 'the valid signature recovers its signer')
  for (let byte = 0; byte < 31; byte++) {
    for (const high of [1, 0x80, 0xff]) {
      const vWord = word(v)
      vWord[byte] = high
      assert.deepEqual(ourRun(ecrecover, concat(hash, vWord, rs), 3000, rules), { ok: true, gasUsed: 3000, output: '' }, `v with byte ${byte} = ${high}`)
    }
  }
  for (const other of [v + 256n, v + (1n << 255n), v | (0xffn << 248n)]) {
    assert.equal(ourRun(ecrecover, concat(hash, word(other), rs), 3000, rules).output, '', `v = 0x${other.toString(16)}`)
  }
})
