/**
 * The L1-attributes deposit a sequencer puts first in every OP Stack block: a deposit from the L1-info
 * depositor account to the L1Block predeploy carrying the set-values call of the fork's layout.
 *
 * Owns: the deposit's fields as the derivation specs give them from Regolith on (gas 1,000,000, not a system
 * transaction, no mint, no value, the source hash of domain 1 from the L1 origin's hash and the sequence
 * number) and which calldata layout a block uses: the layout of the fork active at the PARENT's time, so the
 * first block of a fork still carries the previous fork's call, as op-node builds it (its "activation block"
 * rule), and Jovian's default DA footprint gas scalar (400 where the configured one is 0). After a Regolith to
 * Delta parent the Bedrock layout is used (its overhead and scalar are the L1Block's, carried forward); the
 * Ecotone layout after a Bedrock-era parent takes its base fee scalar from the Bedrock scalar when the
 * Ecotone scalars are still unset, as op-node reads a version-0 system-config scalar from Ecotone on.
 * A parent before Regolith is refused (its L1-attributes deposit is a system transaction, not modelled here).
 * It never chooses the L1 origin (dev-l1-origin.ts) or the fee values (the caller's), and never executes.
 */

import { hexToBytes } from '../primitives/hex.ts'
import { effectiveDAFootprintGasScalar } from './da-footprint.ts'
import { encodeDepositTransaction, l1InfoDepositSourceHash, type DepositTransaction } from './deposit-tx.ts'
import { opForkActive, type OpForkName } from './forks.ts'
import { encodeL1Info, type L1Info } from './l1-attributes.ts'
import { L1_BLOCK_ADDRESS, L1_INFO_DEPOSITOR_ADDRESS } from './predeploy-addresses.ts'

/** Regolith's gas for the L1-attributes deposit (derivation spec, "L1 Attributes Deposited Transaction"). */
export const L1_INFO_DEPOSIT_GAS = 1_000_000n

/** The L1 block an L2 block is derived from (its epoch). */
export interface L1Origin {
  readonly number: bigint
  readonly timestamp: bigint
  /** 32 bytes */
  readonly hash: Uint8Array
}

/** What the L1-attributes call sets besides the origin and the sequence number (a dev genesis stores them first). */
export interface L1FeeValues {
  readonly l1BaseFee: bigint
  readonly l1BlobBaseFee: bigint
  /** uint32 */
  readonly baseFeeScalar: bigint
  /** uint32 */
  readonly blobBaseFeeScalar: bigint
  /** uint32; read from Isthmus on. */
  readonly operatorFeeScalar: bigint
  /** uint64; read from Isthmus on. */
  readonly operatorFeeConstant: bigint
  /** uint16; read from Jovian on (0: the system config's unset value, which the deposit carries as 400). */
  readonly daFootprintGasScalar: bigint
  /** 32 bytes */
  readonly batcherHash: Uint8Array
  /** Bedrock's fee overhead (L1Block slot 5): set by the Bedrock layout only; 0 when absent. */
  readonly l1FeeOverhead?: bigint
  /** Bedrock's fee scalar (L1Block slot 6): set by the Bedrock layout only; 0 when absent. */
  readonly l1FeeScalar?: bigint
}

export type L1InfoLayout = 'bedrock' | 'ecotone' | 'isthmus' | 'jovian'

/** The set-values layout of a block whose parent ran `parentFork`. */
export function l1InfoLayout(parentFork: OpForkName): L1InfoLayout {
  if (opForkActive(parentFork, 'jovian')) return 'jovian'
  if (opForkActive(parentFork, 'isthmus')) return 'isthmus'
  if (opForkActive(parentFork, 'ecotone')) return 'ecotone'
  if (opForkActive(parentFork, 'regolith')) return 'bedrock'
  throw new Error(`the L1-attributes deposit after a ${parentFork} block is a pre-Regolith system transaction, which is not built here`)
}

const UINT32_LIMIT = 1n << 32n

/**
 * The Ecotone scalars a block carries: the stored ones, or, while both are unset (the chain comes from the
 * Bedrock layout), the Bedrock scalar as the base fee scalar (the uint32 maximum when it does not fit) and no
 * blob scalar, as op-node's EcotoneScalars reads a version-0 system-config scalar.
 */
function ecotoneScalars(fees: L1FeeValues): { baseFeeScalar: bigint; blobBaseFeeScalar: bigint } {
  const { baseFeeScalar, blobBaseFeeScalar } = fees
  if (baseFeeScalar !== 0n || blobBaseFeeScalar !== 0n) return { baseFeeScalar, blobBaseFeeScalar }
  const bedrock = fees.l1FeeScalar ?? 0n
  return { baseFeeScalar: bedrock < UINT32_LIMIT ? bedrock : UINT32_LIMIT - 1n, blobBaseFeeScalar: 0n }
}

/** The L1 attributes of one block, in its layout. */
export function l1InfoOf(layout: L1InfoLayout, origin: L1Origin, sequenceNumber: bigint, fees: L1FeeValues): L1Info {
  const originFields = {
    number: origin.number,
    timestamp: origin.timestamp,
    blockHash: origin.hash,
    sequenceNumber,
    batcherHash: fees.batcherHash,
    baseFee: fees.l1BaseFee,
  }
  if (layout === 'bedrock') return { kind: 'bedrock', ...originFields, l1FeeOverhead: fees.l1FeeOverhead ?? 0n, l1FeeScalar: fees.l1FeeScalar ?? 0n }
  const ecotone = { ...originFields, blobBaseFee: fees.l1BlobBaseFee, ...ecotoneScalars(fees) }
  if (layout === 'ecotone') return { kind: 'ecotone', ...ecotone }
  const isthmus = { ...ecotone, operatorFeeScalar: fees.operatorFeeScalar, operatorFeeConstant: fees.operatorFeeConstant }
  if (layout === 'isthmus') return { kind: 'isthmus', ...isthmus }
  // jovian/l1-attributes.md: a system-config scalar of 0 is set as the default, 400.
  return { kind: 'jovian', ...isthmus, daFootprintGasScalar: effectiveDAFootprintGasScalar(fees.daFootprintGasScalar) }
}

/** The L1-attributes deposit of a block whose parent ran `parentFork`. */
export function l1InfoDeposit(parentFork: OpForkName, origin: L1Origin, sequenceNumber: bigint, fees: L1FeeValues): DepositTransaction {
  return {
    sourceHash: l1InfoDepositSourceHash(origin.hash, sequenceNumber),
    from: hexToBytes(L1_INFO_DEPOSITOR_ADDRESS),
    to: hexToBytes(L1_BLOCK_ADDRESS),
    mint: 0n,
    value: 0n,
    gas: L1_INFO_DEPOSIT_GAS,
    isSystemTx: false,
    data: encodeL1Info(l1InfoOf(l1InfoLayout(parentFork), origin, sequenceNumber, fees)),
  }
}

/** The same deposit's envelope bytes. */
export function l1InfoDepositEnvelope(parentFork: OpForkName, origin: L1Origin, sequenceNumber: bigint, fees: L1FeeValues): Uint8Array {
  return encodeDepositTransaction(l1InfoDeposit(parentFork, origin, sequenceNumber, fees))
}
