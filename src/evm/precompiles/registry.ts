/**
 * Which precompile sits at which address in which fork: the dispatch table of the host's calls
 * (`precompileAt`) and the set EIP-2929 warms at the start of a transaction (`precompileAddresses`).
 *
 * | address     | precompile                    | from      |
 * | 0x01-0x04   | ECRECOVER, SHA256, RIPEMD160, IDENTITY | Frontier |
 * | 0x05-0x08   | MODEXP, BN254 ADD, MUL, PAIRING | Byzantium |
 * | 0x09        | BLAKE2F                       | Istanbul  |
 * | 0x0a        | POINT EVALUATION              | Cancun    |
 * | 0x0b-0x11   | BLS12-381 (EIP-2537)          | Prague    |
 * | 0x100       | P256VERIFY                    | Osaka     |
 * Fork-dependent prices inside one precompile are the precompile's business (it receives the Rules).
 * On an OP Stack chain from Fjord (rules.op.fjord) the OP fork's own set replaces this table (op-stack.ts),
 * as op-geth's; before Fjord an OP chain has Ethereum's set of its Ethereum fork.
 * The address lists are built once per Rules object (rulesFor shares one per fork) and shared (frozen).
 */

import type { Rules } from '../fork.ts'
import type { Precompile } from '../types.ts'
import { blsG1Add, blsG1Msm, blsG2Add, blsG2Msm, blsMapFp2ToG2, blsMapFpToG1, blsPairingCheck } from './bls12-381.ts'
import { blake2f } from './blake2f.ts'
import { bn254Add, bn254Mul, bn254Pairing } from './bn254.ts'
import { ecrecover } from './ecrecover.ts'
import { identity, ripemd160, sha256 } from './hashes.ts'
import { modexp } from './modexp.ts'
import { opPrecompileAddresses, opPrecompileAt } from './op-stack.ts'
import { P256VERIFY_ADDRESS, p256verify } from './p256verify.ts'
import { pointEvaluation } from './point-evaluation.ts'

export { P256VERIFY_ADDRESS }

/** Indexed by address for 0x01-0x11: the precompile and the flag that activates it. */
const LOW_TABLE: readonly (readonly [Precompile, (rules: Rules) => boolean])[] = [
  [ecrecover, () => true],
  [sha256, () => true],
  [ripemd160, () => true],
  [identity, () => true],
  [modexp, (r) => r.byzantium],
  [bn254Add, (r) => r.byzantium],
  [bn254Mul, (r) => r.byzantium],
  [bn254Pairing, (r) => r.byzantium],
  [blake2f, (r) => r.istanbul],
  [pointEvaluation, (r) => r.cancun],
  [blsG1Add, (r) => r.prague],
  [blsG1Msm, (r) => r.prague],
  [blsG2Add, (r) => r.prague],
  [blsG2Msm, (r) => r.prague],
  [blsPairingCheck, (r) => r.prague],
  [blsMapFpToG1, (r) => r.prague],
  [blsMapFp2ToG2, (r) => r.prague],
]

/** The precompile at `address` in the fork of `rules`, or undefined when none is active there. */
export function precompileAt(address: bigint, rules: Rules): Precompile | undefined {
  const op = rules.op
  if (op !== undefined && op.fjord) return opPrecompileAt(address, op)
  if (address <= 0x11n) {
    if (address === 0n) return undefined
    const entry = LOW_TABLE[Number(address) - 1]!
    return entry[1](rules) ? entry[0] : undefined
  }
  if (address === P256VERIFY_ADDRESS) return rules.osaka ? p256verify : undefined
  return undefined
}

const addressCache = new WeakMap<Rules, readonly bigint[]>()

/** The addresses of the precompiles active in the fork of `rules`, ascending (one shared array per fork). */
export function precompileAddresses(rules: Rules): readonly bigint[] {
  const cached = addressCache.get(rules)
  if (cached !== undefined) return cached
  if (rules.op !== undefined && rules.op.fjord) {
    const addresses = opPrecompileAddresses(rules.op)
    addressCache.set(rules, addresses)
    return addresses
  }
  const addresses: bigint[] = []
  for (let i = 0; i < LOW_TABLE.length; i++) if (LOW_TABLE[i]![1](rules)) addresses.push(BigInt(i + 1))
  if (rules.osaka) addresses.push(P256VERIFY_ADDRESS)
  const frozen = Object.freeze(addresses)
  addressCache.set(rules, frozen)
  return frozen
}

const addressSetCache = new WeakMap<Rules, ReadonlySet<bigint>>()

/** precompileAddresses as a set (one shared set per fork; never written). */
export function precompileAddressSet(rules: Rules): ReadonlySet<bigint> {
  let set = addressSetCache.get(rules)
  if (set === undefined) {
    set = new Set(precompileAddresses(rules))
    addressSetCache.set(rules, set)
  }
  return set
}
