/**
 * The empty diff (what a simulation starts from) changes nothing: it touches no address, and merged with a
 * diff on either side gives that diff.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { EMPTY_DIFF, mergeDiffs, touchedAddresses, type StateDiff } from './state-diff.ts'

test('the empty diff touches nothing and is neutral in a merge', () => {
  assert.equal(touchedAddresses(EMPTY_DIFF).size, 0)
  const diff: StateDiff = {
    accounts: new Map([['0xaa', new Account(1n, 2n)]]),
    storage: new Map([['0xbb', new Map([['0x01', Uint8Array.of(1)]])]]),
    wiped: new Set(['0xbb']),
    codes: new Map([['0xcc', Uint8Array.of(0x60)]]),
  }
  for (const merged of [mergeDiffs(EMPTY_DIFF, diff), mergeDiffs(diff, EMPTY_DIFF)]) {
    assert.deepEqual([...merged.accounts.keys()], ['0xaa'])
    assert.deepEqual([...merged.storage.get('0xbb')!], [['0x01', Uint8Array.of(1)]])
    assert.deepEqual([...merged.wiped], ['0xbb'])
    assert.deepEqual([...merged.codes.keys()], ['0xcc'])
  }
})
