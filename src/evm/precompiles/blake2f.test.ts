import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rulesFor } from '../fork.ts'
import { blake2f } from './blake2f.ts'
import { compare, concat, fromHex, ourRun, seeded } from './test-kit.ts'

// EIP-152's test vectors (vector 8, 2^32 - 1 rounds, is left out: minutes of work for one check).
const H = '48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b'
const M = '6162630000000000000000000000000000000000000000000000000000000000' + '00'.repeat(96)
const T = '03000000000000000000000000000000'
const VECTORS: readonly { readonly input: string; readonly output: string | undefined }[] = [
  { input: '', output: undefined },
  { input: '00000c' + H + M + T + '01', output: undefined },
  { input: '000000000c' + H + M + T + '01', output: undefined },
  { input: '0000000c' + H + M + T + '02', output: undefined },
  { input: '00000000' + H + M + T + '01', output: '08c9bcf367e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d282e6ad7f520e511f6c3e2b8c68059b9442be0454267ce079217e1319cde05b' },
  { input: '0000000c' + H + M + T + '01', output: 'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923' },
  { input: '0000000c' + H + M + T + '00', output: '75ab69d3190a562c51aef8d88f1c2775876944407270c42c9844252c26d2875298743e7f6d5ea2f2d3e8d226039cd31b4e426ac4f2d3d666a610c2116fde4735' },
  { input: '00000001' + H + M + T + '01', output: 'b63a380cb2897d521994a85234ee2c181b5f844d2c624c002677e9703449d2fba551b3a8333bcdf5f2f7e08993d53923de3d64fcc68c034e717b9293fed7a421' },
]

test("EIP-152's test vectors 0-7", () => {
  const rules = rulesFor('istanbul')
  for (const [i, { input, output }] of VECTORS.entries()) {
    const result = ourRun(blake2f, fromHex(input), 1000, rules)
    if (output === undefined) assert.equal(result.ok, false, `vector ${i}`)
    else assert.deepEqual(result, { ok: true, gasUsed: parseInt(input.slice(0, 8), 16), output }, `vector ${i}`)
  }
})

test('BLAKE2F matches the library on random states, round counts, flags, lengths and gas', async () => {
  const random = seeded('blake2f')
  for (let i = 0; i < 300; i++) {
    const rounds = random.pick([0, 1, 2, 9, 10, 11, 12, 20, random.int(3000)])
    const flag = random.chance(0.9) ? random.int(2) : random.pick([2, 3, 0x80, 0xff])
    const roundBytes = new Uint8Array([rounds >>> 24, (rounds >>> 16) & 0xff, (rounds >>> 8) & 0xff, rounds & 0xff])
    let input = concat(roundBytes, random.bytes(208), new Uint8Array([flag]))
    if (random.chance(0.1)) input = random.chance(0.5) ? input.subarray(0, random.int(213)) : concat(input, random.bytes(1 + random.int(4)))
    const gas = random.pick([rounds, rounds + random.int(100), rounds - 1, 0])
    if (gas >= 0) await compare(9n, blake2f, input, gas, random.pick(['istanbul', 'cancun', 'osaka'] as const), 'blake2f')
  }
  // Round counts with the top bit set (the 32-bit count read unsigned), with too little gas.
  await compare(9n, blake2f, fromHex('ffffffff' + H + M + T + '01'), 10 ** 6, 'cancun', 'blake2f 2^32 - 1 rounds')
  await compare(9n, blake2f, fromHex('80000000' + H + M + T + '01'), 10 ** 6, 'cancun', 'blake2f 2^31 rounds')
})
