/**
 * The benchmark chain: a geth-format genesis that both peers (Anvil via `--init`, Flashnode via `init
 * --genesis`) start from, so they serve the same state.
 *
 * - Every fork through Prague active at block 0 / time 0 (post-merge: difficulty 0, TTD 0), blobSchedule
 *   for cancun and prague, base fee 1 gwei, a generous gas limit, and the Prague system contracts.
 * - N funded EOAs: indexes 0..N-1 of the well-known test mnemonic (the same keys Anvil and Hardhat print),
 *   each with a large ETH balance and a token balance.
 * - Optionally more token holders without keys (`holders` > `accounts`): addresses made from keccak of their
 *   index (`keylessHolder`), with the same ETH and token balances. They exist for reads with a large holder
 *   set (100,000 holders: deriving that many HD keys at ~2 ms each would take minutes); nothing signs for them.
 *   Their balance slots are hashed with the node's WebAssembly keccak (the fixture's viem-based balanceSlot
 *   and address checksums took ~15 s for 100,000), checked against the fixture's for the first of them.
 * - The ERC-20 fixture at the fixed address TOKEN_ADDRESS, balances pre-set in its storage.
 * - With `swap: true` (off by default), the swap fixture (test/fixtures/swap: placeSwapFixture) at fixed
 *   addresses beside it: token B (a second BenchToken) at TOKEN_B_ADDRESS, the constant-product pair of A and
 *   B at PAIR_ADDRESS with SWAP_RESERVE_A and SWAP_RESERVE_B, the router at ROUTER_ADDRESS and the multicall at
 *   MULTICALL_ADDRESS; every holder (keyless ones too) holds `tokenBalance` of token B as of A, and lets the
 *   router spend its token A without limit.
 *
 * Keys are derived once from the seed (viem's mnemonicToAccount re-runs PBKDF2 per index, ~15 ms each;
 * hdKeyToAccount on the shared HD root gives the same accounts at ~2 ms each) and cached per process, and so
 * is a built genesis (per options: the token's storage for 100,000 holders takes seconds to compute).
 * - `opStackGenesis` turns a built genesis into the same chain as an OP Stack chain (what `flashnode start
 *   --op-stack` makes of its dev genesis, node/op-dev-genesis.ts): Base's EIP-1559 parameters, Bedrock to Jovian
 *   at genesis, Jovian's extraData, the predeploys with the Base-like dev L1 values. Same accounts, token and
 *   fixtures, so one transaction runs on both chains.
 * CLI: `npx tsx bench/genesis.ts --accounts 64 [--holders 100000] [--swap] --out genesis.json`.
 */

import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { mnemonicToSeedSync } from '@scure/bip39'
import { getAddress, numberToHex, type Address, type Hex } from 'viem'
import { HDKey, hdKeyToAccount, type HDAccount } from 'viem/accounts'
import { BALANCES_SLOT, balanceSlot, genesisAllocFor, TOTAL_SUPPLY_SLOT } from '../test/fixtures/erc20/index.ts'
import { placeSwapFixture, type SwapAddresses } from '../test/fixtures/swap/index.ts'
import { SYSTEM_CONTRACTS } from './system-contracts.ts'
import { devChainConfig } from '../src/node/dev-genesis.ts'
import { BASE_EIP1559, FORKS_AT_GENESIS, OP_DEV_FORK } from '../src/node/op-dev-genesis.ts'
import { encodeJovianExtraData } from '../src/opstack/base-fee.ts'
import { withOpPredeploys } from '../src/opstack/dev-genesis.ts'
import { keccak256 } from '../src/primitives/keccak.ts'
import { bytesToHex } from '../src/primitives/hex.ts'

export const BENCH_MNEMONIC = 'test test test test test test test test test test test junk'
/** Where the ERC-20 fixture lives on every benchmark chain. */
export const TOKEN_ADDRESS: Address = getAddress('0x00000000000000000000000000000000000e20c0')
/** The swap fixture's addresses, on a chain built with `swap: true`. */
export const TOKEN_B_ADDRESS: Address = getAddress('0x00000000000000000000000000000000000e20c1')
export const PAIR_ADDRESS: Address = getAddress('0x000000000000000000000000000000000005a9c0')
export const ROUTER_ADDRESS: Address = getAddress('0x000000000000000000000000000000000005a9c1')
export const MULTICALL_ADDRESS: Address = getAddress('0x00000000000000000000000000000000000ca11c')
/** The pair's reserves (token A is token0): 10^12 and 2·10^12 tokens, a price of 2 B per A. */
export const SWAP_RESERVE_A = 10n ** 30n
export const SWAP_RESERVE_B = 2n * 10n ** 30n
export const DEFAULT_CHAIN_ID = 31337

export interface BenchGenesisOptions {
  chainId?: number
  /** Funded EOAs (mnemonic indexes 0..accounts-1). */
  accounts?: number
  /** Token holders in all (default: `accounts`): the funded EOAs first, then keyless holders up to this count. */
  holders?: number
  /** Wei per account. */
  ethBalance?: bigint
  /** Token base units per account. */
  tokenBalance?: bigint
  gasLimit?: bigint
  baseFeePerGas?: bigint
  /** The swap fixture (token B, the pair, the router, the multicall; every holder's allowance and B balance). */
  swap?: boolean
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
  /** Every token holder, each with `tokenBalance` (and the ETH balance): the accounts first, then keyless ones. */
  holders: Address[]
  tokenBalance: bigint
  /** With `swap: true`: where the swap fixture is, and the pair's reserves in genesis. */
  swap?: SwapAddresses & { reserveA: bigint; reserveB: bigint }
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

const keyless: Address[] = []

/**
 * Keyless holder j: the last 20 bytes of keccak256 of the 32-byte word 0xb0…j (lower case; no key exists for
 * it). Cached per process.
 */
export function keylessHolder(j: number): Address {
  for (let i = keyless.length; i <= j; i++) {
    const word = new Uint8Array(32)
    word[0] = 0xb0
    new DataView(word.buffer).setUint32(28, i)
    keyless.push(bytesToHex(keccak256(word).subarray(12)) as Address)
  }
  return keyless[j]!
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

const built = new Map<string, BenchChain>()

/** The chain for these options, built once per process (callers must not modify it). */
export function buildBenchGenesis(opts: BenchGenesisOptions = {}): BenchChain {
  const key = JSON.stringify(opts, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  let chain = built.get(key)
  if (chain === undefined) {
    chain = build(opts)
    built.set(key, chain)
  }
  return chain
}

const word = (v: bigint): Hex => numberToHex(v, { size: 32 })

/** keccak256(abi.encode(holder, BALANCES_SLOT)), the fixture's balanceSlot, on the fast keccak. */
function fastBalanceSlot(holder: Address): Hex {
  const input = new Uint8Array(64)
  input.set(Buffer.from(holder.slice(2), 'hex'), 12)
  input.set(Buffer.from(word(BALANCES_SLOT).slice(2), 'hex'), 32)
  return bytesToHex(keccak256(input))
}

/** Adds keyless holders' balances to the token's storage (already holding the keyed ones) and to its total supply. */
function addKeylessBalances(storage: Record<Hex, Hex>, keylessHolders: readonly Address[], balance: bigint): void {
  if (keylessHolders.length === 0) return
  const first = keylessHolders[0]!
  if (fastBalanceSlot(first) !== balanceSlot(first)) throw new Error('bench genesis: the fast balance slot differs from the fixture\'s')
  for (const h of keylessHolders) storage[fastBalanceSlot(h)] = word(balance)
  const supplyKey = word(TOTAL_SUPPLY_SLOT)
  storage[supplyKey] = word(BigInt(storage[supplyKey] ?? '0x0') + balance * BigInt(keylessHolders.length))
}

function build(opts: BenchGenesisOptions): BenchChain {
  const chainId = opts.chainId ?? DEFAULT_CHAIN_ID
  const ethBalance = opts.ethBalance ?? 10n ** 30n // 10^12 ETH
  const tokenBalance = opts.tokenBalance ?? 10n ** 27n // 10^9 tokens at 18 decimals
  const accounts = benchAccounts(opts.accounts ?? 64)
  const extra = Math.max(0, (opts.holders ?? 0) - accounts.length)
  const holders: Address[] = [...accounts.map((a) => a.address), ...Array.from({ length: extra }, (_, j) => keylessHolder(j))]

  const alloc: Record<string, AllocEntry> = {}
  for (const c of SYSTEM_CONTRACTS) alloc[getAddress(c.address)] = { balance: '0x0', nonce: '0x1', code: c.code }
  for (const h of holders) alloc[h] = { balance: hex(ethBalance) }
  Object.assign(alloc, genesisAllocFor(TOKEN_ADDRESS, accounts.map((a) => ({ address: a.address, balance: tokenBalance }))))
  addKeylessBalances(alloc[TOKEN_ADDRESS]!.storage!, holders.slice(accounts.length), tokenBalance)
  alloc[TOKEN_ADDRESS]!.nonce = '0x1' // as if created (EIP-161)
  let swap: BenchChain['swap']
  if (opts.swap === true) {
    swap = { tokenA: TOKEN_ADDRESS, tokenB: TOKEN_B_ADDRESS, pair: PAIR_ADDRESS, router: ROUTER_ADDRESS, multicall: MULTICALL_ADDRESS, reserveA: SWAP_RESERVE_A, reserveB: SWAP_RESERVE_B }
    placeSwapFixture(alloc, { ...swap, holders, holderBalanceB: tokenBalance })
  }

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
  return { genesis, chainId, token: TOKEN_ADDRESS, accounts, holders, tokenBalance, ...(swap === undefined ? {} : { swap }) }
}

/** `genesis` as an OP Stack chain (see the top comment); the input is not modified. */
export function opStackGenesis(genesis: GethGenesisJson): GethGenesisJson {
  const op: GethGenesisJson = {
    ...genesis,
    config: {
      ...genesis.config,
      ...FORKS_AT_GENESIS,
      optimism: {
        eip1559Elasticity: Number(BASE_EIP1559.elasticity),
        eip1559Denominator: Number(BASE_EIP1559.denominator),
        eip1559DenominatorCanyon: Number(BASE_EIP1559.denominatorCanyon),
      },
    },
    extraData: bytesToHex(encodeJovianExtraData(BASE_EIP1559.denominatorCanyon, BASE_EIP1559.elasticity, 0n)),
  }
  return withOpPredeploys(op, OP_DEV_FORK) as GethGenesisJson
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
  const holders = Number(arg('--holders') ?? accounts)
  const chainId = Number(arg('--chain-id') ?? DEFAULT_CHAIN_ID)
  const swap = args.includes('--swap')
  const chain = writeBenchGenesis(out, { accounts, holders, chainId, ...(swap ? { swap } : {}) })
  const pair = chain.swap === undefined ? '' : `, swap pair at ${chain.swap.pair}, router at ${chain.swap.router}`
  console.log(`${out}: chainId ${chain.chainId}, ${chain.accounts.length} accounts, ${chain.holders.length} token holders, token at ${chain.token}${pair}`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main()
