/**
 * A state view with a deadline (eth_call's time limit, node/deadline.ts) runs on the node's only thread:
 * while the EVM reads state through it, it yields to the event loop every few milliseconds, so other
 * requests and timers still run during a long call.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))

/** A base whose account reads each take ~0.25 ms of CPU: a slow store. */
const slowBase: StateReader = {
  getAccount: () => {
    const until = performance.now() + 0.25
    while (performance.now() < until);
    return new Account(1n, 1n)
  },
  getStorage: () => new Uint8Array(0),
  getCode: () => new Uint8Array(0),
}

test('reads through a view with a deadline let other work run between them', async () => {
  const state = new JournaledState(slowBase)
  state.setDeadline(performance.now() + 60_000)
  let ran = false
  setImmediate(() => {
    ran = true
  })
  let reads = 0
  // 512 reads take at least 128 ms: several times the yield interval, with room for a loaded machine.
  while (!ran && reads < 512) {
    await state.getAccount(A)
    reads++
  }
  assert.ok(ran, `an event-loop callback ran during ${reads} reads`)
})
