import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../primitives/hex.ts'
import {
  decodeDepositTransaction,
  depositTransactionHash,
  encodeDepositTransaction,
  l1InfoDepositSourceHash,
  upgradeDepositSourceHash,
  userDepositSourceHash,
  type DepositTransaction,
} from './deposit-tx.ts'
import { big, bytes, depositOfRpcJson, readVectors } from './test-kit.ts'

interface Fields {
  sourceHash: string
  from: string
  to: string | null
  mint: string
  value: string
  gas: string
  isSystemTx: boolean
  data: string
}
interface Vectors {
  envelopes: { cases: { name: string; hash: string; encoded: string; mint: string }[] }
  opMainnetL1Attributes: { hash: string; encoded: string }
  rpcTransaction: { json: Record<string, string> }
  viemEnvelopes: { cases: { name: string; fields: Fields; encoded: string }[]; malformed: { name: string; encoded: string }[] }
  sourceHashes: {
    userDeposit: { l1BlockHash: string; l1LogIndex: number; sourceHash: string }[]
    l1InfoDeposit: { l1BlockHash: string; sequenceNumber: number; sourceHash: string }[]
    upgradeDeposit: { cases: { intent: string; sourceHash: string }[] }
  }
}

const vectors = readVectors<Vectors>('opstack-deposits/deposit-vectors.json')

const fromFields = (f: Fields): DepositTransaction => ({
  sourceHash: bytes(f.sourceHash),
  from: bytes(f.from),
  to: f.to === null ? null : bytes(f.to),
  mint: big(f.mint),
  value: big(f.value),
  gas: big(f.gas),
  isSystemTx: f.isSystemTx,
  data: bytes(f.data),
})

test('real deposits from Base and OP Mainnet: decode, re-encode to the same bytes, and hash to their chain hash', () => {
  const cases = [...vectors.envelopes.cases, { name: 'OP Mainnet block 124665056', ...vectors.opMainnetL1Attributes, mint: '0' }]
  for (const c of cases) {
    const envelope = bytes(c.encoded)
    const tx = decodeDepositTransaction(envelope)
    assert.equal(tx.mint, big(c.mint), c.name)
    assert.deepEqual(encodeDepositTransaction(tx), envelope, c.name)
    assert.equal(bytesToHex(depositTransactionHash(envelope)), c.hash, c.name)
    assert.equal(bytesToHex(depositTransactionHash(tx)), c.hash, c.name)
  }
})

test("a Base RPC deposit's fields encode to the envelope its hash names", () => {
  const json = vectors.rpcTransaction.json
  assert.equal(bytesToHex(depositTransactionHash(depositOfRpcJson(json))), json.hash)
})

test("viem's deposit envelopes: every field in wire order, and the empty ones", () => {
  for (const c of vectors.viemEnvelopes.cases) {
    const tx = fromFields(c.fields)
    assert.equal(bytesToHex(encodeDepositTransaction(tx)), c.encoded, c.name)
    assert.deepEqual(decodeDepositTransaction(bytes(c.encoded)), tx, c.name)
  }
})

test("malformed envelopes viem refuses are refused: field count, nesting, another type", () => {
  for (const c of vectors.viemEnvelopes.malformed) assert.throws(() => decodeDepositTransaction(bytes(c.encoded)), c.name)
})

test('source hashes of the three domains: user deposits, L1-info deposits, network upgrades', () => {
  for (const c of vectors.sourceHashes.userDeposit) {
    assert.equal(bytesToHex(userDepositSourceHash(bytes(c.l1BlockHash), BigInt(c.l1LogIndex))), c.sourceHash)
  }
  for (const c of vectors.sourceHashes.l1InfoDeposit) {
    assert.equal(bytesToHex(l1InfoDepositSourceHash(bytes(c.l1BlockHash), BigInt(c.sequenceNumber))), c.sourceHash)
  }
  assert.equal(vectors.sourceHashes.upgradeDeposit.cases.length, 22)
  for (const c of vectors.sourceHashes.upgradeDeposit.cases) assert.equal(bytesToHex(upgradeDepositSourceHash(c.intent)), c.sourceHash, c.intent)
})
