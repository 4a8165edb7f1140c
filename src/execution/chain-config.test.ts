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

test('a proof-of-work block reward is 5 ether, 3 from Byzantium (EIP-649), 2 from Constantinople (EIP-1234)', () => {
  const genesis = testGenesis()
  const config = genesis.config as unknown as Record<string, unknown>
  const { chainId } = config
  for (const key of Object.keys(config)) delete config[key]
  Object.assign(config, { chainId, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 10, constantinopleBlock: 20, petersburgBlock: 20 })
  const rules = new ChainRules(genesis)
  assert.equal(rules.at(5n, 0n).param('minerReward'), 5n * 10n ** 18n)
  assert.equal(rules.at(15n, 0n).param('minerReward'), 3n * 10n ** 18n)
  assert.equal(rules.at(25n, 0n).param('minerReward'), 2n * 10n ** 18n)
})

test('the remembered fork answers are the library\'s own on every fork, for a copy that switches forks too', () => {
  const rules = new ChainRules(testGenesis())
  const remembered = rules.at(0n, 0n).copy()
  const plain = rules.mutableCopy()
  const names = plain.hardforks().map((hf) => hf.name)
  const outcome = <T>(f: () => T): T | string => {
    try {
      return f()
    } catch (e) {
      return `throws ${(e as Error).message}`
    }
  }
  // Twice over the forks: the second pass reads the memo the first one filled.
  for (const pass of [1, 2]) {
    for (const fork of names) {
      remembered.setHardfork(fork)
      plain.setHardfork(fork)
      for (const other of names) assert.equal(remembered.gteHardfork(other), plain.gteHardfork(other), `pass ${pass}: ${fork} >= ${other}`)
      for (const eip of [1559, 2935, 3855, 4788, 4844, 4895, 7002, 7623, 7702, 7918]) {
        assert.equal(remembered.isActivatedEIP(eip), plain.isActivatedEIP(eip), `pass ${pass}: EIP-${eip} on ${fork}`)
      }
      assert.deepEqual(outcome(() => remembered.getBlobGasSchedule()), outcome(() => plain.getBlobGasSchedule()), `pass ${pass}: blob schedule of ${fork}`)
    }
  }
  assert.ok(names.includes('prague') && names.includes('cancun'), `forks checked: ${names.join(', ')}`)
})
