/** An expected exception is met by a refusal for its reason only (exceptions.ts). */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { exceptionMismatch } from './exceptions.ts'

test('a refusal meets an expected exception only with the text that means it', () => {
  assert.equal(exceptionMismatch('TransactionException.INTRINSIC_GAS_TOO_LOW', 'intrinsic gas too low: have 21000, want 21016'), undefined)
  assert.match(exceptionMismatch('TransactionException.INTRINSIC_GAS_TOO_LOW', 'insufficient gas for floor data gas cost: have 21000, want 21040')!, /another reason/)
  assert.match(exceptionMismatch('TransactionException.GAS_LIMIT_EXCEEDS_MAXIMUM', 'gas limit reached')!, /another reason/)
  assert.equal(exceptionMismatch('TransactionException.TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH', 'blob 3 has invalid hash version'), undefined)
  assert.match(exceptionMismatch('TransactionException.TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH', 'blob transaction missing blob hashes')!, /another reason/)
})

test('either name of A|B will do', () => {
  const expected = 'TransactionException.INSUFFICIENT_ACCOUNT_FUNDS|TransactionException.INTRINSIC_GAS_TOO_LOW'
  assert.equal(exceptionMismatch(expected, 'intrinsic gas too low: have 0, want 21000'), undefined)
  assert.equal(exceptionMismatch(expected, 'insufficient funds for gas * price + value: address 0x01 have 0 want 1'), undefined)
  assert.notEqual(exceptionMismatch(expected, 'nonce too low: address 0x01, tx: 0 state: 1'), undefined)
})

test('an unencodable transaction meets encoding exceptions only; an unknown name never passes', () => {
  assert.equal(exceptionMismatch('TransactionException.RLP_INVALID_VALUE', undefined), undefined)
  assert.match(exceptionMismatch('TransactionException.INTRINSIC_GAS_TOO_LOW', undefined)!, /could not be encoded/)
  assert.match(exceptionMismatch('TransactionException.SOMETHING_NEW', 'intrinsic gas too low')!, /no refusal text is known/)
})
