/**
 * From a fixture case to what the EVM takes: the pre-state, the block (BlockEnv) and, for one post entry's
 * indexes, the transaction (TxInput). The choices follow geth's state-test runner (tests/state_test_util.go):
 *
 * - fork names: the corpus's names onto ours; Constantinople runs as Petersburg (ConstantinopleFix), as
 *   fork.ts decides for every chain.
 * - base fee: the env's, and from London on 0x0a when the env has none (retesteth's genesis base fee 0x10
 *   minus its decay); 0 before London.
 * - PREVRANDAO: currentRandom (read by the interpreter from Paris on); DIFFICULTY: currentDifficulty.
 * - BLOCKHASH(n) = keccak256 of n written in decimal, as geth's vmTestBlockHash does.
 * - blob base fee: EIP-4844's fake_exponential(1, excessBlobGas, update fraction of the fork) from Cancun on.
 * - chain id 1; the sender from secretKey (secp256k1), else `sender`.
 * - the transaction type from the fields present (authorizationList 4, blobVersionedHashes 3,
 *   maxFeePerGas 2, an access list for this data index 1, else 0), which is the type txbytes carries.
 * A field a transaction cannot hold (a value above 2^256 - 1, the corpus's `0x:bigint` notation included)
 * makes the transaction unbuildable: TxBuildError, which counts as a rejection.
 */

import { createRequire } from 'node:module'
import type { AccessListEntry, Authorization, BlockEnv, TxInput } from '../../src/evm/types.ts'
import { rulesFor, type ForkName, type Rules } from '../../src/evm/fork.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { bytesToBigInt, hexToBytes } from '../../src/primitives/hex.ts'
import type { FixtureCase, FixtureEnv, FixturePost, FixtureTransaction } from './fixtures.ts'
import { accountState, type AccountState, type WorldSnapshot } from './world.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

/** The corpus's fork names we run, onto ours. */
export const FIXTURE_FORKS: Readonly<Record<string, ForkName>> = {
  Frontier: 'frontier',
  Homestead: 'homestead',
  EIP150: 'tangerineWhistle',
  EIP158: 'spuriousDragon',
  Byzantium: 'byzantium',
  Constantinople: 'constantinople',
  ConstantinopleFix: 'constantinople',
  Petersburg: 'constantinople',
  Istanbul: 'istanbul',
  Berlin: 'berlin',
  London: 'london',
  Merge: 'paris',
  Paris: 'paris',
  Shanghai: 'shanghai',
  Cancun: 'cancun',
  Prague: 'prague',
  Osaka: 'osaka',
}

export class TxBuildError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TxBuildError'
  }
}

const MAX_UINT256 = (1n << 256n) - 1n

/** A hex number of the corpus (also its `0x:bigint 0x…` notation for values beyond 256 bits). */
export function fixtureNumber(text: string): bigint {
  const hex = text.startsWith('0x:bigint ') ? text.slice('0x:bigint '.length) : text
  return hex === '0x' || hex === '' ? 0n : BigInt(hex)
}

function word(text: string, what: string): bigint {
  const v = fixtureNumber(text)
  if (v > MAX_UINT256) throw new TxBuildError(`${what} exceeds 256 bits`)
  return v
}

export function buildPreState(pre: FixtureCase['pre']): WorldSnapshot {
  const world = new Map<bigint, AccountState>()
  for (const [address, account] of Object.entries(pre)) {
    const storage = new Map<bigint, bigint>()
    for (const [slot, value] of Object.entries(account.storage)) {
      const v = fixtureNumber(value)
      if (v !== 0n) storage.set(fixtureNumber(slot), v)
    }
    world.set(
      BigInt(address),
      accountState({ nonce: fixtureNumber(account.nonce), balance: fixtureNumber(account.balance), code: hexToBytes(account.code), storage }),
    )
  }
  return world
}

/** EIP-4844: factor * e^(numerator / denominator), in integers. */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n
  let output = 0n
  let accumulator = factor * denominator
  while (accumulator > 0n) {
    output += accumulator
    accumulator = (accumulator * numerator) / (denominator * i)
    i++
  }
  return output / denominator
}

const GAS_PER_BLOB = 131072n

function blobSchedule(rules: Rules): { readonly maxBlobs: bigint; readonly updateFraction: bigint } {
  if (rules.prague) return { maxBlobs: 9n, updateFraction: 5007716n }
  if (rules.cancun) return { maxBlobs: 6n, updateFraction: 3338477n }
  return { maxBlobs: 0n, updateFraction: 1n }
}

const blockHashCache = new Map<bigint, bigint>()

/** geth's state-test BLOCKHASH: keccak256 of the decimal digits of the number. */
export function testBlockHash(n: bigint): bigint {
  let h = blockHashCache.get(n)
  if (h === undefined) {
    h = bytesToBigInt(keccak256(new TextEncoder().encode(n.toString(10))))
    blockHashCache.set(n, h)
  }
  return h
}

export function buildBlockEnv(env: FixtureEnv, fork: ForkName): BlockEnv {
  const rules = rulesFor(fork)
  const schedule = blobSchedule(rules)
  const excess = env.currentExcessBlobGas === undefined ? 0n : fixtureNumber(env.currentExcessBlobGas)
  return {
    number: fixtureNumber(env.currentNumber),
    timestamp: fixtureNumber(env.currentTimestamp),
    coinbase: BigInt(env.currentCoinbase),
    gasLimit: fixtureNumber(env.currentGasLimit),
    baseFee: rules.london ? (env.currentBaseFee === undefined ? 10n : fixtureNumber(env.currentBaseFee)) : 0n,
    difficulty: fixtureNumber(env.currentDifficulty),
    prevRandao: env.currentRandom === undefined ? 0n : fixtureNumber(env.currentRandom),
    blobBaseFee: rules.cancun ? fakeExponential(1n, excess, schedule.updateFraction) : 0n,
    maxBlobGasPerBlock: schedule.maxBlobs * GAS_PER_BLOB,
    chainId: 1n,
    blockHash: testBlockHash,
  }
}

const senderCache = new Map<string, bigint>()

export function senderOf(tx: FixtureTransaction): bigint {
  const key = tx.secretKey
  if (key === undefined || key === '' || key === '0x') {
    if (tx.sender === undefined) throw new TxBuildError('neither secretKey nor sender')
    return BigInt(tx.sender)
  }
  let from = senderCache.get(key)
  if (from === undefined) {
    const publicKey = secp256k1.publicKeyCreate(hexToBytes(key), false)
    from = bytesToBigInt(keccak256(publicKey.subarray(1)).subarray(12))
    senderCache.set(key, from)
  }
  return from
}

function accessListOf(entries: readonly { address: string; storageKeys: readonly string[] }[]): AccessListEntry[] {
  return entries.map((e) => ({ address: BigInt(e.address), storageKeys: e.storageKeys.map((k) => word(k, 'storage key')) }))
}

export function buildTxInput(tx: FixtureTransaction, indexes: FixturePost['indexes']): TxInput {
  const data = tx.data[indexes.data]
  const gasLimit = tx.gasLimit[indexes.gas]
  const value = tx.value[indexes.value]
  if (data === undefined || gasLimit === undefined || value === undefined) throw new Error(`indexes ${JSON.stringify(indexes)} out of range`)
  if (data.startsWith('0x:') || !data.startsWith('0x')) throw new Error(`data in an unsupported notation: ${data.slice(0, 20)}`)
  const accessList = tx.accessLists?.[indexes.data] ?? undefined
  const common = {
    from: senderOf(tx),
    nonce: word(tx.nonce, 'nonce'),
    gasLimit: word(gasLimit, 'gas limit'),
    to: tx.to === '' || tx.to === undefined ? undefined : BigInt(tx.to),
    value: word(value, 'value'),
    data: hexToBytes(data),
  }
  const dynamicFees = () => {
    if (tx.maxFeePerGas === undefined || tx.maxPriorityFeePerGas === undefined) throw new TxBuildError('dynamic-fee transaction without maxFeePerGas/maxPriorityFeePerGas')
    return { maxFeePerGas: word(tx.maxFeePerGas, 'maxFeePerGas'), maxPriorityFeePerGas: word(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas') }
  }
  if (tx.authorizationList !== undefined) {
    const authorizationList: Authorization[] = tx.authorizationList.map((a) => ({
      chainId: word(a.chainId, 'authorization chainId'),
      address: BigInt(a.address),
      nonce: word(a.nonce, 'authorization nonce'),
      yParity: word(a.yParity ?? a.v ?? '0x0', 'authorization yParity'),
      r: word(a.r, 'authorization r'),
      s: word(a.s, 'authorization s'),
    }))
    return { type: 4, ...common, ...dynamicFees(), accessList: accessListOf(accessList ?? []), authorizationList }
  }
  if (tx.blobVersionedHashes !== undefined) {
    return {
      type: 3,
      ...common,
      ...dynamicFees(),
      maxFeePerBlobGas: word(tx.maxFeePerBlobGas ?? '0x0', 'maxFeePerBlobGas'),
      blobVersionedHashes: tx.blobVersionedHashes.map((h) => word(h, 'blob versioned hash')),
      accessList: accessListOf(accessList ?? []),
    }
  }
  if (tx.maxFeePerGas !== undefined) return { type: 2, ...common, ...dynamicFees(), accessList: accessListOf(accessList ?? []) }
  if (tx.gasPrice === undefined) throw new TxBuildError('no gas price provided')
  const gasPrice = word(tx.gasPrice, 'gasPrice')
  if (accessList !== undefined) return { type: 1, ...common, gasPrice, accessList: accessListOf(accessList) }
  return { type: 0, ...common, gasPrice }
}

/** The type byte of a transaction's encoding (0 for a legacy RLP list). */
export function encodedType(txbytes: string): number {
  const first = parseInt(txbytes.slice(2, 4), 16)
  return first >= 0xc0 ? 0 : first
}
