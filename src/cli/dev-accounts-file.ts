/**
 * The test accounts a start lists, remembered in the data directory: deriving them from the mnemonic (BIP-32
 * in pure JavaScript) took ~230 ms of every start, longer than opening the chain. The file holds only the
 * well-known test mnemonic's public keys; a file that is missing, unreadable or for another mnemonic or fewer
 * accounts is derived again and rewritten (a failed write only costs the next start the derivation).
 */

import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devAccounts, TEST_MNEMONIC, type DevAccount } from '../node/dev-genesis.ts'

export const DEV_ACCOUNTS_FILE = 'dev-accounts.json'

interface Remembered {
  readonly mnemonic: string
  readonly accounts: DevAccount[]
}

export function rememberedDevAccounts(datadir: string, count: number): DevAccount[] {
  const file = join(datadir, DEV_ACCOUNTS_FILE)
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Remembered
    if (saved.mnemonic === TEST_MNEMONIC && Array.isArray(saved.accounts) && saved.accounts.length >= count) return saved.accounts.slice(0, count)
  } catch {
    // derived below
  }
  const accounts = devAccounts(count)
  try {
    writeFileSync(file, JSON.stringify({ mnemonic: TEST_MNEMONIC, accounts } satisfies Remembered))
  } catch {
    // the next start derives them again
  }
  return accounts
}
