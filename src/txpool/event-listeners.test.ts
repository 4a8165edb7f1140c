/**
 * Listening to the pool's events: a removed listener hears nothing more, whichever it was (the first
 * registered included) and however often it is removed; the others keep hearing.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TxPool } from './pool.ts'
import { FakeState, env, keys, transfer } from './test-kit.ts'

test('removing the first listener, twice, leaves the second one listening', () => {
  const pool = new TxPool()
  const heard: string[] = []
  const offFirst = pool.events.on('added', () => heard.push('first'))
  pool.events.on('added', () => heard.push('second'))
  offFirst()
  offFirst()
  pool.add(transfer(keys[0]!, 0), new FakeState(), env())
  assert.deepEqual(heard, ['second'])
})
