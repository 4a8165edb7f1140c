/**
 * eth_config's pieces: the EIP-2124 fork hash against the EIP's own mainnet vectors, and the configs of a
 * chain whose Prague is active with Osaka scheduled (current / next / last by the head's time; what Osaka
 * adds: P256VERIFY, its blob schedule).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChainRules, type GethGenesis } from './chain-config.ts'
import { ethConfig, forkHash } from './fork-config.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const MAINNET_GENESIS = Buffer.from('d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3', 'hex')

test('fork hash: EIP-2124\'s mainnet vectors', () => {
  assert.equal(hex(forkHash(MAINNET_GENESIS, [], [], 0n, 0n)), 'fc64ec04', 'unsynced')
  assert.equal(hex(forkHash(MAINNET_GENESIS, [1_150_000n], [], 0n, 0n)), '97c2c34c', 'Homestead')
  assert.equal(hex(forkHash(MAINNET_GENESIS, [1_150_000n, 1_920_000n], [], 0n, 0n)), '91d1f948', 'DAO')
})

test('timed forks count from after genesis and up to the time asked', () => {
  const a = forkHash(MAINNET_GENESIS, [], [0n, 100n, 200n], 0n, 150n)
  assert.deepEqual(a, forkHash(MAINNET_GENESIS, [], [100n], 0n, 150n))
  assert.notDeepEqual(a, forkHash(MAINNET_GENESIS, [], [100n, 200n], 0n, 200n))
})

function osakaAt(time: number): ChainRules {
  const genesis = testGenesis() as GethGenesis & { config: Record<string, unknown> }
  const config = { ...genesis.config, osakaTime: time }
  const schedule = { ...(config.blobSchedule as object), osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 } }
  return new ChainRules({ ...genesis, config: { ...config, blobSchedule: schedule } } as GethGenesis)
}

test('current, next and last by the head\'s time; Osaka adds P256VERIFY', () => {
  const rules = osakaAt(1_000)
  const point = { genesisHash: new Uint8Array(32).fill(7), genesisTime: 0n, headNumber: 5n, headTime: 999n }
  const before = ethConfig(rules, point)
  assert.equal(before.current!.activationTime, 0n, 'Prague active at genesis')
  assert.equal(before.next!.activationTime, 1_000n)
  assert.equal(before.last!.activationTime, 1_000n)
  assert.equal(before.current!.chainId, rules.chainId)
  assert.equal(Object.keys(before.current!.precompiles).length, 17, '0x01..0x11 in Prague')
  assert.equal(before.current!.precompiles.P256VERIFY, undefined)
  assert.equal(before.next!.precompiles.P256VERIFY, '0x0000000000000000000000000000000000000100')
  assert.deepEqual(before.current!.blobSchedule, { target: 6, max: 9, baseFeeUpdateFraction: 5007716 })
  assert.equal(Object.keys(before.current!.systemContracts).length, 5)
  assert.notDeepEqual(before.current!.forkId, before.next!.forkId, 'Osaka after genesis changes the fork id')
  assert.deepEqual(before.current!.forkId, forkHash(point.genesisHash, [], [], 0n, 0n), 'forks at genesis add nothing')

  const after = ethConfig(rules, { ...point, headTime: 1_000n })
  assert.equal(after.current!.activationTime, 1_000n)
  assert.equal(after.next, null)
  assert.equal(after.last, null, 'no last without a next')
})
