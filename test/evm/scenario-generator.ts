/**
 * Random scenarios for the differential test: a fork (Frontier to Osaka, weighted to recent ones), a
 * pre-state (a funded sender, a few contracts with generated code, balances and storage, a second EOA that
 * may be delegated, absent, empty or holding code, an empty account, sometimes an empty precompile
 * account), a block environment and one
 * transaction of a type the fork allows (sometimes deliberately invalid: wrong nonce, too little gas or
 * balance, fee caps under the base fee, malformed blob or authorization lists; and limits at exactly their
 * bound and one past it). EIP-7702 authorizations are really signed, with keys fixed here, and sometimes
 * turned into their high-s twins.
 *
 * A scenario is plain data plus BlockEnv.blockHash (a pure function of the number), so both EVMs can be
 * given the same one. Deterministic in (seed, index).
 */

import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { encodeRlp } from '../../src/primitives/rlp-encode.ts'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt } from '../../src/primitives/hex.ts'
import { FORK_NAMES, rulesFor, type ForkName, type Rules } from '../../src/evm/fork.ts'
import type { AccessListEntry, Authorization, BlockEnv, TxInput } from '../../src/evm/types.ts'
import { Rng } from '../support/rng.ts'
import { forkAtLeast, generateInitcode, generateProgram, type ProgramContext } from './program-generator.ts'
import { PRECOMPILE_ADDRESSES } from './precompile-inputs.ts'
import type { AccountState, WorldSnapshot } from '../state-tests/world.ts'

/** A pre-state account (test/state-tests/world.ts's plain-data account: non-zero storage only). */
export type PreAccount = AccountState

export interface Scenario {
  /** `seed:index`, what reproduces it. */
  readonly id: string
  readonly fork: ForkName
  readonly pre: WorldSnapshot
  readonly block: BlockEnv
  readonly tx: TxInput
}

const FORK_WEIGHTS: Record<ForkName, number> = {
  frontier: 2, homestead: 2, tangerineWhistle: 2, spuriousDragon: 2, byzantium: 3, constantinople: 3, istanbul: 4,
  berlin: 5, london: 6, paris: 6, shanghai: 8, cancun: 15, prague: 18, osaka: 18,
}

function keyOf(n: bigint): Uint8Array {
  return bigIntToFixedBytes(n, 32)
}

function addressOfKey(key: Uint8Array): bigint {
  const pub = secp256k1.getPublicKey(key, false)
  return bytesToBigInt(keccak256(pub.subarray(1)).subarray(12))
}

const SENDER_KEY = keyOf(0x45a915e4d060149eb4365960e6a7a45f334393093061116b197e3240065ff2d8n)
const EOA_KEY = keyOf(0x1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988n)
export const SENDER = addressOfKey(SENDER_KEY)
export const SECOND_EOA = addressOfKey(EOA_KEY)
export const EMPTY_ACCOUNT = 0xe0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0n
export const ABSENT_ACCOUNT = 0xdeaddeaddeaddeaddeaddeaddeaddeaddeaddeadn
const CONTRACT_BASE = 0xc0de000000000000000000000000000000000000n
const SECP256K1_N = secp256k1.Point.Fn.ORDER

export function blockHashOf(number: bigint): bigint {
  return bytesToBigInt(keccak256(bigIntToFixedBytes(number, 32)))
}

function pickFork(rng: Rng): ForkName {
  let total = 0
  for (const f of FORK_NAMES) total += FORK_WEIGHTS[f]
  let r = rng.int(total)
  for (const f of FORK_NAMES) {
    if (r < FORK_WEIGHTS[f]) return f
    r -= FORK_WEIGHTS[f]
  }
  return 'cancun'
}

/** The intrinsic gas as the fork charges it (EIP-2, 2028, 2930, 3860, 7702), and the EIP-7623 floor. */
export function intrinsicGas(rules: Rules, tx: Pick<TxInput, 'to' | 'data' | 'accessList' | 'authorizationList'>): { intrinsic: bigint; floor: bigint } {
  let zeros = 0n
  let nonZeros = 0n
  for (const b of tx.data) if (b === 0) zeros++
  else nonZeros++
  let gas = 21000n + zeros * 4n + nonZeros * (rules.istanbul ? 16n : 68n)
  if (tx.to === undefined) {
    if (rules.homestead) gas += 32000n
    if (rules.shanghai) gas += 2n * ((BigInt(tx.data.length) + 31n) / 32n)
  }
  for (const entry of tx.accessList ?? []) gas += 2400n + 1900n * BigInt(entry.storageKeys.length)
  gas += 25000n * BigInt(tx.authorizationList?.length ?? 0)
  const floor = rules.prague ? 21000n + 10n * (zeros + 4n * nonZeros) : 0n
  return { intrinsic: gas, floor }
}

const signedAuthorizations = new Map<string, Authorization>()

function signAuthorization(key: Uint8Array, chainId: bigint, address: bigint, nonce: bigint): Authorization {
  const memo = `${key[31]}:${chainId}:${address}:${nonce}`
  const hit = signedAuthorizations.get(memo)
  if (hit !== undefined) return hit
  const payload = encodeRlp([bigIntToMinimalBytes(chainId), bigIntToFixedBytes(address, 20), bigIntToMinimalBytes(nonce)])
  const message = keccak256(Uint8Array.of(0x05, ...payload))
  const sig = secp256k1.sign(message, key, { prehash: false, format: 'recovered' })
  const auth = { chainId, address, nonce, yParity: BigInt(sig[0]!), r: bytesToBigInt(sig.subarray(1, 33)), s: bytesToBigInt(sig.subarray(33, 65)) }
  signedAuthorizations.set(memo, auth)
  return auth
}

function maxBlobGas(rules: Rules): bigint {
  if (!rules.cancun) return 0n
  return rules.prague ? 1_179_648n : 786_432n
}

export interface ScenarioOptions {
  /** Only this fork. */
  readonly fork?: ForkName
}

/** The scenario `index` of the run seeded with `seed`. */
export function generateScenario(seed: number, index: number, options: ScenarioOptions = {}): Scenario {
  const rng = new Rng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0)
  const fork = options.fork ?? pickFork(rng)
  const rules = rulesFor(fork)
  const chainId = rng.chance(0.9) ? 1n : BigInt(rng.range(2, 100_000))

  // ---- accounts ----
  const contractCount = rng.range(2, 5)
  const contracts: bigint[] = []
  for (let i = 0; i < contractCount; i++) contracts.push(CONTRACT_BASE + BigInt(i + 1))
  const coinbaseKind = rng.int(10)
  const coinbase = coinbaseKind < 6 ? 0xc01bba5e00000000000000000000000000000000n
    : coinbaseKind < 7 ? SENDER
    : coinbaseKind < 9 ? rng.pick(contracts)
    : rng.pick([EMPTY_ACCOUNT, ABSENT_ACCOUNT, 1n, 3n])
  const others = [SENDER, SECOND_EOA, EMPTY_ACCOUNT, ABSENT_ACCOUNT, coinbase, ABSENT_ACCOUNT + 1n]
  const slots = [0n, 1n, 2n, 3n, 1n << 255n, 0x100n, 0x101n]

  const pre = new Map<bigint, PreAccount>()
  for (const address of contracts) {
    const storage = new Map<bigint, bigint>()
    for (const slot of slots) {
      if (rng.chance(0.35)) storage.set(slot, rng.pick([1n, 2n, BigInt(rng.range(3, 1000)), (1n << 256n) - 1n]))
    }
    const driver = address === contracts[0]
    const ctx: ProgramContext = { rng, fork, contracts, others, slots, originals: storage, createDepth: 2, calm: driver && rng.chance(0.7) }
    const size = driver ? rng.range(8, 30) : rng.range(2, 18)
    const code = generateProgram(ctx, size)
    const balance = rng.chance(0.4) ? 0n : BigInt(rng.range(1, 1_000_000_000))
    // EIP-2681: a contract at the highest nonce cannot create
    const nonce = rng.chance(0.02) ? (1n << 64n) - 1n : rng.chance(0.8) ? 1n : BigInt(rng.range(0, 3))
    pre.set(address, { balance, nonce, code, storage })
  }
  const senderDelegated = rules.prague && rng.chance(0.1)
  const senderNonce = rng.chance(0.6) ? 0n : rng.chance(0.02) ? (1n << 64n) - 1n : BigInt(rng.range(1, 50))
  const senderBalance = rng.chance(0.97) ? 10n ** 30n : BigInt(rng.range(0, 10_000_000))
  pre.set(SENDER, {
    balance: senderBalance,
    nonce: senderNonce,
    code: senderDelegated ? delegation(rng.pick(contracts)) : new Uint8Array(0),
    storage: new Map(),
  })
  // The second EOA signs the authorizations: sometimes absent, sometimes existing but empty (EIP-7702's
  // refund is for an authority that exists, empty or not), sometimes holding contract code (skipped).
  const eoaShape = rng.int(20)
  const eoaNonce = eoaShape < 4 ? 0n : BigInt(rng.range(0, 3))
  if (eoaShape >= 2) {
    const empty = eoaShape < 4
    pre.set(SECOND_EOA, {
      balance: empty ? 0n : BigInt(rng.range(0, 1_000_000)),
      nonce: eoaNonce,
      code: eoaShape === 4 ? Uint8Array.of(0x60, 0x01, 0x00) : !empty && rules.prague && rng.chance(0.3) ? delegation(rng.pick(contracts)) : new Uint8Array(0),
      storage: new Map(),
    })
  }
  if (rng.chance(0.5)) pre.set(EMPTY_ACCOUNT, { balance: 0n, nonce: 0n, code: new Uint8Array(0), storage: new Map() })
  // An existing empty precompile account: EIP-161 deletes it once touched, and a touch of 0x03 (RIPEMD-160)
  // outlives a reverted frame or a failed call.
  if (rng.chance(0.15)) pre.set(rng.pick([3n, 3n, 4n, 1n]), { balance: 0n, nonce: 0n, code: new Uint8Array(0), storage: new Map() })

  // ---- block ----
  const baseFee = rules.london ? rng.pick([1n, 7n, 10n, 875_000_000n]) : 0n
  const blobBaseFee = rules.cancun ? rng.pick([1n, 1n, 2n, 17n]) : 0n
  const number = rng.pick([1n, 2n, 256n, 257n, 1000n, BigInt(rng.range(1, 20_000_000))])
  const block: BlockEnv = {
    number,
    timestamp: BigInt(rng.range(1_000, 2_000_000_000)),
    coinbase,
    gasLimit: rng.chance(0.99) ? 30_000_000n : 100_000n,
    baseFee,
    difficulty: rules.paris ? 0n : BigInt(rng.range(131_072, 10_000_000)),
    prevRandao: rules.paris ? bytesToBigInt(rng.bytes(32)) : 0n,
    blobBaseFee,
    maxBlobGasPerBlock: maxBlobGas(rules),
    chainId,
    blockHash: blockHashOf,
  }

  // ---- transaction ----
  const types: (0 | 1 | 2 | 3 | 4)[] = [0, 0]
  if (rules.berlin) types.push(1)
  if (rules.london) types.push(2, 2, 2)
  if (rules.cancun) types.push(3)
  if (rules.prague) types.push(4, 4)
  const type = rng.pick(types)
  const isCreate = type <= 2 && rng.chance(0.14)
  let to: bigint | undefined
  if (!isCreate) {
    const r = rng.int(100)
    to = r < 75 ? contracts[0]! : r < 88 ? rng.pick(contracts) : r < 94 ? rng.pick(others) : rng.pick(PRECOMPILE_ADDRESSES)
  }
  const ctx: ProgramContext = { rng, fork, contracts, others, slots, originals: new Map(), createDepth: 1 }
  const data = isCreate ? generateInitcode(ctx) : rng.chance(0.3) ? new Uint8Array(0) : rng.bytes(rng.range(1, 68))
  if (!isCreate && data.length > 0 && rng.chance(0.5)) data.fill(0, 0, rng.int(data.length))
  const valueKind = rng.int(20)
  const value = valueKind < 11 ? 0n : valueKind < 18 ? BigInt(rng.range(1, 1_000_000)) : 10n ** 18n

  let accessList: AccessListEntry[] | undefined
  if (type >= 1) {
    accessList = []
    if (rng.chance(0.5)) {
      for (let i = rng.range(1, 3); i > 0; i--) {
        const address = rng.pick([...contracts, ...others, ...PRECOMPILE_ADDRESSES.slice(0, 4)])
        const storageKeys = rng.chance(0.6) ? [rng.pick(slots), rng.pick(slots)].slice(0, rng.range(1, 2)) : []
        accessList.push({ address, storageKeys })
      }
    }
  }

  let authorizationList: Authorization[] | undefined
  if (type === 4) {
    authorizationList = []
    const count = rng.chance(0.03) ? 0 : rng.range(1, 3)
    for (let i = 0; i < count; i++) {
      const bySender = rng.chance(0.2)
      const key = bySender ? SENDER_KEY : EOA_KEY
      // the sender's own nonce is bumped before authorizations are applied
      let nonce = bySender ? senderNonce + 1n : eoaNonce + BigInt(i > 0 && rng.chance(0.5) ? 1 : 0)
      if (rng.chance(0.1)) nonce += 5n
      const chain = rng.chance(0.85) ? rng.pick([chainId, 0n]) : 999_999n
      const target = rng.chance(0.8) ? rng.pick(contracts) : rng.pick([0n, 1n, SECOND_EOA])
      let auth = signAuthorization(key, chain, target, nonce)
      if (rng.chance(0.04)) auth = { ...auth, s: auth.s | (1n << 255n) }
      else if (rng.chance(0.04)) auth = { ...auth, yParity: 2n }
      // the same signature's high-s twin: recovers the same authority, which EIP-7702 refuses
      else if (rng.chance(0.06)) auth = { ...auth, s: SECP256K1_N - auth.s, yParity: auth.yParity ^ 1n }
      authorizationList.push(auth)
    }
  }

  let blobVersionedHashes: bigint[] | undefined
  let maxFeePerBlobGas: bigint | undefined
  if (type === 3) {
    const maxBlobs = Number(block.maxBlobGasPerBlock / 131_072n)
    // None, the block's limit and one past it, Osaka's per-transaction cap (EIP-7594) and one past it.
    const r = rng.int(100)
    const count = r < 3 ? 0 : r < 6 ? maxBlobs + 1 : r < 9 ? maxBlobs : r < 25 && rules.osaka ? rng.pick([6, 7]) : rng.range(1, 3)
    blobVersionedHashes = []
    for (let i = 0; i < count; i++) blobVersionedHashes.push((BigInt(rng.chance(0.03) ? 2 : 1) << 248n) | bytesToBigInt(rng.bytes(31)))
    maxFeePerBlobGas = rng.chance(0.03) ? 0n : blobBaseFee * BigInt(rng.range(1, 3))
  }

  // Sometimes an account already sits where the transaction's or the main contract's next CREATE goes
  // (a collision: nonce or code; a balance alone is no collision). Storage alone (EIP-7610) is left out: the
  // oracle's SimpleStateManager keeps no storage root, so the library never sees that collision.
  const squat = (address: bigint): void => {
    const kind = rng.int(3)
    pre.set(address, {
      balance: kind === 2 ? 5n : 0n,
      nonce: kind === 0 ? 1n : 0n,
      code: kind === 1 ? Uint8Array.of(0x00) : new Uint8Array(0),
      storage: new Map(),
    })
  }
  if (isCreate && rng.chance(0.25)) squat(createAddress(SENDER, senderNonce))
  if (rng.chance(0.1)) squat(createAddress(contracts[0]!, pre.get(contracts[0]!)!.nonce))

  const { intrinsic, floor } = intrinsicGas(rules, { to, data, accessList, authorizationList })
  const needed = intrinsic > floor ? intrinsic : floor
  const g = rng.int(100)
  let gasLimit: bigint
  if (g < 55) gasLimit = needed + BigInt(rng.range(100_000, 800_000))
  else if (g < 85) gasLimit = needed + BigInt(rng.range(800_000, 2_500_000))
  else if (g < 93) gasLimit = needed + BigInt(rng.range(0, 60_000))
  else if (g < 96) gasLimit = needed - BigInt(rng.range(0, 1))
  // a limit at exactly its bound, or one past it: EIP-7825's cap from Osaka, else the block's gas limit
  else gasLimit = rng.pick(rules.osaka ? [1n << 24n, (1n << 24n) + 1n] : [block.gasLimit, block.gasLimit + 1n])

  let nonce = senderNonce
  if (rng.chance(0.03)) nonce += rng.pick([1n, -1n])
  if (nonce < 0n) nonce = 1n

  const priority = rng.pick([0n, 1n, 2n, 1_000_000_000n])
  let feeFields: Partial<TxInput>
  if (type >= 2) {
    let maxFeePerGas = baseFee + priority + BigInt(rng.range(0, 1000))
    let maxPriorityFeePerGas = priority
    if (rng.chance(0.03) && baseFee > 0n) maxFeePerGas = baseFee - 1n
    if (rng.chance(0.02)) maxPriorityFeePerGas = maxFeePerGas + 1n
    feeFields = { maxFeePerGas, maxPriorityFeePerGas }
  } else {
    let gasPrice = baseFee + priority + BigInt(rng.range(0, 1000))
    if (rng.chance(0.03) && baseFee > 0n) gasPrice = baseFee - 1n
    feeFields = { gasPrice }
  }

  const tx: TxInput = {
    type,
    from: SENDER,
    nonce,
    gasLimit,
    to,
    value,
    data,
    ...feeFields,
    ...(accessList !== undefined ? { accessList } : {}),
    ...(authorizationList !== undefined ? { authorizationList } : {}),
    ...(blobVersionedHashes !== undefined ? { blobVersionedHashes, maxFeePerBlobGas } : {}),
  }
  return { id: `${seed}:${index}`, fork, pre, block, tx }
}

/** CREATE's address: the last 20 bytes of keccak(rlp([creator, nonce])). */
export function createAddress(creator: bigint, nonce: bigint): bigint {
  return bytesToBigInt(keccak256(encodeRlp([bigIntToFixedBytes(creator, 20), bigIntToMinimalBytes(nonce)])).subarray(12))
}

function delegation(target: bigint): Uint8Array {
  return Uint8Array.of(0xef, 0x01, 0x00, ...bigIntToFixedBytes(target, 20))
}

/** Every address a scenario names in its pre-state or transaction (the state comparison looks at all of them). */
export function scenarioAddresses(s: Scenario): bigint[] {
  const out = new Set<bigint>(s.pre.keys())
  out.add(s.tx.from)
  if (s.tx.to !== undefined) out.add(s.tx.to)
  out.add(s.block.coinbase)
  out.add(EMPTY_ACCOUNT)
  out.add(ABSENT_ACCOUNT)
  return [...out]
}

export { forkAtLeast }
