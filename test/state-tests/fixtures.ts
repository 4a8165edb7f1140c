/**
 * The state-test corpus on disk: where it is, which files it has, and their parsed cases.
 *
 * The fixtures live outside the repository, in `../shared/ethereum-tests` beside the repository root (so
 * any clone with the shared folder beside it finds them); they are read at run time and never copied in.
 * The last parsed file is kept in memory (a filter by case name and the run that follows read it once);
 * nothing is cached beyond the process, and the whole corpus is never held at once (~50 MB of JSON).
 */

import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const CORPUS_DIR = resolve(REPO_ROOT, '..', 'shared', 'ethereum-tests', 'GeneralStateTests')

export interface FixtureAccount {
  readonly nonce: string
  readonly balance: string
  readonly code: string
  readonly storage: Readonly<Record<string, string>>
}

export interface FixtureEnv {
  readonly currentCoinbase: string
  readonly currentNumber: string
  readonly currentTimestamp: string
  readonly currentGasLimit: string
  readonly currentDifficulty: string
  readonly currentBaseFee?: string
  readonly currentRandom?: string
  readonly currentExcessBlobGas?: string
}

export interface FixtureAccessListEntry {
  readonly address: string
  readonly storageKeys: readonly string[]
}

export interface FixtureAuthorization {
  readonly chainId: string
  readonly address: string
  readonly nonce: string
  readonly v?: string
  readonly yParity?: string
  readonly r: string
  readonly s: string
}

export interface FixtureTransaction {
  readonly data: readonly string[]
  readonly gasLimit: readonly string[]
  readonly value: readonly string[]
  readonly nonce: string
  readonly to: string
  readonly gasPrice?: string
  readonly maxFeePerGas?: string
  readonly maxPriorityFeePerGas?: string
  readonly maxFeePerBlobGas?: string
  readonly blobVersionedHashes?: readonly string[]
  readonly accessLists?: readonly (readonly FixtureAccessListEntry[] | null)[]
  readonly authorizationList?: readonly FixtureAuthorization[]
  readonly secretKey?: string
  readonly sender?: string
}

export interface FixturePost {
  readonly indexes: { readonly data: number; readonly gas: number; readonly value: number }
  readonly hash: string
  readonly logs: string
  readonly txbytes: string
  readonly expectException?: string
}

export interface FixtureCase {
  readonly env: FixtureEnv
  readonly pre: Readonly<Record<string, FixtureAccount>>
  readonly transaction: FixtureTransaction
  readonly post: Readonly<Record<string, readonly FixturePost[]>>
}

export function corpusAvailable(): boolean {
  return existsSync(CORPUS_DIR)
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (name.endsWith('.json')) out.push(path)
  }
}

let fileList: string[] | undefined

/** Every fixture file, as a path relative to GeneralStateTests/ with '/' separators, sorted. */
export function fixtureFiles(): readonly string[] {
  if (fileList === undefined) {
    const abs: string[] = []
    walk(CORPUS_DIR, abs)
    fileList = abs.map((p) => relative(CORPUS_DIR, p).split(sep).join('/'))
  }
  return fileList
}

let last: { readonly file: string; readonly cases: Readonly<Record<string, FixtureCase>> } | undefined

/** The cases of one fixture file (by its relative path). */
export function loadFixture(file: string): Readonly<Record<string, FixtureCase>> {
  if (last?.file !== file) last = { file, cases: JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) as Record<string, FixtureCase> }
  return last.cases
}
