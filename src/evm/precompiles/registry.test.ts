import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getActivePrecompiles } from '@ethereumjs/evm'
import { FORK_NAMES, rulesFor } from '../fork.ts'
import { precompileAddresses, precompileAt } from './registry.ts'
import { libraryCommon } from './test-kit.ts'

test('the active precompiles of every fork are the library\'s, and precompileAt agrees with the list', () => {
  for (const fork of FORK_NAMES) {
    const rules = rulesFor(fork)
    const expected = [...getActivePrecompiles(libraryCommon(fork)).keys()].map((key) => BigInt('0x' + key)).sort((a, b) => (a < b ? -1 : 1))
    const ours = precompileAddresses(rules)
    assert.deepEqual([...ours], expected, fork)
    assert.equal(precompileAddresses(rules), ours, 'one cached array per fork')
    assert.ok(Object.isFrozen(ours))
    for (let address = 0n; address <= 0x102n; address++) {
      assert.equal(precompileAt(address, rules) !== undefined, ours.includes(address), `${fork} ${address}`)
    }
    assert.equal(precompileAt(1n << 159n, rules), undefined)
  }
})

test('forks add precompiles where the EIPs say', () => {
  const count = (fork: Parameters<typeof rulesFor>[0]): number => precompileAddresses(rulesFor(fork)).length
  assert.equal(count('frontier'), 4)
  assert.equal(count('spuriousDragon'), 4)
  assert.equal(count('byzantium'), 8)
  assert.equal(count('istanbul'), 9)
  assert.equal(count('shanghai'), 9)
  assert.equal(count('cancun'), 10)
  assert.equal(count('prague'), 17)
  assert.equal(count('osaka'), 18)
  assert.equal(precompileAt(0x100n, rulesFor('osaka')) !== undefined, true)
})
