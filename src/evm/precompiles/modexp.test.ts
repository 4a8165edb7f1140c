import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rulesFor } from '../fork.ts'
import { modexp } from './modexp.ts'
import { compare, concat, fromHex, ourRun, seeded, word, type Random } from './test-kit.ts'

const FORKS = ['byzantium', 'istanbul', 'berlin', 'cancun', 'prague', 'osaka'] as const
const SMALL_LENGTHS = [0, 1, 2, 7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 100]
const HUGE_LENGTHS = [1023n, 1024n, 1025n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 2n ** 64n, 2n ** 255n, 2n ** 256n - 1n]

function length(random: Random): bigint {
  if (random.chance(0.08)) return random.pick(HUGE_LENGTHS)
  return BigInt(random.chance(0.7) ? random.pick(SMALL_LENGTHS) : random.int(140))
}

/** A number field of `size` bytes: random, or with leading zeros, or all zero. */
function field(random: Random, size: number): Uint8Array {
  const bytes = random.bytes(size)
  const zeros = random.pick([0, 0, 1, size >> 1, size])
  bytes.fill(0, 0, Math.min(zeros, size))
  return bytes
}

function randomInput(random: Random): Uint8Array {
  const b = length(random)
  const e = random.chance(0.6) ? BigInt(random.pick([0, 1, 2, 3, 16, 31, 32, 33, 34, 40])) : length(random)
  const m = length(random)
  const present = (n: bigint): number => (n > 200n ? random.int(80) : Number(n))
  let body = concat(field(random, present(b)), field(random, present(e)), field(random, present(m)))
  // Cut the body short (virtual zero padding) or append junk.
  if (random.chance(0.25)) body = body.subarray(0, random.int(body.length + 1))
  else if (random.chance(0.15)) body = concat(body, random.bytes(random.int(40)))
  const header = concat(word(b), word(e), word(m))
  return random.chance(0.05) ? header.subarray(0, random.int(96)) : concat(header, body)
}

test('MODEXP matches the library on random lengths (small, at 32/1024, absurd), exponents and gas, per fork', async () => {
  const random = seeded('modexp')
  for (let i = 0; i < 400; i++) {
    const input = randomInput(random)
    const fork = random.pick(FORKS)
    const rules = rulesFor(fork)
    // Our price with ample gas (more than any block holds; absurd lengths stay unaffordable, as on a chain,
    // where computing them would exhaust memory on both sides), then the library at that gas, one below, and
    // a random amount.
    const ample = 10 ** 8
    const first = ourRun(modexp, input, ample, rules)
    const price = first.ok ? first.gasUsed : ample
    const gases = [random.int(100000), ample]
    if (price < ample) gases.push(price, price - 1)
    for (const gas of gases) if (gas >= 0) await compare(5n, modexp, input, gas, fork, 'modexp')
  }
})

test('the legacy and EIP-7823 length bounds, and the empty base-and-modulus shortcut', async () => {
  const big = concat(word(1n), word(2n ** 31n), word(1n), fromHex('0305'))
  for (const fork of FORKS) await compare(5n, modexp, big, 2 ** 45, fork, 'exponent of 2^31 bytes')
  const noBaseNoModulus = concat(word(0n), word(2n ** 40n), word(0n), fromHex('ff'))
  for (const fork of FORKS) for (const gas of [0, 199, 200, 500, 10 ** 9]) await compare(5n, modexp, noBaseNoModulus, gas, fork, 'no base, no modulus')
  for (const [b, e, m] of [[1024n, 1n, 1024n], [1025n, 1n, 1n], [1n, 1025n, 1n], [1n, 1n, 1025n], [1024n, 1024n, 1024n]] as const) {
    const input = concat(word(b), word(e), word(m), new Uint8Array(Number(b > 2000n ? 0n : b)).fill(7), new Uint8Array(Number(e > 2000n ? 0n : e)).fill(3), new Uint8Array(Number(m > 2000n ? 0n : m)).fill(0xfd))
    for (const fork of ['berlin', 'osaka'] as const) await compare(5n, modexp, input, 2 ** 40, fork, `lengths ${b} ${e} ${m}`)
  }
})

test("EIP-198's example: 3^(p-1) mod p = 1 for p = 2^256 - 2^32 - 977, at each fork's price", () => {
  const input = fromHex(
    '0000000000000000000000000000000000000000000000000000000000000001' +
      '0000000000000000000000000000000000000000000000000000000000000020' +
      '0000000000000000000000000000000000000000000000000000000000000020' +
      '03' +
      'fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2e' +
      'fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f',
  )
  const one = '00'.repeat(31) + '01'
  // Prices from the EIPs' formulas: adjusted exponent length 255 (the exponent's top bit is bit 255).
  // Byzantium: 32² * 255 / 20; Berlin: max(200, ceil(32/8)² * 255 / 3); Osaka: max(500, 16 * 255).
  for (const [fork, gas] of [['byzantium', 13056], ['berlin', 1360], ['osaka', 4080]] as const) {
    const result = ourRun(modexp, input, 100000, rulesFor(fork))
    assert.deepEqual(result, { ok: true, gasUsed: gas, output: one }, fork)
  }
})
