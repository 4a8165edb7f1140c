import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../primitives/hex.ts'
import { decodeDepositTransaction } from './deposit-tx.ts'
import type { OpForkName } from './forks.ts'
import {
  BEDROCK_L1_INFO_LENGTH,
  L1_INFO_SELECTORS,
  daFootprintGasScalarFromCalldata,
  decodeL1Info,
  encodeL1Info,
  l1FeeParamsFromCalldata,
  l1FeeParamsOf,
} from './l1-attributes.ts'
import { l1DataFee, operatorFee, rollupCostData } from './l1-cost.ts'
import { big, bytes, readVectors } from './test-kit.ts'

interface CostVectors {
  emptyTxRlp: string
  parameters: Record<string, string>
  operatorFee: { gas: string }
  extractGasParams: {
    cases: {
      test: string
      fork: OpForkName
      calldataRef: 'bedrock' | 'ecotone' | 'isthmus'
      append?: string
      truncate?: number
      error?: boolean
      fee?: string
      gasUsed?: string
      operatorFeeScalar?: string
      operatorFeeConstant?: string
    }[]
  }
  selectors: { bedrock: string; ecotone: string; isthmus: string; jovian: string; isthmusLength: number; jovianLength: number }
}
interface ReceiptVectors {
  cases: { test: string; fork: OpForkName; payload: string; expected: Record<string, string> }[]
}
interface DepositVectors {
  envelopes: { cases: { encoded: string }[] }
  opMainnetL1Attributes: { encoded: string }
}

const cost = readVectors<CostVectors>('op-geth/rollup-cost-vectors.json')
const receipts = readVectors<ReceiptVectors>('op-geth/receipt-opstack-vectors.json')
const deposits = readVectors<DepositVectors>('opstack-deposits/deposit-vectors.json')

const payloadOf = (fork: OpForkName, operatorFee = true): Uint8Array =>
  bytes(receipts.cases.find((c) => c.fork === fork && (operatorFee || c.test.endsWith('NoOperatorFee')))!.payload)
/** The single Bedrock call (op-geth's receipt test writes it twice in a row). */
const bedrockCall = (): Uint8Array => payloadOf('bedrock').slice(0, BEDROCK_L1_INFO_LENGTH)
const calldataOf = { bedrock: bedrockCall, ecotone: () => payloadOf('ecotone'), isthmus: () => payloadOf('isthmus') }

test("the selectors are op-geth's (computed here from the functions' signatures)", () => {
  for (const kind of ['bedrock', 'ecotone', 'isthmus', 'jovian'] as const) assert.equal(bytesToHex(L1_INFO_SELECTORS[kind]), cost.selectors[kind], kind)
  assert.equal(payloadOf('isthmus').length, cost.selectors.isthmusLength)
  assert.equal(payloadOf('jovian').length, cost.selectors.jovianLength)
})

test("fee parameters read from L1-attributes calldata as op-geth's extractL1GasParams does (TestExtract*GasParams)", () => {
  const emptyTx = rollupCostData(bytes(cost.emptyTxRlp))
  assert.equal(cost.extractGasParams.cases.length, 8)
  for (const c of cost.extractGasParams.cases) {
    let calldata = calldataOf[c.calldataRef]()
    if (c.append !== undefined) calldata = Uint8Array.from([...calldata, ...bytes(c.append)])
    if (c.truncate !== undefined) calldata = calldata.slice(0, calldata.length - c.truncate)
    if (c.error === true) {
      assert.throws(() => l1FeeParamsFromCalldata(c.fork, calldata), c.test)
      continue
    }
    const params = l1FeeParamsFromCalldata(c.fork, calldata)
    const { fee, gasUsed } = l1DataFee(c.fork, params, emptyTx)
    assert.equal(fee, big(c.fee!), c.test)
    if (c.gasUsed !== undefined) assert.equal(gasUsed, big(c.gasUsed), c.test)
    if (c.operatorFeeScalar !== undefined) {
      assert.ok(params.format === 'ecotone' && params.operatorFee !== undefined, c.test)
      assert.deepEqual(params.operatorFee, { scalar: big(c.operatorFeeScalar), constant: big(c.operatorFeeConstant!) }, c.test)
    }
  }
})

test("op-geth's L1-attributes payloads decode by their selector and encode back to the same bytes", () => {
  for (const calldata of [bedrockCall(), payloadOf('ecotone'), payloadOf('isthmus'), payloadOf('isthmus', false), payloadOf('jovian')]) {
    const info = decodeL1Info(calldata)
    assert.deepEqual(encodeL1Info(info), calldata, info.kind)
    // the parameters the decoded call sets are those op-geth reads from the same calldata in its own fork
    const fork: OpForkName = info.kind === 'bedrock' ? 'regolith' : info.kind
    assert.deepEqual(l1FeeParamsOf(info), l1FeeParamsFromCalldata(fork, calldata), info.kind)
  }
})

test("the decoded values are the test's: scalars, fees and Jovian's DA footprint scalar", () => {
  const p = cost.parameters
  const jovian = decodeL1Info(payloadOf('jovian'))
  assert.equal(jovian.kind, 'jovian')
  if (jovian.kind !== 'jovian') return
  assert.equal(jovian.baseFee, big(p.l1BaseFee!))
  assert.equal(jovian.blobBaseFee, big(p.l1BlobBaseFee!))
  assert.equal(jovian.baseFeeScalar, big(p.baseFeeScalar!))
  assert.equal(jovian.blobBaseFeeScalar, big(p.blobBaseFeeScalar!))
  assert.equal(jovian.operatorFeeScalar, big(p.operatorFeeScalar!))
  assert.equal(jovian.operatorFeeConstant, big(p.operatorFeeConstant!))
  const expectedScalar = big(receipts.cases.find((c) => c.fork === 'jovian')!.expected.daFootprintGasScalar!)
  assert.equal(jovian.daFootprintGasScalar, expectedScalar)
  assert.equal(daFootprintGasScalarFromCalldata(payloadOf('jovian')), expectedScalar)
  assert.throws(() => daFootprintGasScalarFromCalldata(payloadOf('isthmus')), /too short/)
  const bedrock = decodeL1Info(bedrockCall())
  assert.ok(bedrock.kind === 'bedrock' && bedrock.l1FeeOverhead === big(p.overhead!) && bedrock.l1FeeScalar === big(p.scalar!))
})

test('real L1-attributes deposits (Base, OP Mainnet) carry Ecotone calldata that decodes and re-encodes exactly', () => {
  for (const encoded of [...deposits.envelopes.cases.map((c) => c.encoded), deposits.opMainnetL1Attributes.encoded]) {
    const { data } = decodeDepositTransaction(bytes(encoded))
    const info = decodeL1Info(data)
    assert.equal(info.kind, 'ecotone')
    assert.deepEqual(encodeL1Info(info), data)
  }
})

test('strict decoding refuses a packed call of the wrong length; the operator fee follows the fork', () => {
  assert.throws(() => decodeL1Info(Uint8Array.from([...payloadOf('ecotone'), 0])), /expected 164 bytes/)
  const params = l1FeeParamsFromCalldata('jovian', payloadOf('jovian'))
  const gas = big(cost.operatorFee.gas)
  assert.ok(operatorFee('jovian', params, gas) > operatorFee('isthmus', params, gas))
})
