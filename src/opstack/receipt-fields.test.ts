import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex, parseQuantity } from '../primitives/hex.ts'
import { BLOOM_BYTES } from '../primitives/bloom.ts'
import type { OpForkName } from './forks.ts'
import {
  depositReceiptFields,
  encodeDepositReceipt,
  encodeDepositReceiptForRoot,
  l1CostReceiptFields,
  type DepositReceipt,
} from './receipt-fields.ts'
import { big, bytes, readVectors } from './test-kit.ts'

interface ReceiptVectors {
  cases: { test: string; fork: OpForkName; payload: string; expected: Record<string, string>; rejectedUnder?: OpForkName[] }[]
  depositReceipt: { depositNonce: string; fieldsAbsent: string[] }
  depositReceiptRlp: {
    test: string
    receipt: { postState: string; cumulativeGasUsed: string; logs: { address: string; topics: string[]; data: string }[] }
    encoded: string
  }[]
}
interface DepositVectors {
  depositReceipts: {
    cases: { test: string; status: 0 | 1; cumulativeGasUsed: string; logs: []; depositNonce: string; depositReceiptVersion?: string; encoded: string }[]
  }
}

const receipts = readVectors<ReceiptVectors>('op-geth/receipt-opstack-vectors.json')
const emptyTx = bytes(readVectors<{ emptyTxRlp: string }>('op-geth/rollup-cost-vectors.json').emptyTxRlp)
const alloy = readVectors<DepositVectors>('opstack-deposits/deposit-vectors.json').depositReceipts

/** The fields as numbers where op-geth prints quantities (l1FeeScalar is text). */
function normalized(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === 'l1FeeScalar' ? v : parseQuantity(v).toString()]))
}

test("a user transaction's OP receipt keys per fork, as op-geth derives them (TestDeriveOptimism*TxReceipts)", () => {
  assert.equal(receipts.cases.length, 5)
  for (const c of receipts.cases) {
    const fields = l1CostReceiptFields(c.fork, bytes(c.payload), emptyTx) as Record<string, string>
    assert.deepEqual(normalized(fields), c.expected, c.test)
  }
})

test('a payload of a later format is refused under a pre-Ecotone chain, as op-geth refuses to derive the receipts', () => {
  for (const c of receipts.cases) {
    for (const fork of c.rejectedUnder ?? []) assert.throws(() => l1CostReceiptFields(fork, bytes(c.payload), emptyTx), c.test)
  }
})

test("a deposit's receipt carries its nonce and none of the L1 keys", () => {
  const fields = depositReceiptFields({ depositNonce: big(receipts.depositReceipt.depositNonce) }) as Record<string, string>
  assert.equal(parseQuantity(fields.depositNonce!), big(receipts.depositReceipt.depositNonce))
  for (const key of receipts.depositReceipt.fieldsAbsent) assert.ok(!(key in fields), key)
})

test("deposit receipt RLP: op-geth's Bedrock receipt and op-alloy's Regolith and Canyon receipts", () => {
  for (const v of receipts.depositReceiptRlp) {
    const receipt: DepositReceipt = {
      status: 0,
      postState: bytes(v.receipt.postState),
      cumulativeGasUsed: big(v.receipt.cumulativeGasUsed),
      logsBloom: new Uint8Array(BLOOM_BYTES),
      logs: v.receipt.logs.map((l) => ({ address: bytes(l.address), topics: l.topics.map(bytes), data: bytes(l.data) })),
    }
    assert.equal(bytesToHex(encodeDepositReceipt(receipt)), v.encoded.toLowerCase(), v.test)
    assert.equal(bytesToHex(encodeDepositReceiptForRoot(receipt)), v.encoded.toLowerCase(), v.test)
  }
  for (const c of alloy.cases) {
    const receipt: DepositReceipt = {
      status: c.status,
      cumulativeGasUsed: big(c.cumulativeGasUsed),
      logsBloom: new Uint8Array(BLOOM_BYTES),
      logs: [],
      depositNonce: big(c.depositNonce),
      depositReceiptVersion: c.depositReceiptVersion === undefined ? undefined : big(c.depositReceiptVersion),
    }
    // op-alloy's vectors are the RLP list; op-geth's envelope puts the type byte 0x7e before it
    assert.equal(bytesToHex(encodeDepositReceipt(receipt)), `0x7e${c.encoded.slice(2)}`, c.test)
  }
})

test('the receipts-root encoding leaves a Regolith receipt\'s nonce out and keeps a Canyon receipt\'s (TestReceiptEncodeIndexBugIsEnshrined)', () => {
  const [regolith, canyon] = alloy.cases
  const base = { status: 1 as const, cumulativeGasUsed: big(regolith!.cumulativeGasUsed), logsBloom: new Uint8Array(BLOOM_BYTES), logs: [] }
  const withNonce: DepositReceipt = { ...base, depositNonce: big(regolith!.depositNonce) }
  const withoutNonce = encodeDepositReceipt(base)
  assert.deepEqual(encodeDepositReceiptForRoot(withNonce), withoutNonce)
  assert.notDeepEqual(encodeDepositReceipt(withNonce), withoutNonce)
  const versioned: DepositReceipt = { ...withNonce, depositReceiptVersion: big(canyon!.depositReceiptVersion!) }
  assert.deepEqual(encodeDepositReceiptForRoot(versioned), encodeDepositReceipt(versioned))
})
