/**
 * The predeploys' bytecode files hold what they say: on a running node, executing each file's creation code
 * with its constructor arguments (eth_call without `to`) returns exactly its `runtimeCode`, which hashes to its
 * `runtimeCodeHash` and to the hash a third party states where the file names one; the dev genesis installs that
 * code at each predeploy address; and each contract answers its own `version()` with the file's version.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256, parseAbi, type Hex } from 'viem'
import { opDevClient } from '../../test/support/op-dev-chain.ts'
import { PREDEPLOY_ARTIFACTS, BASE_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS } from './predeploys.ts'

const FEE_VAULTS = ['SequencerFeeVault', 'BaseFeeVault', 'L1FeeVault', 'OperatorFeeVault']
const abi = parseAbi([
  'function version() view returns (string)',
  'function RECIPIENT() view returns (address)',
  'function MIN_WITHDRAWAL_AMOUNT() view returns (uint256)',
  'function WITHDRAWAL_NETWORK() view returns (uint8)',
])
/** The arguments `predeploys/README.md` says the dev chain's 1.4.1 vaults were built with. */
const DEV_RECIPIENT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

test('every predeploy file: creation code runs to its runtime code, the stated hashes hold, genesis installs it', async (t) => {
  const client = await opDevClient(t, 'jovian')
  for (const artifact of PREDEPLOY_ARTIFACTS) {
    const deployed = await client.call({ data: `${artifact.creationCode}${artifact.constructorArgs.slice(2)}` as Hex })
    assert.equal(deployed.data, artifact.runtimeCode, `${artifact.contract}: creation code runs to the file's runtime`)
    assert.equal(keccak256(artifact.runtimeCode as Hex), artifact.runtimeCodeHash, artifact.contract)
    if (artifact.expectedRuntimeCodeHash) assert.equal(artifact.runtimeCodeHash, artifact.expectedRuntimeCodeHash.hash, artifact.contract)
    assert.equal(await client.getCode({ address: artifact.address as Hex }), artifact.runtimeCode, `${artifact.contract} in genesis`)
    const version = await client.readContract({ address: artifact.address as Hex, abi, functionName: 'version' })
    assert.equal(version, artifact.version, artifact.contract)
    assert.equal(artifact.licence, 'MIT')
  }
})

test('the fee vaults carry the constructor arguments the README states', async (t) => {
  const client = await opDevClient(t, 'jovian')
  for (const artifact of PREDEPLOY_ARTIFACTS.filter((a) => FEE_VAULTS.includes(a.contract))) {
    const address = artifact.address as Hex
    const recipient = await client.readContract({ address, abi, functionName: 'RECIPIENT' })
    const expected = artifact.address === OPERATOR_FEE_VAULT_ADDRESS ? BASE_FEE_VAULT_ADDRESS : DEV_RECIPIENT
    assert.equal(recipient.toLowerCase(), expected.toLowerCase(), artifact.contract)
    assert.equal(await client.readContract({ address, abi, functionName: 'MIN_WITHDRAWAL_AMOUNT' }), 0n, artifact.contract)
    assert.equal(await client.readContract({ address, abi, functionName: 'WITHDRAWAL_NETWORK' }), 1, `${artifact.contract}: L2`)
  }
})
