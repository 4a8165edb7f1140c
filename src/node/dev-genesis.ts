/**
 * The development chain a plain `flashnode start` runs: a geth-format genesis on Prague rules from block 0,
 * funding the first accounts of the well-known test mnemonic (as Anvil and Hardhat do), so that any wallet
 * or library works against it at once. Its keys are public: never use them on a real network.
 */

import { HDKey } from '@scure/bip32'
import { pbkdf2Sync } from 'node:crypto'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../primitives/keccak.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { GethGenesis } from '../execution/chain-config.ts'
import { SYSTEM_CONTRACTS } from '../evm/system-contracts.ts'

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk'

export interface DevAccount {
  readonly address: string
  readonly privateKey: string
}

export interface DevChainOptions {
  readonly chainId: bigint
  readonly gasLimit: bigint
  readonly baseFee: bigint
  readonly accounts: number
  /** Wei per account. */
  readonly balance: bigint
}

export function devAccounts(count: number, mnemonic = TEST_MNEMONIC): DevAccount[] {
  // m/44'/60'/0'/0 once, then one child per account (deriving each full path repeated four hardened steps).
  const parent = HDKey.fromMasterSeed(bip39Seed(mnemonic)).derive(`m/44'/60'/0'/0`)
  return Array.from({ length: count }, (_, i) => {
    const key = parent.deriveChild(i).privateKey!
    const pub = secp256k1.getPublicKey(key, false).subarray(1)
    return { address: bytesToHex(keccak256(pub).subarray(12)), privateKey: bytesToHex(key) }
  })
}

/** geth-format chain config with every fork through Prague active from genesis. */
export function devChainConfig(chainId: bigint): Record<string, unknown> {
  return {
    chainId: Number(chainId),
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    berlinBlock: 0,
    londonBlock: 0,
    mergeNetsplitBlock: 0,
    terminalTotalDifficulty: 0,
    shanghaiTime: 0,
    cancunTime: 0,
    pragueTime: 0,
    blobSchedule: {
      cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
    },
  }
}

export function devGenesis(opts: DevChainOptions): GethGenesis {
  const alloc: Record<string, { balance: string; code?: string; nonce?: string }> = {}
  for (const c of SYSTEM_CONTRACTS) alloc[c.address] = { balance: '0x0', nonce: '0x1', code: c.code }
  for (const a of devAccounts(opts.accounts)) alloc[a.address] = { balance: `0x${opts.balance.toString(16)}` }
  return {
    config: devChainConfig(opts.chainId),
    nonce: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    gasLimit: `0x${opts.gasLimit.toString(16)}`,
    difficulty: '0x0',
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    baseFeePerGas: `0x${opts.baseFee.toString(16)}`,
    alloc,
  } as unknown as GethGenesis
}

/** BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), with node's native PBKDF2: the JS one took ~0.3 s at every start. */
function bip39Seed(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
}
