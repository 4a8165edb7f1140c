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
import { upgradeDepositEnvelopesAt, upgradeDeposits, upgradeDepositsAt, type UpgradeFork } from './upgrade-deposits.ts'

const SOURCE_HASHES: Record<UpgradeFork, readonly string[]> = {
  ecotone: [
    '0x877a6077205782ea15a6dc8699fa5ebcec5e0f4389f09cb8eda09488231346f8',
    '0xa312b4510adf943510f05fcc8f15f86995a5066bd83ce11384688ae20e6ecf42',
    '0x18acb38c5ff1c238a7460ebc1b421fa49ec4874bdf1e0a530d234104e5e67dbc',
    '0xee4f9385eceef498af0be7ec5862229f426dec41c8d42397c7257a5117d9230a',
    '0x0c1cb38e99dbc9cbfab3bb80863380b0905290b37eb3d6ab18dc01c1f3e75f93',
    '0x69b763c48478b9dc2f65ada09b3d92133ec592ea715ec65ad6e7f3dc519dc00c',
  ],
  fjord: [
    '0x86122c533fdcb89b16d8713174625e44578a89751d96c098ec19ab40a51a8ea3',
    '0x1e6bb0c28bfab3dc9b36ffb0f721f00d6937f33577606325692db0965a7d58c6',
    '0xbac7bb0d5961cad209a345408b0280a0d4686b1b20665e1b0f9cdafd73b19b6b',
  ],
  isthmus: [
    '0x3b2d0821ca2411ad5cd3595804d1213d15737188ae4cbd58aa19c821a6c211bf',
    '0xfc70b48424763fa3fab9844253b4f8d508f91eb1f7cb11a247c9baec0afb8035',
    '0x107a570d3db75e6110817eb024f09f3172657e920634111ce9875d08a16daa96',
    '0xebe8b5cb10ca47e0d8bda8f5355f2d66711a54ddeb0ef1d30e29418c9bf17a0e',
    '0xecf2d9161d26c54eda6b7bfdd9142719b1e1199a6e5641468d1bf705bc531ab0',
    '0xad74e1adb877ccbe176b8fa1cc559388a16e090ddbe8b512f5b37d07d887a927',
    '0x3ddf4b1302548dd92939826e970f260ba36167f4c25f18390a5e8b194b295319',
    '0xbfb734dae514c5974ddf803e54c1bc43d5cdb4a48ae27e1d9b875a5a150b553a',
  ],
  jovian: [
    '0xbb1a656f65401240fac3db12e7a79ebb954b11e62f7626eb11691539b798d3bf',
    '0xf3275f829340521028f9ad5bce4ecb1c64a45d448794effa2a77674627338e76',
    '0x239b7021a6c2cf3a918481242bbb5a9499057f24501539467536c691bb133962',
    '0xa70c60aa53b8c1c0d52b39b1e901e7d7c09f7819595cb24048a6bb1983b401ff',
    '0xe836db6a959371756f8941be3e962d000f7e12a32e49e2c9ca42ba177a92716c',
  ],
}

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
