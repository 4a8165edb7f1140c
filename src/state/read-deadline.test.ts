/**
 * A state view with a deadline (eth_call's time limit) fails its reads once the deadline has passed, within
 * 64 reads of any kind; a view without one, or one whose deadline was cleared, never fails a read.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { ExecutionDeadlineExceeded, JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const base: StateReader = {
  getAccount: () => new Account(1n, 1n),
  getStorage: () => Uint8Array.of(1),
  getCode: () => new Uint8Array(0),
}
const reads = [
  (s: JournaledState) => s.getAccount(A),
  (s: JournaledState) => s.getStorage(A, new Uint8Array(32)),
  (s: JournaledState) => s.getCode(A),
]

test('past its deadline a view fails a read within 64 reads, whichever reads they are', async () => {
  for (const read of reads) {
    const state = new JournaledState(base)
    state.setDeadline(performance.now() - 1)
    let failedAt = -1
    for (let i = 1; i <= 64 && failedAt < 0; i++) {
      try {
        await read(state)
      } catch (e) {
        assert.ok(e instanceof ExecutionDeadlineExceeded)
        failedAt = i
      }
    }
    assert.ok(failedAt > 0, 'a read failed')
  }
})

test('without a deadline, or before it, or once it is cleared, reads never fail', async () => {
  const none = new JournaledState(base)
  const later = new JournaledState(base)
  later.setDeadline(performance.now() + 60_000)
  const cleared = new JournaledState(base)
  cleared.setDeadline(performance.now() - 1)
  cleared.setDeadline(undefined)
  for (const state of [none, later, cleared]) {
    for (let i = 0; i < 200; i++) await reads[i % 3]!(state)
  }
})
