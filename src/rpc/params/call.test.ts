import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../../primitives/hex.ts'
import { reason } from './test-kit.ts'
import { parseCallRequest } from './call.ts'

const A = '0x14e46043e63d0e3cdcf2530519f4cfaf35058cb2'
const B = '0x9344b07175800259691961298ca11c824e65032d'
const H = `0x${'11'.repeat(32)}`

test('the rpc-compat eip1559 call object parses into typed fields', () => {
  const req = parseCallRequest({ from: A, gas: '0xea60', input: '0x333435', maxFeePerGas: '0x1a21398', maxPriorityFeePerGas: '0xb', to: B, value: '0x17' })
  assert.equal(bytesToHex(req.from!), A)
  assert.equal(bytesToHex(req.to!), B)
  assert.equal(req.gas, 60000n)
  assert.equal(req.maxFeePerGas, 0x1a21398n)
  assert.equal(req.maxPriorityFeePerGas, 11n)
  assert.equal(req.value, 23n)
  assert.equal(bytesToHex(req.data!), '0x333435')
  assert.deepEqual(Object.keys(req).sort(), ['data', 'from', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'to', 'value'])
})

test('data and input: either works; equal both are fine; different both are refused', () => {
  assert.equal(bytesToHex(parseCallRequest({ data: '0x01' }).data!), '0x01')
  assert.equal(bytesToHex(parseCallRequest({ input: '0x02' }).data!), '0x02')
  assert.equal(bytesToHex(parseCallRequest({ input: '0x02', data: '0x02' }).data!), '0x02')
  assert.equal(
    reason(() => parseCallRequest({ input: '0x02', data: '0x03' })),
    'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
  )
})

test('gasPrice with a 1559 fee is refused with geth wording', () => {
  const msg = 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'
  assert.equal(reason(() => parseCallRequest({ gasPrice: '0x1', maxFeePerGas: '0x2' })), msg)
  assert.equal(reason(() => parseCallRequest({ gasPrice: '0x1', maxPriorityFeePerGas: '0x2' })), msg)
  assert.equal(parseCallRequest({ gasPrice: '0x1' }).gasPrice, 1n)
})

test('unknown fields are ignored, null is absent, keys match case-insensitively like Go', () => {
  const req = parseCallRequest({ to: B, gas: null, blobs: ['whatever'], foo: 1, FROM: A })
  assert.deepEqual(Object.keys(req).sort(), ['from', 'to'])
  assert.equal(bytesToHex(req.from!), A)
  assert.deepEqual(parseCallRequest(null), {})
})

test('field errors name the field', () => {
  assert.equal(reason(() => parseCallRequest({ from: 'abc' })), 'from: hex string without 0x prefix')
  assert.equal(reason(() => parseCallRequest({ gas: '0x10000000000000000' })), 'gas: hex number > 64 bits')
  assert.equal(reason(() => parseCallRequest({ value: '0x01' })), 'value: hex number with leading zero digits')
  assert.equal(reason(() => parseCallRequest('0x')), 'json: cannot unmarshal string into Go value of type ethapi.TransactionArgs')
})

test('access list, blob hashes and authorizations', () => {
  const req = parseCallRequest({
    accessList: [{ address: B, storageKeys: [H] }],
    blobVersionedHashes: [H],
    maxFeePerBlobGas: '0x3',
    authorizationList: [{ chainId: '0x1', address: A, nonce: '0x2', yParity: '0x1', r: '0x5', s: '0x6' }],
    chainId: '0x1',
    nonce: '0x7',
    type: '0x4',
  })
  assert.equal(bytesToHex(req.accessList![0]!.address), B)
  assert.equal(bytesToHex(req.accessList![0]!.storageKeys[0]!), H)
  assert.equal(bytesToHex(req.blobVersionedHashes![0]!), H)
  assert.equal(req.maxFeePerBlobGas, 3n)
  assert.deepEqual({ ...req.authorizationList![0]!, address: bytesToHex(req.authorizationList![0]!.address) }, {
    chainId: 1n,
    address: A,
    nonce: 2n,
    yParity: 1n,
    r: 5n,
    s: 6n,
  })
  assert.equal(req.chainId, 1n)
  assert.equal(req.nonce, 7n)
  assert.equal(req.type, 4)
  assert.equal(parseCallRequest({ type: 'legacy' }).type, undefined)
  assert.equal(reason(() => parseCallRequest({ accessList: [{ address: B }] })), "accessList.0: missing required field 'storageKeys' for AccessTuple")
  assert.equal(
    reason(() => parseCallRequest({ authorizationList: [{ chainId: '0x1', address: A, nonce: '0x0', r: '0x1', s: '0x1' }] })),
    "authorizationList.0: missing required field 'yParity' for SetCodeAuthorization",
  )
  assert.equal(reason(() => parseCallRequest({ accessList: {} })), 'accessList: json: cannot unmarshal object into Go value of type types.AccessList')
})
