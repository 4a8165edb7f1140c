import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseQuantity } from '../primitives/hex.ts'
import { decodeDepositTransaction, encodeDepositTransaction, type DepositTransaction } from './deposit-tx.ts'
import { depositTransactionView } from './deposit-view.ts'
import { big, bytes, depositOfRpcJson, readVectors } from './test-kit.ts'

interface RpcVectors {
  cases: {
    test: string
    deposit: { sourceHash?: string; isSystemTx: boolean; mint?: string }
    receipt: { depositNonce: string; depositReceiptVersion?: string } | null
    expected: Record<string, string | boolean>
    absent: string[]
  }[]
}
interface DepositVectors {
  rpcTransaction: { json: Record<string, string> }
}

const rpc = readVectors<RpcVectors>('op-geth/rpc-transaction-vectors.json')
const deposits = readVectors<DepositVectors>('opstack-deposits/deposit-vectors.json')

/** Go's zero-valued DepositTx with the test's fields set, as op-geth's tests build it. */
const goDeposit = (d: RpcVectors['cases'][number]['deposit']): DepositTransaction => ({
  sourceHash: bytes(d.sourceHash ?? `0x${'00'.repeat(32)}`),
  from: new Uint8Array(20),
  to: null,
  mint: d.mint === undefined ? 0n : big(d.mint),
  value: 0n,
  gas: 0n,
  isSystemTx: d.isSystemTx,
  data: new Uint8Array(0),
})

test("op-geth's RPC view of a deposit: zeroed fee and signature fields, the deposit's own, the receipt's nonce", () => {
  for (const c of rpc.cases) {
    const view = depositTransactionView(goDeposit(c.deposit), {
      depositNonce: c.receipt === null ? undefined : big(c.receipt.depositNonce),
      depositReceiptVersion: c.receipt?.depositReceiptVersion === undefined ? undefined : big(c.receipt.depositReceiptVersion),
    }) as unknown as Record<string, unknown>
    for (const [key, want] of Object.entries(c.expected)) {
      const got = view[key]
      if (typeof want === 'boolean' || key === 'sourceHash') assert.equal(got, want, `${c.test}: ${key}`)
      else assert.equal(parseQuantity(String(got)), big(want), `${c.test}: ${key}`)
    }
    for (const key of c.absent) assert.ok(!(key in view), `${c.test}: ${key} must be absent`)
  }
})

test("a Base RPC deposit's view: every key and value as served, but `mint`, which op-geth leaves out when zero", () => {
  const json = deposits.rpcTransaction.json
  const tx = decodeDepositTransaction(encodeDepositTransaction(depositOfRpcJson(json)))
  const view = depositTransactionView(tx, {
    blockHash: bytes(json.blockHash!),
    blockNumber: parseQuantity(json.blockNumber!),
    transactionIndex: Number(parseQuantity(json.transactionIndex!)),
    depositNonce: parseQuantity(json.nonce!),
    depositReceiptVersion: parseQuantity(json.depositReceiptVersion!),
  })
  const { mint: _servedMint, ...served } = json
  assert.deepEqual({ ...view }, served)
})
