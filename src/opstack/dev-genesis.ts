/**
 * The predeploys of a dev OP Stack chain, as genesis allocation entries: the real implementation code of
 * predeploys.ts at each predeploy address, with the storage that code reads, so that the GasPriceOracle quotes
 * the L1 fee over eth_call from genesis on.
 *
 * Owns: turning L1 parameters into L1Block's storage (the layout `predeploys/README.md` gives: packed words for
 * number/timestamp, sequenceNumber/blobBaseFeeScalar/baseFeeScalar and operatorFeeConstant/operatorFeeScalar/
 * daFootprintGasScalar), the GasPriceOracle's fork flags for the chain's OP fork (isEcotone, isFjord, isIsthmus,
 * isJovian in the bytes of slot 0, as the setEcotone()/setFjord()/setIsthmus()/setJovian() calls leave them), and
 * the same parameters as the L1 fee parameters of l1-cost.ts. It never writes the chain config or the node's own
 * dev genesis (the caller merges these entries into one: `withOpPredeploys`), never runs code, and never changes
 * L1Block after genesis (the L1-attributes deposit of each block does, once the node executes deposits).
 *
 * No Proxy: the code sits at the predeploy address itself (a Proxy would delegatecall to it, with the storage at
 * the same address, so calls answer the same; a dev chain has no upgrade to make). Forks before Ecotone are
 * refused: their oracle reads L1Block's Bedrock overhead and scalar, which this dev chain does not model.
 */

import { bigIntToFixedBytes, bytesToHex, type Hex } from '../primitives/hex.ts'
import { CREATE2_DEPLOYER_ADDRESS, create2DeployerPreinstall } from './create2-deployer.ts'
import { opForkActive, type OpForkName } from './forks.ts'
import type { EcotoneFeeParams } from './l1-cost.ts'
import type { L1FeeValues } from './l1-info-deposit.ts'
import { L1_BLOCK_PACKED, L1_BLOCK_SLOTS, type PackedField } from './l1-block-storage.ts'
import { GAS_PRICE_ORACLE_ADDRESS, L1_BLOCK_ADDRESS, PREDEPLOY_ARTIFACTS } from './predeploys.ts'

/** What L1Block holds about the L1 origin and the fee parameters. */
export interface DevL1Parameters extends L1FeeValues {
  /** uint64 */
  readonly number: bigint
  /** uint64 */
  readonly timestamp: bigint
  /** 32 bytes */
  readonly hash: Uint8Array
  /** uint64 */
  readonly sequenceNumber: bigint
}

/**
 * Fee parameters as Base mainnet's L1-attributes deposit 0xc468b38a…bca91 (August 2024) carried them (base fee
 * scalar 2269, blob base fee scalar 1055762, L1 base fee 3234853190 wei, blob base fee 1 wei, Base's batcher),
 * no operator fee (as on Base), and an L1 origin at zero: the L1-attributes deposit of each block replaces it.
 */
export const BASE_LIKE_DEV_L1: DevL1Parameters = {
  l1BaseFee: 3_234_853_190n,
  l1BlobBaseFee: 1n,
  baseFeeScalar: 2269n,
  blobBaseFeeScalar: 1_055_762n,
  operatorFeeScalar: 0n,
  operatorFeeConstant: 0n,
  daFootprintGasScalar: 0n,
  number: 0n,
  timestamp: 0n,
  hash: new Uint8Array(32),
  sequenceNumber: 0n,
  batcherHash: bigIntToFixedBytes(0x5050f69a9786f081509234f1a7f4684b5e5b76c9n, 32),
}

/** One geth-format allocation entry. */
export interface GenesisAllocEntry {
  readonly balance: Hex
  readonly nonce?: Hex
  readonly code?: Hex
  readonly storage?: Readonly<Record<Hex, Hex>>
}

/** The GasPriceOracle's flags, in the order of the bytes of its slot 0. */
const ORACLE_FLAG_FORKS: readonly OpForkName[] = ['ecotone', 'fjord', 'isthmus', 'jovian']

/** Packs fields into one storage word, each at its byte offset from the low end (the oracle's flags). */
const pack = (fields: readonly (readonly [bigint, number])[]): bigint =>
  fields.reduce((word, [value, offset]) => word | (value << BigInt(offset * 8)), 0n)

const slotKey = (slot: bigint): Hex => bytesToHex(bigIntToFixedBytes(slot, 32))
const wordHex = (value: bigint): Hex => bytesToHex(bigIntToFixedBytes(value, 32))

/** A whole word's value: refused rather than cut when it does not fit 32 bytes. */
function wordOf(value: bigint | Uint8Array, name: string): bigint {
  if (value instanceof Uint8Array) {
    if (value.length !== 32) throw new Error(`dev L1 ${name}: expected 32 bytes, got ${value.length}`)
    return BigInt(bytesToHex(value))
  }
  if (value < 0n || value >= 1n << 256n) throw new Error(`dev L1 ${name}: ${value} does not fit 32 bytes`)
  return value
}

/** L1Block's storage for these parameters, in its layout (l1-block-storage.ts); zero words left out, as a genesis file leaves them. */
export function l1BlockStorage(l1: DevL1Parameters): Record<Hex, Hex> {
  const words = new Map<bigint, bigint>([
    [L1_BLOCK_SLOTS.l1BaseFee, wordOf(l1.l1BaseFee, 'l1BaseFee')],
    [L1_BLOCK_SLOTS.hash, wordOf(l1.hash, 'hash')],
    [L1_BLOCK_SLOTS.batcherHash, wordOf(l1.batcherHash, 'batcherHash')],
    [L1_BLOCK_SLOTS.l1BlobBaseFee, wordOf(l1.l1BlobBaseFee, 'l1BlobBaseFee')],
  ])
  // Bedrock's overhead and scalar (slots 5, 6) stay zero: unused from Ecotone on.
  for (const [name, field] of Object.entries(L1_BLOCK_PACKED) as [keyof typeof L1_BLOCK_PACKED, PackedField][]) {
    const value = l1[name]
    if (value < 0n || value >= 1n << field.bits) throw new Error(`dev L1 ${name}: ${value} does not fit ${field.bits / 8n} bytes`)
    words.set(field.slot, (words.get(field.slot) ?? 0n) | (value << field.shift))
  }
  const storage: Record<Hex, Hex> = {}
  for (const slot of [...words.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const word = words.get(slot)!
    if (word !== 0n) storage[slotKey(slot)] = wordHex(word)
  }
  return storage
}

/** The GasPriceOracle's slot 0 on a chain running `fork`: one flag byte per oracle fork reached. */
export function gasPriceOracleStorage(fork: OpForkName): Record<Hex, Hex> {
  const flags = pack(ORACLE_FLAG_FORKS.map((f, i) => [opForkActive(fork, f) ? 1n : 0n, i] as const))
  return flags === 0n ? {} : { [slotKey(0n)]: wordHex(flags) }
}

function requireEcotone(fork: OpForkName): void {
  if (!opForkActive(fork, 'ecotone')) throw new Error(`the dev OP genesis needs Ecotone or later, not ${fork}`)
}

/** The predeploys' allocation entries for a dev chain running `fork` with these L1 parameters. */
export function opPredeployAlloc(fork: OpForkName, l1: DevL1Parameters = BASE_LIKE_DEV_L1): Record<Hex, GenesisAllocEntry> {
  requireEcotone(fork)
  const storageOf: Record<string, Record<Hex, Hex>> = {
    [L1_BLOCK_ADDRESS]: l1BlockStorage(l1),
    [GAS_PRICE_ORACLE_ADDRESS]: gasPriceOracleStorage(fork),
  }
  const alloc: Record<Hex, GenesisAllocEntry> = {}
  for (const artifact of PREDEPLOY_ARTIFACTS) {
    const storage = storageOf[artifact.address]
    alloc[artifact.address as Hex] = {
      balance: '0x0',
      nonce: '0x1',
      code: artifact.runtimeCode as Hex,
      ...(storage !== undefined && Object.keys(storage).length > 0 ? { storage } : {}),
    }
  }
  return alloc
}

/**
 * `genesis` with the predeploys added to its allocation (an entry already at a predeploy address is replaced),
 * and the create2Deployer preinstall: a chain whose Canyon is active at genesis gets it from its genesis state,
 * never from a block (create2-deployer.ts).
 */
export function withOpPredeploys<G extends { readonly alloc?: Record<string, unknown> }>(
  genesis: G,
  fork: OpForkName,
  l1: DevL1Parameters = BASE_LIKE_DEV_L1,
): G {
  return { ...genesis, alloc: { ...(genesis.alloc ?? {}), ...opPredeployAlloc(fork, l1), [CREATE2_DEPLOYER_ADDRESS]: create2DeployerPreinstall() } }
}

/** The L1 fee parameters the predeploys' storage stands for, in l1-cost.ts's terms, on a chain running `fork`. */
export function devL1FeeParams(fork: OpForkName, l1: DevL1Parameters = BASE_LIKE_DEV_L1): EcotoneFeeParams {
  requireEcotone(fork)
  const base = {
    format: 'ecotone',
    l1BaseFee: l1.l1BaseFee,
    l1BlobBaseFee: l1.l1BlobBaseFee,
    baseFeeScalar: l1.baseFeeScalar,
    blobBaseFeeScalar: l1.blobBaseFeeScalar,
  } as const
  if (!opForkActive(fork, 'isthmus')) return base
  return { ...base, operatorFee: { scalar: l1.operatorFeeScalar, constant: l1.operatorFeeConstant } }
}
