import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rulesFor } from '../fork.ts'
import { identity, ripemd160, sha256 } from './hashes.ts'
import { compare, fromHex, hex, ourRun, seeded } from './test-kit.ts'

const FAMILY = [
  { address: 2n, precompile: sha256, name: 'SHA256', base: 60, perWord: 12 },
  { address: 3n, precompile: ripemd160, name: 'RIPEMD160', base: 600, perWord: 120 },
  { address: 4n, precompile: identity, name: 'IDENTITY', base: 15, perWord: 3 },
] as const

test('SHA256, RIPEMD160 and IDENTITY match the library on lengths around word boundaries and gas around the price', async () => {
  const random = seeded('hashes')
  const lengths = [0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 1000]
  for (let i = 0; i < 20; i++) lengths.push(random.int(600))
  for (const { address, precompile, name, base, perWord } of FAMILY) {
    for (const length of lengths) {
      const input = random.bytes(length)
      const price = base + perWord * Math.ceil(length / 32)
      for (const gas of [price - 1, price, price + 1 + random.int(1000), 0]) {
        if (gas < 0) continue
        await compare(address, precompile, input, gas, random.pick(['frontier', 'byzantium', 'cancun', 'osaka'] as const), name)
      }
    }
  }
})

test('known digests ("abc")', () => {
  const abc = new TextEncoder().encode('abc')
  const rules = rulesFor('cancun')
  assert.equal(ourRun(sha256, abc, 100, rules).output, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  assert.equal(ourRun(ripemd160, abc, 1000, rules).output, '000000000000000000000000' + '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc')
  assert.equal(ourRun(identity, abc, 18, rules).output, hex(abc))
  assert.equal(ourRun(identity, fromHex(''), 15, rules).gasUsed, 15)
})
