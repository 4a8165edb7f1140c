/**
 * The state-test corpora on disk: where they are, which files each has, and their parsed cases.
 *
 * The fixtures live outside the repository, in `../shared/ethereum-tests` (Cancun-era ethereum/tests) and
 * `../shared/eest-state-tests` (execution-spec-tests' Prague and Osaka fills) beside the repository root (so
 * any clone with the shared folder beside it finds them), or in any folder a caller names (openCorpus); they
 * are read at run time and never copied in. Each corpus keeps its last parsed file in memory (a filter by
 * case name and the run that follows read it once); nothing is cached beyond the process, and a whole
 * corpus is never held at once (~50 MB of JSON).
 */

import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const CORPUS_DIR = resolve(REPO_ROOT, '..', 'shared', 'ethereum-tests', 'GeneralStateTests')
export const EEST_CORPUS_DIR = resolve(REPO_ROOT, '..', 'shared', 'eest-state-tests', 'GeneralStateTests')

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

/** A folder of state-test fixture files (GeneralStateTests format), walked once and read file by file. */
export class Corpus {
  private files: string[] | undefined
  private last: { readonly file: string; readonly cases: Readonly<Record<string, FixtureCase>> } | undefined

  constructor(readonly dir: string) {}

  available(): boolean {
    return existsSync(this.dir)
  }

  /** Every fixture file, as a path relative to the folder with '/' separators, sorted. */
  fixtureFiles(): readonly string[] {
    if (this.files === undefined) {
      const abs: string[] = []
      walk(this.dir, abs)
      this.files = abs.map((p) => relative(this.dir, p).split(sep).join('/'))
    }
    return this.files
  }

  /** The cases of one fixture file (by its relative path). */
  loadFixture(file: string): Readonly<Record<string, FixtureCase>> {
    if (this.last?.file !== file) this.last = { file, cases: JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as Record<string, FixtureCase> }
    return this.last.cases
  }
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (name.endsWith('.json')) out.push(path)
  }
}

const opened = new Map<string, Corpus>()

/** The corpus in `dir` (resolved against the working directory), one object per folder. */
export function openCorpus(dir: string): Corpus {
  const abs = resolve(dir)
  let corpus = opened.get(abs)
  if (corpus === undefined) opened.set(abs, (corpus = new Corpus(abs)))
  return corpus
}

/** The Cancun-era ethereum/tests corpus, and EEST's Prague and Osaka fills. */
export const CANCUN_CORPUS = openCorpus(CORPUS_DIR)
export const EEST_CORPUS = openCorpus(EEST_CORPUS_DIR)
