import assert from 'node:assert/strict'
import { test } from 'node:test'
import { devAccounts } from './dev-genesis.ts'

// The published accounts of the "test test … junk" mnemonic (Hardhat, Anvil, every wallet's dev setup).
const KNOWN = [
  ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'],
  ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'],
  ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'],
] as const

test('the dev accounts are the test mnemonic accounts every wallet knows', () => {
  const accounts = devAccounts(KNOWN.length)
  assert.deepEqual(
    accounts.map((a) => [a.address.toLowerCase(), a.privateKey]),
    KNOWN.map(([address, key]) => [address, key]),
  )
})
