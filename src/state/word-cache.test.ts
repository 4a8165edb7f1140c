import assert from 'node:assert/strict'
import { test } from 'node:test'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LmdbStore } from '../storage/db.ts'
import { Account } from '@ethereumjs/util'
import { Lru } from '../primitives/lru.ts'
import type { AccountWord } from './state-reader.ts'
import { WordCache, wordsAt } from './word-cache.ts'

test('words are kept in halves: one read again outlives a turnover, one not read is gone after two', () => {
  const words = new WordCache(4)
  words.set(1n, 1n, 11n)
  words.set(1n, 2n, 12n)
  words.set(2n, 1n, 21n)
  assert.equal(words.get(1n, 1n), 11n)
  words.set(2n, 2n, 22n) // the fourth entry turns the young generation old
  assert.equal(words.get(1n, 2n), 12n, 'read from the old generation, and moved up')
  for (let i = 0n; i < 3n; i++) words.set(9n, i, i) // a turnover: (1, 2) is in the old generation again
  assert.equal(words.get(2n, 1n), undefined, 'never read again: dropped')
  for (let i = 3n; i < 7n; i++) words.set(9n, i, i) // another one, with (1, 2) not read in between
  assert.equal(words.get(1n, 2n), undefined, 'not read for two turnovers: dropped too')
  assert.equal(words.get(9n, 3n), 3n)
  words.set(9n, 3n, 99n)
  assert.equal(words.get(9n, 3n), 3n, 'a word once set is the word (the state at a block never changes)')
})

test('each database keeps the words of its four most recently asked blocks', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  const other = new LmdbStore(tempDir(t))
  t.after(() => {
    kv.close()
    other.close()
  })
  const first = wordsAt(kv, 1n)
  first.slots.set(1n, 1n, 5n)
  assert.equal(wordsAt(kv, 1n), first)
  assert.notEqual(wordsAt(other, 1n), first, 'another database, other words')
  for (const n of [2n, 3n, 4n]) wordsAt(kv, n)
  assert.equal(wordsAt(kv, 1n), first, 'still among the four')
  for (const n of [5n, 6n, 7n, 8n]) wordsAt(kv, n)
  assert.notEqual(wordsAt(kv, 1n), first, 'four newer blocks asked since: dropped')
  assert.equal(wordsAt(kv, 1n).slots.get(1n, 1n), undefined)
})

test('accounts are kept in halves too, absent ones included', () => {
  // the per-block accounts are the project's Lru (capacity 4: halves of 2), absent accounts kept as null
  const accounts = new Lru<bigint, AccountWord | null>(4)
  const word = { account: new Account(1n, 2n), codeHash: 3n }
  accounts.set(1n, word)
  accounts.set(2n, null) // a turnover
  assert.equal(accounts.get(1n), word, 'read from the old generation, and moved up')
  assert.equal(accounts.get(2n), null, 'an absent account is remembered as absent') // moved up: a turnover
  accounts.set(3n, null)
  accounts.set(4n, null) // another turnover, 1 not read since
  assert.equal(accounts.get(1n), undefined)
})
