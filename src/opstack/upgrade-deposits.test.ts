/**
 * The network-upgrade deposits against other projects' statements of them:
 * - the source hashes the specs state (ethereum-optimism/specs specs/protocol/<fork>/derivation.md, CC0) for
 *   Ecotone, Fjord and Isthmus, and Base's node's tests for Jovian (base/base crates/consensus/upgrades/src/
 *   jovian.rs, MIT: the intents op-node and Base's node use, which the specs page spells differently);
 * - every Ecotone, Fjord and Isthmus deposit byte for byte (hence its transaction hash) as Base's node encodes it
 *   (test/fixtures/op-upgrades/base-node-upgrade-transactions.json names the files);
 * - the addresses the deployments create (the specs' `cast compute-address` answers), which the proxy updates
 *   point at, and viem's CREATE address from each deployer's nonce 0;
 * - which block carries them: the first at or after the fork's time, after a parent before it.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getContractAddress, keccak256, toHex } from 'viem'
import { bytesToHex } from '../primitives/hex.ts'
import { parseOpChainConfig } from './chain-config.ts'
import { encodeDepositTransaction } from './deposit-tx.ts'
import { readVectors } from './test-kit.ts'
import { SOURCE_HASHES } from '../../test/fixtures/op-upgrades/source-hashes.ts'
import { upgradeDepositEnvelopesAt, upgradeDeposits, upgradeDepositsAt, type UpgradeFork } from './upgrade-deposits.ts'

/** Each deployment's address as the specs state it (Jovian: op-node's test of its proxy updates' calldata). */
const DEPLOYED: Record<UpgradeFork, Readonly<Record<number, string>>> = {
  ecotone: { 0: '0x07dbe8500fc591d1852B76feE44d5a05e13097Ff', 1: '0xb528D11cC114E026F138fE568744c6D45ce6Da7A', 5: '0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02' },
  fjord: { 0: '0xa919894851548179A0750865e7974DA599C0Fac7' },
  isthmus: {
    0: '0xFf256497D61dcd71a9e9Ff43967C13fdE1F72D12',
    1: '0x93e57A196454CB919193fa9946f14943cf733845',
    2: '0x4fa2Be8cd41504037F1838BcE3bCC93bC68Ff537',
    7: '0x0000F90827F1C53a10cb7A02335B175320002935',
  },
  jovian: { 0: '0x3Ba4007f5C922FBb33C454B41ea7a1f11E83df2C', 2: '0x4f1db3c6AbD250ba86E0928471A8F7DB3AFd88F1' },
}

/** The proxy updates: (index, the deployment they point at). */
const PROXY_UPDATES: Record<UpgradeFork, readonly (readonly [number, number])[]> = {
  ecotone: [[2, 0], [3, 1]],
  fjord: [[1, 0]],
  isthmus: [[3, 0], [4, 1], [5, 2]],
  jovian: [[1, 0], [3, 2]],
}

const FORKS = Object.keys(SOURCE_HASHES) as UpgradeFork[]

test('every upgrade deposit has the source hash the specs (Jovian: the nodes running it) state', () => {
  for (const fork of FORKS) {
    assert.deepEqual(upgradeDeposits(fork).map((d) => bytesToHex(d.sourceHash)), SOURCE_HASHES[fork], fork)
  }
})

test('Ecotone, Fjord and Isthmus deposits are byte for byte Base\'s node\'s, so their hashes are too', () => {
  const vectors = readVectors<{ transactions: Record<string, string[]> }>('op-upgrades/base-node-upgrade-transactions.json')
  for (const fork of ['ecotone', 'fjord', 'isthmus'] as const) {
    const ours = upgradeDeposits(fork).map((d) => bytesToHex(encodeDepositTransaction(d)))
    const theirs = vectors.transactions[fork]!
    assert.equal(ours.length, theirs.length, fork)
    ours.forEach((encoded, i) => {
      assert.equal(keccak256(encoded as `0x${string}`), keccak256(theirs[i] as `0x${string}`), `${fork} ${i}`)
      assert.equal(encoded, theirs[i])
    })
  }
})

test('deployments create the addresses the specs state; proxy updates point at them', () => {
  for (const fork of FORKS) {
    const deposits = upgradeDeposits(fork)
    for (const [index, address] of Object.entries(DEPLOYED[fork])) {
      const d = deposits[Number(index)]!
      assert.equal(d.to, null, `${fork} ${index} is a creation`)
      assert.equal(getContractAddress({ from: bytesToHex(d.from), nonce: 0n }).toLowerCase(), address.toLowerCase(), `${fork} ${index}`)
    }
    for (const [update, deployment] of PROXY_UPDATES[fork]) {
      const data = bytesToHex(upgradeDeposits(fork)[update]!.data)
      assert.equal(data, `0x3659cfe6${'00'.repeat(12)}${DEPLOYED[fork][deployment]!.slice(2).toLowerCase()}`, `${fork} ${update}`)
      assert.equal(bytesToHex(deposits[update]!.from), toHex(0n, { size: 20 }), 'from the zero address, the proxies\' second admin')
    }
    assert.ok(deposits.every((d) => !d.isSystemTx && d.mint === 0n && d.value === 0n))
  }
})

test('the first block at or after a fork\'s time carries its deposits, in fork order when one block starts several', () => {
  const config = parseOpChainConfig({
    optimism: { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 },
    bedrockBlock: 0, regolithTime: 0, canyonTime: 0, ecotoneTime: 10, fjordTime: 20, graniteTime: 20, holoceneTime: 20, isthmusTime: 20, jovianTime: 30,
  })!
  const count = (parent: bigint, time: bigint) => upgradeDepositsAt(config, parent, time).length
  assert.equal(count(8n, 9n), 0)
  assert.equal(count(9n, 10n), 6, 'Ecotone at its time')
  assert.equal(count(10n, 11n), 0, 'only its first block')
  assert.equal(count(8n, 12n), 6, 'a block past the time whose parent was before it')
  assert.equal(count(19n, 20n), 3 + 8, 'Fjord and Isthmus together')
  assert.deepEqual(upgradeDepositEnvelopesAt(config, 19n, 20n).slice(0, 3), upgradeDeposits('fjord').map(encodeDepositTransaction))
  assert.equal(count(29n, 31n), 5, 'Jovian')
  assert.equal(count(0n, 1n), 0)
  const genesisForks = parseOpChainConfig({ optimism: { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 }, bedrockBlock: 0, regolithTime: 0, canyonTime: 0, ecotoneTime: 0, fjordTime: 0 })!
  assert.equal(upgradeDepositsAt(genesisForks, 0n, 2n).length, 0, 'forks at genesis: no upgrade block')
})
