import { test } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ecrecover } from './ecrecover.ts'
import { compare, concat, fromHex, seeded, word } from './test-kit.ts'

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
