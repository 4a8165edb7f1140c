import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { devAccounts } from '../node/dev-genesis.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { DEV_ACCOUNTS_FILE, rememberedDevAccounts } from './dev-accounts-file.ts'

test('the first start derives the accounts and writes them; a later one reads them from the file', (t) => {
  const dir = tempDir(t)
  assert.deepEqual(rememberedDevAccounts(dir, 3), devAccounts(3))
  const file = join(dir, DEV_ACCOUNTS_FILE)
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { accounts: { address: string }[] }
  saved.accounts[0]!.address = '0x' + '11'.repeat(20) // not derivable: proves the next answer comes from the file
  writeFileSync(file, JSON.stringify(saved))
  assert.equal(rememberedDevAccounts(dir, 2)[0]!.address, '0x' + '11'.repeat(20))
})

test('a file with fewer accounts, another mnemonic or garbage is derived again and rewritten', (t) => {
  const dir = tempDir(t)
  const file = join(dir, DEV_ACCOUNTS_FILE)
  rememberedDevAccounts(dir, 2)
  assert.deepEqual(rememberedDevAccounts(dir, 4), devAccounts(4))
  writeFileSync(file, JSON.stringify({ mnemonic: 'other words', accounts: devAccounts(4) }))
  assert.deepEqual(rememberedDevAccounts(dir, 4), devAccounts(4))
  assert.match(readFileSync(file, 'utf8'), /test test/)
  writeFileSync(file, '{not json')
  assert.deepEqual(rememberedDevAccounts(dir, 1), devAccounts(1))
})

test('an unwritable data directory still lists the accounts', () => {
  assert.deepEqual(rememberedDevAccounts('/nonexistent/flashnode', 1), devAccounts(1))
})
