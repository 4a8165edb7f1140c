/**
 * The benchmark chain: a geth-format genesis that both peers (Anvil via `--init`, Flashnode via `init
 * --genesis`) start from, so they serve the same state.
 *
 * - Every fork through Prague active at block 0 / time 0 (post-merge: difficulty 0, TTD 0), blobSchedule
 *   for cancun and prague, base fee 1 gwei, a generous gas limit, and the Prague system contracts.
 * - N funded EOAs: indexes 0..N-1 of the well-known test mnemonic (the same keys Anvil and Hardhat print),
 *   each with a large ETH balance and a token balance.
 * - The ERC-20 fixture at the fixed address TOKEN_ADDRESS, balances pre-set in its storage.
 *
 * Keys are derived once from the seed (viem's mnemonicToAccount re-runs PBKDF2 per index, ~15 ms each;
 * hdKeyToAccount on the shared HD root gives the same accounts at ~2 ms each) and cached per process.
 * CLI: `npx tsx bench/genesis.ts --accounts 64 --out genesis.json`.
 */

import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { mnemonicToSeedSync } from '@scure/bip39'
import { getAddress, numberToHex, type Address, type Hex } from 'viem'
import { HDKey, hdKeyToAccount, type HDAccount } from 'viem/accounts'
import { genesisAllocFor } from '../test/fixtures/erc20/index.ts'
import { SYSTEM_CONTRACTS } from './system-contracts.ts'
import { devChainConfig } from '../src/node/dev-genesis.ts'

export const BENCH_MNEMONIC = 'test test test test test test test test test test test junk'
/** Where the ERC-20 fixture lives on every benchmark chain. */
export const TOKEN_ADDRESS: Address = getAddress('0x00000000000000000000000000000000000e20c0')
export const DEFAULT_CHAIN_ID = 31337

export interface BenchGenesisOptions {
  chainId?: number
  /** Funded EOAs (mnemonic indexes 0..accounts-1). */
  accounts?: number
  /** Wei per account. */
  ethBalance?: bigint
  /** Token base units per account. */
  tokenBalance?: bigint
  gasLimit?: bigint
  baseFeePerGas?: bigint
}

interface AllocEntry {
  balance: Hex
  nonce?: Hex
  code?: Hex
  storage?: Record<Hex, Hex>
}

/** The geth genesis JSON, as written to disk. */
export interface GethGenesisJson {
  config: Record<string, unknown>
  nonce: Hex
  timestamp: Hex
  extraData: Hex
  gasLimit: Hex
  difficulty: Hex
  mixHash: Hex
  coinbase: Address
  number: Hex
  gasUsed: Hex
  parentHash: Hex
  baseFeePerGas: Hex
  excessBlobGas: Hex
  blobGasUsed: Hex
  alloc: Record<string, AllocEntry>
}

export interface BenchChain {
  genesis: GethGenesisJson
  chainId: number
  token: Address
  accounts: HDAccount[]
  tokenBalance: bigint
}

const hex = (v: bigint | number): Hex => numberToHex(v)
const ZERO32: Hex = `0x${'00'.repeat(32)}`

let hdRoot: HDKey | undefined
const accountCache: HDAccount[] = []

/** Test-mnemonic accounts 0..count-1 (the same as viem's mnemonicToAccount(BENCH_MNEMONIC, {addressIndex})). */
export function benchAccounts(count: number): HDAccount[] {
  hdRoot ??= HDKey.fromMasterSeed(mnemonicToSeedSync(BENCH_MNEMONIC))
  for (let i = accountCache.length; i < count; i++) accountCache.push(hdKeyToAccount(hdRoot, { addressIndex: i }))
  return accountCache.slice(0, count)
}

/** The dev chain's config (every fork through Prague at genesis), with the fields Anvil's --init reads too. */
export function chainConfig(chainId: number): Record<string, unknown> {
  return {
    ...devChainConfig(BigInt(chainId)),
    arrowGlacierBlock: 0,
    grayGlacierBlock: 0,
    depositContractAddress: '0x0000000000000000000000000000000000000000',
  }
}

export function buildBenchGenesis(opts: BenchGenesisOptions = {}): BenchChain {
  const chainId = opts.chainId ?? DEFAULT_CHAIN_ID
  const ethBalance = opts.ethBalance ?? 10n ** 30n // 10^12 ETH
  const tokenBalance = opts.tokenBalance ?? 10n ** 27n // 10^9 tokens at 18 decimals
  const accounts = benchAccounts(opts.accounts ?? 64)

  const alloc: Record<string, AllocEntry> = {}
  for (const c of SYSTEM_CONTRACTS) alloc[getAddress(c.address)] = { balance: '0x0', nonce: '0x1', code: c.code }
  for (const a of accounts) alloc[a.address] = { balance: hex(ethBalance) }
  Object.assign(alloc, genesisAllocFor(TOKEN_ADDRESS, accounts.map((a) => ({ address: a.address, balance: tokenBalance }))))
  alloc[TOKEN_ADDRESS]!.nonce = '0x1' // as if created (EIP-161)

  const genesis: GethGenesisJson = {
    config: chainConfig(chainId),
    nonce: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    gasLimit: hex(opts.gasLimit ?? 60_000_000n),
    difficulty: '0x0',
    mixHash: ZERO32,
    coinbase: '0x0000000000000000000000000000000000000000',
    number: '0x0',
    gasUsed: '0x0',
    parentHash: ZERO32,
    baseFeePerGas: hex(opts.baseFeePerGas ?? 1_000_000_000n),
    excessBlobGas: '0x0',
    blobGasUsed: '0x0',
    alloc,
  }
  return { genesis, chainId, token: TOKEN_ADDRESS, accounts, tokenBalance }
}

export function writeBenchGenesis(path: string, opts: BenchGenesisOptions = {}): BenchChain {
  const chain = buildBenchGenesis(opts)
  writeFileSync(path, `${JSON.stringify(chain.genesis, null, 2)}\n`)
  return chain
}

function main(): void {
  const args = process.argv.slice(2)
  const arg = (name: string): string | undefined => {
    const i = args.indexOf(name)
    return i >= 0 ? args[i + 1] : undefined
  }
  const out = arg('--out') ?? 'genesis.json'
  const accounts = Number(arg('--accounts') ?? 64)
  const chainId = Number(arg('--chain-id') ?? DEFAULT_CHAIN_ID)
  const chain = writeBenchGenesis(out, { accounts, chainId })
  console.log(`${out}: chainId ${chain.chainId}, ${chain.accounts.length} accounts, token at ${chain.token}`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main()
