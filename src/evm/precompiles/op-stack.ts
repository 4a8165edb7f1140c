/**
 * The OP Stack's precompile sets from Fjord, as op-geth has them (core/vm/contracts.go: PrecompiledContracts
 * Fjord, Granite, Isthmus, Jovian; read at op-geth commit 70f87728169953b12c8561cdf02f566d943a112a). From Fjord
 * op-geth picks the set by the OP fork before it looks at any Ethereum fork, so on an OP chain neither Prague
 * nor Osaka decides what is here: no BLS12-381 before Isthmus whatever the Ethereum fork, and never Osaka's
 * MODEXP (EIP-7823/7883) or its 6900-gas P256VERIFY. Every precompile of a set runs as op-geth's set has it:
 * MODEXP priced by EIP-2565 (bigModExp{eip2565: true}), the bn254 ones by Istanbul's prices.
 *
 * | address     | Fjord          | Granite, Holocene | Isthmus            | Jovian             |
 * | 0x01-0x0a   | Cancun's       | Cancun's          | Cancun's           | Cancun's           |
 * | 0x08        | no limit       | ≤ 112687 bytes    | ≤ 112687 bytes     | ≤ 81984 bytes      |
 * | 0x0b-0x11   | none           | none              | BLS12-381 (limits) | BLS12-381 (limits) |
 * | 0x100       | P256VERIFY, 3450 gas (RIP-7212): every set                                     |
 *
 * BLS12-381 input limits, Isthmus / Jovian: G1 MSM (0x0c) 513760 / 288960, G2 MSM (0x0e) 488448 / 278784,
 * pairing (0x0f) 235008 / 156672 bytes; the other BLS precompiles take fixed-size inputs. The numbers are
 * op-geth's params/protocol_params.go (Bn256PairingMaxInputSizeGranite, Bls12381G1MulMaxInputSizeIsthmus,
 * Bls12381G2MulMaxInputSizeIsthmus, Bls12381PairingMaxInputSizeIsthmus, and the …Jovian ones) and the OP specs'
 * granite/, isthmus/ and jovian/exec-engine.md. An input over its limit fails the call (all the frame's gas
 * is consumed): op-geth's Run refuses it after RequiredGas was charged, which ends the same way.
 *
 * Owns: these sets. Never consulted on Ethereum or before Fjord (registry.ts asks only when rules.op.fjord);
 * never looks at the Rules it is given beyond the OP fork.
 */

import { rulesFor, type OpEvmForkName, type OpRules } from '../fork.ts'
import type { Precompile } from '../types.ts'
import { blsG1Add, blsG1Msm, blsG2Add, blsG2Msm, blsMapFp2ToG2, blsMapFpToG1, blsPairingCheck } from './bls12-381.ts'
import { blake2f } from './blake2f.ts'
import { bn254Add, bn254Mul, bn254Pairing } from './bn254.ts'
import { failure } from './common.ts'
import { ecrecover } from './ecrecover.ts'
import { identity, ripemd160, sha256 } from './hashes.ts'
import { modexp } from './modexp.ts'
import { P256VERIFY_ADDRESS, p256verifyFjord } from './p256verify.ts'
import { pointEvaluation } from './point-evaluation.ts'

/** op-geth's input limits (bytes), by the OP fork that set them. */
export const OP_INPUT_LIMITS = Object.freeze({
  granite: Object.freeze({ bn254Pairing: 112_687 }),
  isthmus: Object.freeze({ bn254Pairing: 112_687, blsG1Msm: 513_760, blsG2Msm: 488_448, blsPairing: 235_008 }),
  jovian: Object.freeze({ bn254Pairing: 81_984, blsG1Msm: 288_960, blsG2Msm: 278_784, blsPairing: 156_672 }),
})

/** The pricing every OP set runs with: EIP-2565 MODEXP, Istanbul's bn254, nothing of Osaka. */
const OP_SET_RULES = rulesFor('cancun')

/** `precompile` run with the OP set's pricing whatever the block's Ethereum fork. */
const asOpSet =
  (precompile: Precompile): Precompile =>
  (input, gas, _rules, deadline) =>
    precompile(input, gas, OP_SET_RULES, deadline)

/** `precompile` refusing an input longer than `maxInput` bytes. */
const limited =
  (precompile: Precompile, maxInput: number): Precompile =>
  (input, gas, _rules, deadline) =>
    input.length > maxInput ? failure(gas) : precompile(input, gas, OP_SET_RULES, deadline)

/** A set: the precompiles at 0x01-0x11 by address - 1 (undefined: none), and its addresses ascending. */
interface OpSet {
  readonly low: readonly (Precompile | undefined)[]
  readonly addresses: readonly bigint[]
}

function opSet(low: readonly (Precompile | undefined)[]): OpSet {
  const addresses: bigint[] = []
  for (let i = 0; i < low.length; i++) if (low[i] !== undefined) addresses.push(BigInt(i + 1))
  addresses.push(P256VERIFY_ADDRESS)
  return Object.freeze({ low: Object.freeze([...low]), addresses: Object.freeze(addresses) })
}

/** 0x01-0x0a, with the given pairing at 0x08. */
const cancunLike = (pairing: Precompile): Precompile[] => [
  ...[ecrecover, sha256, ripemd160, identity, modexp, bn254Add, bn254Mul].map(asOpSet),
  pairing,
  asOpSet(blake2f),
  asOpSet(pointEvaluation),
]

const bls = (limits: { readonly blsG1Msm: number; readonly blsG2Msm: number; readonly blsPairing: number }): Precompile[] => [
  asOpSet(blsG1Add),
  limited(blsG1Msm, limits.blsG1Msm),
  asOpSet(blsG2Add),
  limited(blsG2Msm, limits.blsG2Msm),
  limited(blsPairingCheck, limits.blsPairing),
  asOpSet(blsMapFpToG1),
  asOpSet(blsMapFp2ToG2),
]

const SETS: Readonly<Record<Exclude<OpEvmForkName, 'bedrock'>, OpSet>> = {
  fjord: opSet(cancunLike(asOpSet(bn254Pairing))),
  granite: opSet(cancunLike(limited(bn254Pairing, OP_INPUT_LIMITS.granite.bn254Pairing))),
  isthmus: opSet([...cancunLike(limited(bn254Pairing, OP_INPUT_LIMITS.isthmus.bn254Pairing)), ...bls(OP_INPUT_LIMITS.isthmus)]),
  jovian: opSet([...cancunLike(limited(bn254Pairing, OP_INPUT_LIMITS.jovian.bn254Pairing)), ...bls(OP_INPUT_LIMITS.jovian)]),
}

function setOf(op: OpRules): OpSet {
  if (op.name === 'bedrock') throw new Error('the OP precompile sets start at Fjord')
  return SETS[op.name]
}

/** The precompile at `address` in the set of `op`'s fork (Fjord or later), or undefined. */
export function opPrecompileAt(address: bigint, op: OpRules): Precompile | undefined {
  if (address <= 0x11n) return address === 0n ? undefined : setOf(op).low[Number(address) - 1]
  return address === P256VERIFY_ADDRESS ? p256verifyFjord : undefined
}

/** The addresses of the set of `op`'s fork (Fjord or later), ascending (shared, frozen). */
export function opPrecompileAddresses(op: OpRules): readonly bigint[] {
  return setOf(op).addresses
}
