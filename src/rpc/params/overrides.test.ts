import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../../primitives/hex.ts'
import { reason } from './test-kit.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'

const ADDR = '0xc000000000000000000000000000000000000000'
const SLOT = `0x${'00'.repeat(31)}01`
const VAL = `0x${'00'.repeat(31)}2a`

test('state overrides: every account field, keys normalised to lower-case hex', () => {
  const o = parseStateOverrides({
    '0xC000000000000000000000000000000000000000': {
      balance: '0xe8d4a51000',
      nonce: '0x5',
      code: '0x6001',
      stateDiff: { [SLOT]: VAL },
      movePrecompileToAddress: '0x0000000000000000000000000000000000000123',
    },
  })
  assert.deepEqual([...o.keys()], [ADDR])
  const acc = o.get(ADDR)!
  assert.equal(acc.balance, 0xe8d4a51000n)
  assert.equal(acc.nonce, 5n)
  assert.equal(bytesToHex(acc.code!), '0x6001')
  assert.equal(bytesToHex(acc.stateDiff!.get(SLOT)!), VAL)
  assert.equal(acc.state, undefined)
  assert.equal(bytesToHex(acc.movePrecompileToAddress!), '0x0000000000000000000000000000000000000123')
})

test('state overrides: an empty state object replaces storage with nothing (kept, not dropped)', () => {
  const acc = parseStateOverrides({ [ADDR]: { state: {} } }).get(ADDR)!
  assert.equal(acc.state?.size, 0)
})

test('state overrides: state and stateDiff together are refused with geth wording (checksummed address)', () => {
  assert.equal(
    reason(() => parseStateOverrides({ '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb': { state: {}, stateDiff: {} } })),
    "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb: account 0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB has both 'state' and 'stateDiff'",
  )
})

test('state overrides: bad keys and values name where they sit', () => {
  assert.equal(reason(() => parseStateOverrides({ '0x12': {} })), '0x12: hex string has length 2, want 40 for Address')
  assert.equal(reason(() => parseStateOverrides({ [ADDR]: { balance: '12' } })), `${ADDR}.balance: hex string without 0x prefix`)
  assert.equal(
    reason(() => parseStateOverrides({ [ADDR]: { state: { '0x01': VAL } } })),
    `${ADDR}.state.0x01: hex string has length 2, want 64 for Hash`,
  )
  assert.equal(
    reason(() => parseStateOverrides({ [ADDR]: { stateDiff: { [SLOT]: '0x2a' } } })),
    `${ADDR}.stateDiff.${SLOT}: hex string has length 2, want 64 for common.Hash`,
  )
  assert.equal(reason(() => parseStateOverrides([])), 'json: cannot unmarshal array into Go value of type override.StateOverride')
})

test('block overrides: fields, case-insensitive names, refused fields', () => {
  const o = parseBlockOverrides({
    number: '0x99',
    Time: '0x10',
    gasLimit: '0x1c9c380',
    feeRecipient: ADDR,
    prevRandao: VAL,
    baseFeePerGas: '0x7',
    blobBaseFee: '0x1',
    difficulty: '0x1',
  })
  assert.equal(o.number, 0x99n)
  assert.equal(o.time, 16n)
  assert.equal(o.gasLimit, 30_000_000n)
  assert.equal(bytesToHex(o.feeRecipient!), ADDR)
  assert.equal(bytesToHex(o.prevRandao!), VAL)
  assert.equal(o.baseFeePerGas, 7n)
  assert.equal(o.blobBaseFee, 1n)
  assert.ok(!('difficulty' in o))
  assert.equal(reason(() => parseBlockOverrides({ beaconRoot: VAL })), 'block override "beaconRoot" is not supported for this RPC method')
  assert.equal(reason(() => parseBlockOverrides({ withdrawals: [] })), 'block override "withdrawals" is not supported for this RPC method')
  assert.equal(reason(() => parseBlockOverrides({ time: '0x01' })), 'time: hex number with leading zero digits')
})
