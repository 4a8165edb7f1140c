import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { FORK_NAMES, OP_EVM_FORK_NAMES, rulesFor, type ForkName, type OpEvmForkName } from '../fork.ts'
import { OP_INPUT_LIMITS } from './op-stack.ts'
import { P256VERIFY_GAS, P256VERIFY_GAS_FJORD } from './p256verify.ts'
import { precompileAddresses, precompileAddressSet, precompileAt } from './registry.ts'
import { concat, fromHex, ourRun } from './test-kit.ts'

/** op-geth's P256VERIFY vectors (Wycheproof inputs): test/fixtures/op-geth/README.md. */
const P256_VECTORS = (
  JSON.parse(readFileSync(new URL('../../../test/fixtures/op-geth/p256verify-vectors.json', import.meta.url), 'utf8')) as {
    vectors: { name: string; input: string; expected: string; gas: number }[]
  }
).vectors

const range = (from: number, to: number): bigint[] => Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i))
const GAS = 100_000_000

test('the OP precompile sets from Fjord are op-geth\'s, whatever the Ethereum fork', () => {
  const cancunSet = [...range(1, 10), 0x100n]
  const withBls = [...range(1, 17), 0x100n]
  const expected: Record<Exclude<OpEvmForkName, 'bedrock'>, bigint[]> = { fjord: cancunSet, granite: cancunSet, isthmus: withBls, jovian: withBls }
  for (const fork of ['cancun', 'prague', 'osaka'] as const) {
    for (const [op, addresses] of Object.entries(expected) as [Exclude<OpEvmForkName, 'bedrock'>, bigint[]][]) {
      const rules = rulesFor(fork, op)
      assert.deepEqual([...precompileAddresses(rules)], addresses, `${fork}/${op}`)
      assert.deepEqual([...precompileAddressSet(rules)].sort((a, b) => (a < b ? -1 : 1)), addresses, `${fork}/${op}: the warm set`)
      for (let address = 0n; address <= 0x102n; address++) {
        assert.equal(precompileAt(address, rules) !== undefined, addresses.includes(address), `${fork}/${op} ${address}`)
      }
    }
  }
})

test('before Fjord an OP chain has the precompiles of its Ethereum fork', () => {
  for (const fork of FORK_NAMES) {
    const op = rulesFor(fork, 'bedrock')
    assert.deepEqual([...precompileAddresses(op)], [...precompileAddresses(rulesFor(fork))], fork)
    assert.equal(precompileAt(0x100n, op) !== undefined, fork === 'osaka', fork)
  }
})

test('the OP flags are cumulative and an Ethereum chain has none', () => {
  for (const fork of FORK_NAMES) assert.equal(rulesFor(fork).op, undefined)
  for (const [i, name] of OP_EVM_FORK_NAMES.entries()) {
    const op = rulesFor('prague', name).op!
    assert.equal(op.name, name)
    assert.deepEqual([op.fjord, op.granite, op.isthmus, op.jovian], [i >= 1, i >= 2, i >= 3, i >= 4])
  }
  assert.equal(rulesFor('prague', 'isthmus'), rulesFor('prague', 'isthmus'), 'one shared object')
  assert.throws(() => rulesFor('prague', 'holocene' as OpEvmForkName), /unknown OP fork/)
})

test("P256VERIFY from Fjord answers op-geth's vectors at 3450 gas, and Osaka's at 6900 with the same outputs", () => {
  let valid = 0
  for (const v of P256_VECTORS) {
    const input = fromHex(v.input)
    for (const [fork, op] of [['cancun', 'fjord'], ['prague', 'isthmus'], ['osaka', 'jovian']] as const) {
      const rules = rulesFor(fork, op)
      assert.deepEqual(ourRun(precompileAt(0x100n, rules)!, input, GAS, rules), { ok: true, gasUsed: v.gas, output: v.expected }, `${v.name} (${fork}/${op})`)
    }
    const osaka = rulesFor('osaka')
    assert.deepEqual(ourRun(precompileAt(0x100n, osaka)!, input, GAS, osaka), { ok: true, gasUsed: P256VERIFY_GAS, output: v.expected }, `${v.name} (osaka)`)
    if (v.expected !== '') valid++
  }
  assert.ok(valid >= 40 && P256_VECTORS.length - valid >= 40, `both outcomes (${valid} valid of ${P256_VECTORS.length})`)
  assert.ok(P256_VECTORS.every((v) => v.gas === P256VERIFY_GAS_FJORD))
  const fjord = rulesFor('prague', 'fjord')
  assert.equal(ourRun(precompileAt(0x100n, fjord)!, new Uint8Array(160), P256VERIFY_GAS_FJORD - 1, fjord).ok, false, 'too little gas fails')
})

/** `count` all-zero elements of `size` bytes: points at infinity and zero scalars, a valid input of every one. */
const zeros = (count: number, size: number): Uint8Array => new Uint8Array(count * size)

/** Each limited precompile: its address, the size of one element, and its limit under each OP fork. */
const LIMITED = [
  { name: 'bn256 pairing', address: 0x08n, size: 192, limit: { granite: OP_INPUT_LIMITS.granite.bn254Pairing, isthmus: OP_INPUT_LIMITS.isthmus.bn254Pairing, jovian: OP_INPUT_LIMITS.jovian.bn254Pairing } },
  { name: 'BLS G1 MSM', address: 0x0cn, size: 160, limit: { isthmus: OP_INPUT_LIMITS.isthmus.blsG1Msm, jovian: OP_INPUT_LIMITS.jovian.blsG1Msm } },
  { name: 'BLS G2 MSM', address: 0x0en, size: 288, limit: { isthmus: OP_INPUT_LIMITS.isthmus.blsG2Msm, jovian: OP_INPUT_LIMITS.jovian.blsG2Msm } },
  { name: 'BLS pairing', address: 0x0fn, size: 384, limit: { isthmus: OP_INPUT_LIMITS.isthmus.blsPairing, jovian: OP_INPUT_LIMITS.jovian.blsPairing } },
] as const

test('the input limits are op-geth\'s numbers (params/protocol_params.go, the OP specs)', () => {
  assert.deepEqual(OP_INPUT_LIMITS, {
    granite: { bn254Pairing: 112687 },
    isthmus: { bn254Pairing: 112687, blsG1Msm: 513760, blsG2Msm: 488448, blsPairing: 235008 },
    jovian: { bn254Pairing: 81984, blsG1Msm: 288960, blsG2Msm: 278784, blsPairing: 156672 },
  })
})

test('an input over the OP fork\'s limit fails with all its gas; the largest whole input under it runs, as on Ethereum', () => {
  const ethereum = rulesFor('prague')
  for (const p of LIMITED) {
    for (const [op, limit] of Object.entries(p.limit) as [OpEvmForkName, number][]) {
      const rules = rulesFor('prague', op)
      const most = Math.floor(limit / p.size)
      const under = zeros(most, p.size)
      const over = zeros(most + 1, p.size)
      const ok = ourRun(precompileAt(p.address, rules)!, under, GAS, rules)
      assert.deepEqual(ok, ourRun(precompileAt(p.address, ethereum)!, under, GAS, ethereum), `${p.name} ${op}: ${most} elements run as on Ethereum`)
      assert.equal(ok.ok, true, `${p.name} ${op}: ${under.length} ≤ ${limit}`)
      assert.deepEqual(ourRun(precompileAt(p.address, rules)!, over, GAS, rules), { ok: false, gasUsed: GAS, output: '' }, `${p.name} ${op}: ${over.length} > ${limit}`)
      assert.equal(ourRun(precompileAt(p.address, ethereum)!, over, GAS, ethereum).ok, true, `${p.name}: ${over.length} bytes run on Ethereum`)
    }
  }
  // Before Granite the pairing has no limit.
  const fjord = rulesFor('cancun', 'fjord')
  assert.equal(ourRun(precompileAt(0x08n, fjord)!, zeros(600, 192), GAS, fjord).ok, true)
})

test('MODEXP in an OP set is priced by EIP-2565 even with Osaka on (op-geth\'s bigModExp{eip2565: true})', () => {
  // 3^5 mod 7, one byte each: EIP-2565's minimum is 200 gas, EIP-7883's 500.
  const input = concat(fromHex('00'.repeat(31) + '01'), fromHex('00'.repeat(31) + '01'), fromHex('00'.repeat(31) + '01'), fromHex('030507'))
  const run = (fork: ForkName, op?: OpEvmForkName): ReturnType<typeof ourRun> => {
    const rules = rulesFor(fork, op)
    return ourRun(precompileAt(0x05n, rules)!, input, GAS, rules)
  }
  assert.deepEqual(run('osaka'), { ok: true, gasUsed: 500, output: '05' })
  assert.deepEqual(run('osaka', 'isthmus'), { ok: true, gasUsed: 200, output: '05' })
  assert.deepEqual(run('osaka', 'bedrock'), run('osaka'), 'before Fjord the Ethereum fork decides')
})
