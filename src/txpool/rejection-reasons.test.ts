/**
 * Every pool refusal names the rule that made it (`reason`, the label the admissions metric counts it under),
 * and that name is the rule's own key, so a dashboard's series and the code say the same thing; the refusal
 * is still the JSON-RPC -32000 kind.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rejections, TransactionRejected } from './messages.ts'

test('each refusal carries its rule\'s name as its reason', () => {
  const names = Object.keys(rejections)
  assert.ok(names.length > 30)
  for (const [name, make] of Object.entries(rejections)) {
    const refusal = (make as (...args: number[]) => TransactionRejected)(1, 1, 1)
    assert.ok(refusal instanceof TransactionRejected, name)
    assert.equal(refusal.reason, name)
    assert.equal(refusal.kind, 'transactionRejected')
  }
})
