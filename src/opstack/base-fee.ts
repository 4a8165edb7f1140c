/**
 * EIP-1559 on an OP Stack chain: the next block's base fee with the chain's own parameters, as op-geth
 * computes it (consensus/misc/eip1559 CalcBaseFee with an `optimism` config).
 *
 * Owns: which elasticity and denominator apply and the formula. Per the specs and op-geth:
 * - before Canyon: the config's eip1559Elasticity and eip1559Denominator;
 * - from Canyon (at the new block's time): eip1559DenominatorCanyon instead of the denominator;
 * - from Holocene (at the parent's time): both come from the parent header's extraData, 9 bytes: version 0,
 *   denominator u32, elasticity u32 (holocene/exec-engine.md, "EIP-1559 parameters in block header");
 * - from Jovian (at the parent's time): extraData is 17 bytes, version 1, the same two fields and a minimum
 *   base fee u64 that the result never goes below (jovian/exec-engine.md "Minimum Base Fee"), and the gas the
 *   formula meters is max(gasUsed, blobGasUsed), the parent's DA footprint counting when it is the larger
 *   (jovian/exec-engine.md "DA Footprint Block Limit"; Base's node: execution/chainspec basefee.rs).
 * The formula is EIP-1559's: target = gasLimit / elasticity; above it the fee rises by at least 1, below it
 * falls (never under 0). It never checks a header's extraData is well formed for its fork (header
 * validation's job; `decodeEip1559ExtraData` says whether it is), and knows nothing of the first London
 * block (an OP chain starts on London).
 */

import { opForkActiveAt, type OpChainConfig } from './chain-config.ts'

export interface ParentFeeFields {
  readonly timestamp: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  /** The header's blobGasUsed: from Jovian the block's DA footprint (absent: 0). */
  readonly blobGasUsed?: bigint
  readonly baseFee: bigint
  readonly extraData: Uint8Array
}

export interface Eip1559ExtraData {
  readonly denominator: bigint
  readonly elasticity: bigint
  /** Jovian's minimum base fee; 0 in Holocene's 9-byte form. */
  readonly minBaseFee: bigint
}

const u32 = (bytes: Uint8Array, at: number): bigint => BigInt(new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0))
const u64 = (bytes: Uint8Array, at: number): bigint => new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigUint64(0)

/**
 * The EIP-1559 parameters a Holocene (9 bytes, version 0) or Jovian (17 bytes, version 1) header carries in
 * its extraData, or undefined when it is not well formed (wrong length or version, or a zero denominator
 * with a non-zero elasticity).
 */
export function decodeEip1559ExtraData(extraData: Uint8Array, jovian: boolean): Eip1559ExtraData | undefined {
  const length = jovian ? 17 : 9
  if (extraData.length !== length || extraData[0] !== (jovian ? 1 : 0)) return undefined
  const denominator = u32(extraData, 1)
  const elasticity = u32(extraData, 5)
  if (denominator === 0n && elasticity !== 0n) return undefined
  return { denominator, elasticity, minBaseFee: jovian ? u64(extraData, 9) : 0n }
}

/** The base fee of the block at `timestamp` whose parent is `parent`, on an OP chain. */
export function opNextBaseFee(config: OpChainConfig, parent: ParentFeeFields, timestamp: bigint): bigint {
  let { elasticity, denominator } = config.eip1559
  if (opForkActiveAt(config, 'canyon', timestamp)) denominator = config.eip1559.denominatorCanyon!
  let minBaseFee = 0n
  const jovian = opForkActiveAt(config, 'jovian', parent.timestamp)
  if (jovian || opForkActiveAt(config, 'holocene', parent.timestamp)) {
    const params = decodeEip1559ExtraData(parent.extraData, jovian)
    if (params === undefined || params.denominator === 0n) {
      throw new Error(`the parent's extraData does not carry the ${jovian ? 'Jovian' : 'Holocene'} EIP-1559 parameters`)
    }
    ;({ denominator, elasticity, minBaseFee } = params)
  }
  const blobGasUsed = parent.blobGasUsed ?? 0n
  const gasUsed = jovian && blobGasUsed > parent.gasUsed ? blobGasUsed : parent.gasUsed
  const target = parent.gasLimit / elasticity
  let baseFee = parent.baseFee
  if (gasUsed > target) {
    const delta = (((gasUsed - target) * parent.baseFee) / target) / denominator
    baseFee = parent.baseFee + (delta < 1n ? 1n : delta)
  } else if (gasUsed < target) {
    const delta = (((target - gasUsed) * parent.baseFee) / target) / denominator
    baseFee = parent.baseFee - delta
    if (baseFee < 0n) baseFee = 0n
  }
  return baseFee < minBaseFee ? minBaseFee : baseFee
}

/** Holocene's extraData (9 bytes: version 0, denominator u32, elasticity u32), as a sequencer writes it. */
export function encodeHoloceneExtraData(denominator: bigint, elasticity: bigint): Uint8Array {
  if (denominator <= 0n || denominator > 0xffff_ffffn || elasticity <= 0n || elasticity > 0xffff_ffffn) {
    throw new Error(`Holocene extraData: denominator ${denominator} and elasticity ${elasticity} must be u32 and not 0`)
  }
  const out = new Uint8Array(9)
  const view = new DataView(out.buffer)
  view.setUint32(1, Number(denominator))
  view.setUint32(5, Number(elasticity))
  return out
}

/** Jovian's extraData (17 bytes: version 1, denominator u32, elasticity u32, minimum base fee u64), as a sequencer writes it. */
export function encodeJovianExtraData(denominator: bigint, elasticity: bigint, minBaseFee: bigint): Uint8Array {
  if (minBaseFee < 0n || minBaseFee >= 1n << 64n) throw new Error(`Jovian extraData: minimum base fee ${minBaseFee} must be u64`)
  const out = new Uint8Array(17)
  out.set(encodeHoloceneExtraData(denominator, elasticity), 0)
  out[0] = 1
  new DataView(out.buffer).setBigUint64(9, minBaseFee)
  return out
}
