/**
 * ChainRules.at for any timestamp a uint64 holds: past the last scheduled fork every timestamp has that
 * fork's rules, including those above 2^53 that the library's own lookup refused (eth_call's block
 * override of time).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChainRules } from './chain-config.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'

test('a timestamp above 2^53 has the rules of the last fork, as any later timestamp does', () => {
  const rules = new ChainRules(testGenesis())
  const last = rules.at(1n, 1_000_000n).hardfork()
  for (const t of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 60n + 12345n, 2n ** 64n - 1n]) {
    assert.equal(rules.at(1n, t).hardfork(), last, `timestamp ${t}`)
  }
})
