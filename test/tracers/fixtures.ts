/**
 * geth's tracer fixtures (eth/tracers/internal/tracetest testdata, read at run time from ../shared/geth-tracers,
 * never copied into the repo: LGPL test data) as runs of our EVM: the pre-state from `genesis.alloc`, the
 * block from `context` and `genesis` (the fork at that block from geth's config fields, PREVRANDAO from the
 * genesis mixHash once merged, a blob base fee of 1 when the genesis has blob fields, as geth's runner
 * computes it), the signed transaction decoded and its sender recovered, then one traced executeTransaction.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { FORK_NAMES, rulesFor, type ForkName } from '../../src/evm/fork.ts'
import { createTracer, traceTransaction } from '../../src/evm/tracers/index.ts'
import type { BlockEnv } from '../../src/evm/types.ts'
import { WorldState } from '../../src/evm/world-state.ts'
import { lazyKzg } from '../../src/execution/crypto.ts'
import { txInputOf } from '../../src/execution/evm-env.ts'
import { hexToBytes } from '../../src/primitives/hex.ts'
import { REPO_ROOT } from '../state-tests/fixtures.ts'
import { accountState, stateReaderOf, type AccountState } from '../state-tests/world.ts'

export const TRACER_FIXTURES_DIR = resolve(REPO_ROOT, '..', 'shared', 'geth-tracers')

/** The tracer each fixture folder runs (geth's tracetest). */
export const FOLDER_TRACERS: Readonly<Record<string, string>> = {
  call_tracer: 'callTracer',
  call_tracer_withLog: 'callTracer',
  call_tracer_flat: 'flatCallTracer',
  prestate_tracer: 'prestateTracer',
  prestate_tracer_with_diff_mode: 'prestateTracer',
  erc7562_tracer: 'erc7562Tracer',
}

export interface TracerFixture {
  /** folder/file, relative to the fixtures folder. */
  readonly name: string
  readonly folder: string
  readonly tracer: string
  readonly path: string
}

type Json = Record<string, unknown>

/** Every fixture file under `dir` (a folder of folders, or one folder), sorted. */
export function listFixtures(dir: string): TracerFixture[] {
  const out: TracerFixture[] = []
  const visit = (d: string): void => {
    for (const entry of readdirSync(d).sort()) {
      const path = join(d, entry)
      if (statSync(path).isDirectory()) visit(path)
      else if (entry.endsWith('.json')) {
        const folder = basename(d)
        out.push({ name: relative(dir, path) || entry, folder, tracer: FOLDER_TRACERS[folder] ?? tracerOfName(entry), path })
      }
    }
  }
  visit(dir)
  return out
}

/** A file outside the known folders: its tracer from its name (erc7562Tracer.test_x.json), else callTracer. */
function tracerOfName(file: string): string {
  const head = file.split('.')[0]!
  return head.endsWith('Tracer') ? head : 'callTracer'
}

const big = (v: unknown): bigint => (v === undefined || v === null || v === '' ? 0n : BigInt(v as string | number))

/** geth's config fields, looked up as geth's JSON decoding does (case-insensitively). */
function configField(config: Json, name: string): unknown {
  const lower = name.toLowerCase()
  for (const [k, v] of Object.entries(config)) if (k.toLowerCase() === lower) return v
  return undefined
}

/** The fork of a block under a geth chain config: the newest whose activation has passed. */
export function forkAt(config: Json, number: bigint, time: bigint): ForkName {
  const at = (field: string, by: bigint): boolean => {
    const v = configField(config, field)
    return v !== undefined && v !== null && big(v) <= by
  }
  const merged = configField(config, 'terminalTotalDifficulty') !== undefined && big(configField(config, 'terminalTotalDifficulty')) === 0n
  const active: Record<ForkName, boolean> = {
    frontier: true,
    homestead: at('homesteadBlock', number),
    tangerineWhistle: at('eip150Block', number),
    spuriousDragon: at('eip158Block', number),
    byzantium: at('byzantiumBlock', number),
    constantinople: at('petersburgBlock', number) || at('constantinopleBlock', number),
    istanbul: at('istanbulBlock', number),
    berlin: at('berlinBlock', number),
    london: at('londonBlock', number),
    paris: merged,
    shanghai: merged && at('shanghaiTime', time),
    cancun: merged && at('cancunTime', time),
    prague: merged && at('pragueTime', time),
    osaka: merged && at('osakaTime', time),
  }
  let fork: ForkName = 'frontier'
  for (const name of FORK_NAMES) {
    if (!active[name]) break
    fork = name
  }
  return fork
}

const GAS_PER_BLOB = 131072n
const DEFAULT_MAX_BLOBS: Partial<Record<ForkName, bigint>> = { cancun: 6n, prague: 9n, osaka: 9n }

function preStateOf(alloc: Json): Map<bigint, AccountState> {
  const pre = new Map<bigint, AccountState>()
  for (const [addr, raw] of Object.entries(alloc)) {
    const a = raw as Json
    const storage = new Map<bigint, bigint>()
    for (const [slot, value] of Object.entries((a.storage as Json | undefined) ?? {})) if (big(value) !== 0n) storage.set(big(slot), big(value))
    pre.set(big(addr.startsWith('0x') ? addr : '0x' + addr), accountState({ balance: big(a.balance), nonce: big(a.nonce), code: hexToBytes((a.code as string | undefined) ?? '0x'), storage }))
  }
  return pre
}

export interface FixtureRun {
  readonly fixture: TracerFixture
  readonly expected: unknown
  /** Our tracer's result, or why there is none. */
  readonly actual?: unknown
  readonly error?: string
}

/** Runs one fixture through our EVM with its tracer. */
export function runFixture(fixture: TracerFixture): FixtureRun {
  const file = JSON.parse(readFileSync(fixture.path, 'utf8')) as Json
  const expected = file.result
  try {
    const genesis = file.genesis as Json
    const config = genesis.config as Json
    const context = file.context as Json
    const number = big(context.number)
    const timestamp = big(context.timestamp)
    const fork = forkAt(config, number, timestamp)
    const rules = rulesFor(fork)
    const chainId = big(configField(config, 'chainId') ?? 1)
    const blobSchedule = configField(config, 'blobSchedule') as Record<string, Json> | undefined
    const maxBlobs = blobSchedule?.[fork] !== undefined ? big(blobSchedule[fork]!.max) : (DEFAULT_MAX_BLOBS[fork] ?? 0n)
    const block: BlockEnv = {
      number,
      timestamp,
      coinbase: big(context.miner),
      gasLimit: big(context.gasLimit),
      baseFee: rules.london ? big(context.baseFeePerGas) : 0n,
      difficulty: big(context.difficulty),
      prevRandao: rules.paris ? big(genesis.mixHash) : 0n,
      blobBaseFee: genesis.excessBlobGas !== undefined && genesis.blobGasUsed !== undefined ? 1n : 0n,
      maxBlobGasPerBlock: rules.cancun ? maxBlobs * GAS_PER_BLOB : 0n,
      chainId,
      blockHash: () => 0n,
    }
    // KZG only because the library will not build a blob transaction without it (no blobs are checked here)
    const common = createCustomCommon({ chainId: Number(chainId) }, Mainnet, { hardfork: Hardfork.Prague, customCrypto: { kzg: lazyKzg } })
    const raw = file.input as string
    const tx = createTxFromRLP(hexToBytes(raw.startsWith('0x') ? raw : '0x' + raw), { common })
    const input = txInputOf(tx, tx.getSenderAddress().bytes)
    const world = new WorldState(stateReaderOf(preStateOf(genesis.alloc as Json)))
    const tracer = createTracer(fixture.tracer, file.tracerConfig)
    const { trace } = traceTransaction(tracer, { world, block, rules, tx: input }, { deadline: Date.now() + 60_000 })
    return { fixture, expected, actual: trace }
  } catch (e) {
    return { fixture, expected, error: e instanceof Error ? e.message : String(e) }
  }
}
