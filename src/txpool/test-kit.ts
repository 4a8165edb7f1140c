/**
 * Test and benchmark support for the pool (not a test itself): a chain with every fork from Berlin to Osaka
 * at known heights, deterministic keys, REAL signed transactions (the library builds them, the native
 * secp256k1 binding signs them), and a fake StateReader.
 */

import { createRequire } from 'node:module'
import { RLP, type Input } from '@ethereumjs/rlp'
import { createBlob4844Tx, createTx, type TypedTxData } from '@ethereumjs/tx'
import { Account, computeVersionedHash } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Common } from '@ethereumjs/common'
import { ChainRules, type GethGenesis } from '../execution/chain-config.ts'
import { bytesToHex, type Hex } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { PendingEnv } from './validate.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

export const CHAIN_ID = 1337n
export const GWEI = 10n ** 9n
export const ETHER = 10n ** 18n

export const GENESIS = {
  config: {
    chainId: Number(CHAIN_ID),
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    berlinBlock: 0,
    londonBlock: 10,
    mergeNetsplitBlock: 10,
    terminalTotalDifficulty: 0,
    shanghaiTime: 100,
    cancunTime: 200,
    pragueTime: 300,
    osakaTime: 400,
    blobSchedule: {
      cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
    },
  },
  nonce: '0x0',
  timestamp: '0x0',
  extraData: '0x',
  gasLimit: '0x1c9c380',
  difficulty: '0x0',
  mixHash: `0x${'00'.repeat(32)}`,
  coinbase: `0x${'00'.repeat(20)}`,
  baseFeePerGas: '0x3b9aca00',
  alloc: {},
} as unknown as GethGenesis

export const rules = new ChainRules(GENESIS)

export const forks = {
  berlin: rules.at(5n, 0n),
  london: rules.at(20n, 50n),
  cancun: rules.at(20n, 250n),
  prague: rules.at(20n, 350n),
  osaka: rules.at(20n, 450n),
}

export function env(common: Common = forks.osaka, overrides: Partial<PendingEnv> = {}): PendingEnv {
  return { common, baseFee: GWEI, blockGasLimit: 30_000_000n, ...overrides }
}

export interface Key {
  readonly secret: Uint8Array
  readonly address: Uint8Array
  readonly hex: Hex
}

export function makeKey(i: number): Key {
  const secret = keccak_256(new TextEncoder().encode(`flashnode txpool test key ${i}`))
  const address = keccak_256(secp256k1.publicKeyCreate(secret, false).subarray(1)).subarray(12)
  return { secret, address, hex: bytesToHex(address) }
}

export const keys = Array.from({ length: 4 }, (_, i) => makeKey(i))

/** Builds a transaction with the library and signs it with the native binding; returns the raw bytes. */
export function sign(data: TypedTxData, key: Key, common: Common = forks.osaka): Uint8Array {
  const unsigned = createTx(data, { common })
  const sig = secp256k1.ecdsaSign(unsigned.getHashedMessageToSign(), key.secret)
  const r = sig.signature.slice(0, 32)
  const s = sig.signature.slice(32, 64)
  const signed =
    unsigned.type === 0
      ? (unsigned as import('@ethereumjs/tx').LegacyTx).addSignature(BigInt(sig.recid), r, s, true)
      : unsigned.addSignature(BigInt(sig.recid), r, s)
  return signed.serialize()
}

export const TO = `0x${'11'.repeat(20)}` as const

/** The point at infinity: the KZG commitment and proof of an all-zero blob (no proof to compute). */
export const KZG_INFINITY = (() => {
  const p = new Uint8Array(48)
  p[0] = 0xc0
  return p
})()

/**
 * A signed Cancun blob transfer with nonce 0, in network form, carrying one all-zero blob (commitment and
 * proof: the point at infinity). Fee cap 10 gwei, tip 1 gwei and blob fee cap 100 unless given.
 */
export function signedBlobTx(key: Key, o: { feeCap?: bigint; tip?: bigint; blobFeeCap?: bigint } = {}): Uint8Array {
  const unsigned = createBlob4844Tx(
    {
      chainId: CHAIN_ID,
      nonce: 0n,
      maxFeePerGas: o.feeCap ?? 10n * GWEI,
      maxPriorityFeePerGas: o.tip ?? GWEI,
      maxFeePerBlobGas: o.blobFeeCap ?? 100n,
      gasLimit: 21_000n,
      to: TO,
      blobs: [new Uint8Array(131_072)],
      kzgCommitments: [KZG_INFINITY],
      kzgProofs: [KZG_INFINITY],
      blobVersionedHashes: [computeVersionedHash(bytesToHex(KZG_INFINITY), 1)],
    },
    { common: forks.cancun },
  )
  const sig = secp256k1.ecdsaSign(unsigned.getHashedMessageToSign(), key.secret)
  return unsigned.addSignature(BigInt(sig.recid), sig.signature.slice(0, 32), sig.signature.slice(32)).serializeNetworkWrapper()
}

export interface TransferOptions {
  feeCap?: bigint
  tip?: bigint
  gas?: bigint
  value?: bigint
  data?: Uint8Array
  to?: string
  chainId?: bigint
  common?: Common
}

/** An EIP-1559 transfer (2 gwei cap, 1 gwei tip, 21000 gas by default). */
export function transfer(key: Key, nonce: bigint | number, o: TransferOptions = {}): Uint8Array {
  const data: TypedTxData = {
    type: 2,
    nonce: BigInt(nonce),
    maxFeePerGas: o.feeCap ?? 2n * GWEI,
    maxPriorityFeePerGas: o.tip ?? GWEI,
    gasLimit: o.gas ?? 21_000n,
    value: o.value ?? 1n,
    chainId: o.chainId ?? CHAIN_ID,
    data: o.data ?? new Uint8Array(),
  }
  if (o.to !== '') (data as { to?: string }).to = o.to ?? TO
  return sign(data, key, o.common ?? forks.osaka)
}

export interface AccountState {
  nonce: bigint
  balance: bigint
}

/** A StateReader over a map of accounts; unknown accounts are absent. */
export class FakeState implements StateReader {
  readonly accounts = new Map<string, AccountState>()

  constructor(funded: readonly Key[] = keys, balance = 1000n * ETHER) {
    for (const k of funded) this.accounts.set(k.hex, { nonce: 0n, balance })
  }

  set(key: Key | Uint8Array, account: Partial<AccountState>): this {
    const hex = key instanceof Uint8Array ? bytesToHex(key) : key.hex
    const prev = this.accounts.get(hex) ?? { nonce: 0n, balance: 0n }
    this.accounts.set(hex, { ...prev, ...account })
    return this
  }

  getAccount(address: Uint8Array): Account | undefined {
    const a = this.accounts.get(bytesToHex(address))
    return a === undefined ? undefined : new Account(a.nonce, a.balance)
  }

  getStorage(): Uint8Array {
    return new Uint8Array()
  }

  getCode(): Uint8Array {
    return new Uint8Array()
  }
}

/**
 * Signs raw RLP fields the library would refuse to build (tip above fee cap, nonce 2^64-1, no
 * authorizations, …): type 0 is EIP-155 legacy, typed otherwise. Returns the raw bytes.
 */
export function signFields(type: number, fields: Input[], key: Key, chainId: bigint = CHAIN_ID): Uint8Array {
  if (type === 0) {
    const msg = keccak_256(RLP.encode([...fields, chainId, 0, 0]))
    const sig = secp256k1.ecdsaSign(msg, key.secret)
    const v = chainId * 2n + 35n + BigInt(sig.recid)
    return RLP.encode([...fields, v, sig.signature.slice(0, 32), sig.signature.slice(32)])
  }
  const body = RLP.encode(fields)
  const msg = keccak_256(concat(new Uint8Array([type]), body))
  const sig = secp256k1.ecdsaSign(msg, key.secret)
  return concat(new Uint8Array([type]), RLP.encode([...fields, sig.recid, sig.signature.slice(0, 32), sig.signature.slice(32)]))
}

/** A pre-EIP-155 legacy transfer (v = 27/28). */
export function unprotectedLegacy(key: Key, nonce: bigint): Uint8Array {
  const fields: Input[] = [nonce, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array()]
  const sig = secp256k1.ecdsaSign(keccak_256(RLP.encode(fields)), key.secret)
  return RLP.encode([...fields, 27 + sig.recid, sig.signature.slice(0, 32), sig.signature.slice(32)])
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/** The same chain rules under another chain id (for wrong-chain signatures). */
export const foreign = new ChainRules({
  ...GENESIS,
  config: { ...(GENESIS as unknown as { config: object }).config, chainId: 1 },
} as unknown as GethGenesis).at(20n, 450n)
