import assert from 'node:assert/strict'
import { test } from 'node:test'
import { resultMessage } from './messages.ts'

test('string results serialize exactly as JSON.stringify would, hex or not, short or long', () => {
  const long = `0x${'ab01'.repeat(2500)}`
  const cases: unknown[] = [
    long,
    `0x${'00'.repeat(40)}`,
    '0x1',
    `0x${'AB'.repeat(40)}`, // upper case: not the hex fast path
    `${'x'.repeat(70)}"quote\\back\nline`,
    `0x${'ab'.repeat(40)}"`,
    `0x${'ab'.repeat(40)}\u2028`,
    'Flashnode/v0.1.0',
  ]
  for (const value of cases) {
    const message = resultMessage(1, value)
    assert.equal(message, `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(value)}}`)
    assert.deepEqual(JSON.parse(message).result, value)
  }
})
