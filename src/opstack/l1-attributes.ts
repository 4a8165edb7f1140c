/**
 * The calldata of the L1-attributes deposit (the first transaction of every OP Stack block: a call from the
 * depositor account to the L1Block predeploy) per fork, with the byte layout the specs give:
 * - Bedrock `setL1BlockValues(uint64,uint64,uint256,bytes32,uint64,bytes32,uint256,uint256)`: ABI-encoded,
 *   8 words (number, timestamp, basefee, hash, sequenceNumber, batcherHash, l1FeeOverhead, l1FeeScalar).
 * - Ecotone `setL1BlockValuesEcotone()`: packed, 164 bytes: selector, baseFeeScalar u32, blobBaseFeeScalar u32,
 *   sequenceNumber u64, timestamp u64, number u64, basefee u256, blobBaseFee u256, hash, batcherHash.
 * - Isthmus `setL1BlockValuesIsthmus()`: Ecotone's layout + operatorFeeScalar u32, operatorFeeConstant u64
 *   (176 bytes).
 * - Jovian `setL1BlockValuesJovian()`: Isthmus's layout + daFootprintGasScalar u16 (178 bytes).
 *
 * Owns: encoding and strict decoding of those layouts, and reading the L1 fee parameters out of a block's
 * L1-attributes calldata the way op-geth does when it derives receipts (extractL1GasParams: lenient length
 * checks, and the previous format in a fork's first block). It never executes the call or writes the
 * predeploy's storage.
 */

import { bytesToBigInt, bigIntToFixedBytes, bytesToHex, equalBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { opForkActive, type OpForkName } from './forks.ts'
import type { L1FeeParams } from './l1-cost.ts'

const selectorOf = (signature: string): Uint8Array => keccak256(new TextEncoder().encode(signature)).slice(0, 4)

export const L1_INFO_SELECTORS = {
  bedrock: selectorOf('setL1BlockValues(uint64,uint64,uint256,bytes32,uint64,bytes32,uint256,uint256)'),
  ecotone: selectorOf('setL1BlockValuesEcotone()'),
  isthmus: selectorOf('setL1BlockValuesIsthmus()'),
  jovian: selectorOf('setL1BlockValuesJovian()'),
} as const

export const BEDROCK_L1_INFO_LENGTH = 4 + 8 * 32
export const ECOTONE_L1_INFO_LENGTH = 164
export const ISTHMUS_L1_INFO_LENGTH = 176
export const JOVIAN_L1_INFO_LENGTH = 178

interface L1OriginFields {
  readonly number: bigint
  readonly timestamp: bigint
  readonly baseFee: bigint
  /** 32 bytes */
  readonly blockHash: Uint8Array
  readonly sequenceNumber: bigint
  /** 32 bytes */
  readonly batcherHash: Uint8Array
}

export interface BedrockL1Info extends L1OriginFields {
  readonly kind: 'bedrock'
  readonly l1FeeOverhead: bigint
  readonly l1FeeScalar: bigint
}

export interface EcotoneL1Info extends L1OriginFields {
  readonly kind: 'ecotone'
  readonly blobBaseFee: bigint
  readonly baseFeeScalar: bigint
  readonly blobBaseFeeScalar: bigint
}

export interface IsthmusL1Info extends Omit<EcotoneL1Info, 'kind'> {
  readonly kind: 'isthmus'
  readonly operatorFeeScalar: bigint
  readonly operatorFeeConstant: bigint
}

export interface JovianL1Info extends Omit<IsthmusL1Info, 'kind'> {
  readonly kind: 'jovian'
  readonly daFootprintGasScalar: bigint
}

export type L1Info = BedrockL1Info | EcotoneL1Info | IsthmusL1Info | JovianL1Info

/** One field of the packed layouts: where it starts and how many bytes it takes. */
interface PackedField {
  readonly name: string
  readonly at: number
  readonly size: number
}

const PACKED_FIELDS: readonly PackedField[] = [
  { name: 'baseFeeScalar', at: 4, size: 4 },
  { name: 'blobBaseFeeScalar', at: 8, size: 4 },
  { name: 'sequenceNumber', at: 12, size: 8 },
  { name: 'timestamp', at: 20, size: 8 },
  { name: 'number', at: 28, size: 8 },
  { name: 'baseFee', at: 36, size: 32 },
  { name: 'blobBaseFee', at: 68, size: 32 },
  { name: 'blockHash', at: 100, size: 32 },
  { name: 'batcherHash', at: 132, size: 32 },
  { name: 'operatorFeeScalar', at: 164, size: 4 },
  { name: 'operatorFeeConstant', at: 168, size: 8 },
  { name: 'daFootprintGasScalar', at: 176, size: 2 },
]
const HASH_FIELDS = new Set(['blockHash', 'batcherHash'])

/** Bedrock's ABI words, in order. */
const BEDROCK_WORDS = ['number', 'timestamp', 'baseFee', 'blockHash', 'sequenceNumber', 'batcherHash', 'l1FeeOverhead', 'l1FeeScalar'] as const
const BEDROCK_UINT64_WORDS = new Set(['number', 'timestamp', 'sequenceNumber'])

const LENGTH_OF_KIND = { ecotone: ECOTONE_L1_INFO_LENGTH, isthmus: ISTHMUS_L1_INFO_LENGTH, jovian: JOVIAN_L1_INFO_LENGTH } as const

function fieldBytes(value: unknown, name: string, size: number): Uint8Array {
  if (value instanceof Uint8Array) {
    if (value.length !== size) throw new Error(`L1 info ${name}: expected ${size} bytes, got ${value.length}`)
    return value
  }
  if (typeof value !== 'bigint' || value < 0n || value >= 1n << BigInt(size * 8)) {
    throw new Error(`L1 info ${name}: ${String(value)} does not fit ${size} bytes`)
  }
  return bigIntToFixedBytes(value, size)
}

/** The calldata of the L1-attributes deposit carrying `info`, in its fork's layout. */
export function encodeL1Info(info: L1Info): Uint8Array {
  const fields = info as unknown as Record<string, unknown>
  if (info.kind === 'bedrock') {
    const out = new Uint8Array(BEDROCK_L1_INFO_LENGTH)
    out.set(L1_INFO_SELECTORS.bedrock, 0)
    BEDROCK_WORDS.forEach((name, i) => {
      const size = BEDROCK_UINT64_WORDS.has(name) ? 8 : 32
      out.set(fieldBytes(fields[name], name, size), 4 + 32 * i + 32 - size)
    })
    return out
  }
  const length = LENGTH_OF_KIND[info.kind]
  const out = new Uint8Array(length)
  out.set(L1_INFO_SELECTORS[info.kind], 0)
  for (const field of PACKED_FIELDS) {
    if (field.at + field.size > length) break
    out.set(fieldBytes(fields[field.name], field.name, field.size), field.at)
  }
  return out
}

function decodeBedrock(calldata: Uint8Array): BedrockL1Info {
  if (calldata.length < BEDROCK_L1_INFO_LENGTH) {
    throw new Error(`Bedrock L1 info: expected at least ${BEDROCK_L1_INFO_LENGTH} bytes, got ${calldata.length}`)
  }
  const fields: Record<string, unknown> = { kind: 'bedrock' }
  BEDROCK_WORDS.forEach((name, i) => {
    const word = calldata.subarray(4 + 32 * i, 4 + 32 * (i + 1))
    if (name === 'blockHash' || name === 'batcherHash') fields[name] = word.slice()
    else {
      const value = bytesToBigInt(word)
      if (BEDROCK_UINT64_WORDS.has(name) && value >= 1n << 64n) throw new Error(`Bedrock L1 info: ${name} exceeds uint64`)
      fields[name] = value
    }
  })
  return fields as unknown as BedrockL1Info
}

function decodePacked(kind: 'ecotone' | 'isthmus' | 'jovian', calldata: Uint8Array): L1Info {
  const length = LENGTH_OF_KIND[kind]
  if (calldata.length !== length) throw new Error(`${kind} L1 info: expected ${length} bytes, got ${calldata.length}`)
  const fields: Record<string, unknown> = { kind }
  for (const field of PACKED_FIELDS) {
    if (field.at + field.size > length) break
    const bytes = calldata.subarray(field.at, field.at + field.size)
    fields[field.name] = HASH_FIELDS.has(field.name) ? bytes.slice() : bytesToBigInt(bytes)
  }
  return fields as unknown as L1Info
}

/** Decodes L1-attributes calldata by its selector, strictly (exact lengths for the packed layouts). */
export function decodeL1Info(calldata: Uint8Array): L1Info {
  const selector = calldata.subarray(0, 4)
  if (equalBytes(selector, L1_INFO_SELECTORS.bedrock)) return decodeBedrock(calldata)
  for (const kind of ['ecotone', 'isthmus', 'jovian'] as const) {
    if (equalBytes(selector, L1_INFO_SELECTORS[kind])) return decodePacked(kind, calldata)
  }
  throw new Error(`not L1-attributes calldata (selector ${bytesToHex(selector)})`)
}

/** The L1 fee parameters `info` sets. */
export function l1FeeParamsOf(info: L1Info): L1FeeParams {
  if (info.kind === 'bedrock') return { format: 'bedrock', l1BaseFee: info.baseFee, overhead: info.l1FeeOverhead, scalar: info.l1FeeScalar }
  const params = {
    format: 'ecotone',
    l1BaseFee: info.baseFee,
    l1BlobBaseFee: info.blobBaseFee,
    baseFeeScalar: info.baseFeeScalar,
    blobBaseFeeScalar: info.blobBaseFeeScalar,
  } as const
  if (info.kind === 'ecotone') return params
  return { ...params, operatorFee: { scalar: info.operatorFeeScalar, constant: info.operatorFeeConstant } }
}

const packedValue = (calldata: Uint8Array, name: string): bigint => {
  const field = PACKED_FIELDS.find((f) => f.name === name)!
  return bytesToBigInt(calldata.subarray(field.at, field.at + field.size))
}

/**
 * The L1 fee parameters of a block whose L1-attributes deposit carries `calldata`, as op-geth reads them for
 * receipts: from Isthmus, any calldata but Ecotone's is read in the Isthmus layout (at least 176 bytes; a
 * longer, later layout shares its fee fields); from Ecotone, any calldata but Bedrock's in the Ecotone layout
 * (exactly 164 bytes); otherwise the Bedrock layout (at least 260 bytes; extra bytes are ignored). So the
 * first block of a fork, still carrying the previous fork's call, is read in the previous layout.
 */
export function l1FeeParamsFromCalldata(fork: OpForkName, calldata: Uint8Array): L1FeeParams {
  const selector = calldata.subarray(0, 4)
  const hasSelector = calldata.length >= 4
  if (opForkActive(fork, 'isthmus') && hasSelector && !equalBytes(selector, L1_INFO_SELECTORS.ecotone)) {
    if (calldata.length < ISTHMUS_L1_INFO_LENGTH) {
      throw new Error(`expected at least ${ISTHMUS_L1_INFO_LENGTH} L1 info bytes, got ${calldata.length}`)
    }
    return {
      ...ecotoneFeeFields(calldata),
      operatorFee: { scalar: packedValue(calldata, 'operatorFeeScalar'), constant: packedValue(calldata, 'operatorFeeConstant') },
    }
  }
  if (opForkActive(fork, 'ecotone') && hasSelector && !equalBytes(selector, L1_INFO_SELECTORS.bedrock)) {
    if (calldata.length !== ECOTONE_L1_INFO_LENGTH) {
      throw new Error(`expected ${ECOTONE_L1_INFO_LENGTH} L1 info bytes, got ${calldata.length}`)
    }
    return ecotoneFeeFields(calldata)
  }
  if (calldata.length < BEDROCK_L1_INFO_LENGTH) {
    throw new Error(`expected at least ${BEDROCK_L1_INFO_LENGTH} L1 info bytes, got ${calldata.length}`)
  }
  const word = (index: number): bigint => bytesToBigInt(calldata.subarray(4 + 32 * index, 4 + 32 * (index + 1)))
  return { format: 'bedrock', l1BaseFee: word(2), overhead: word(6), scalar: word(7) }
}

function ecotoneFeeFields(calldata: Uint8Array): L1FeeParams & { format: 'ecotone' } {
  return {
    format: 'ecotone',
    l1BaseFee: packedValue(calldata, 'baseFee'),
    l1BlobBaseFee: packedValue(calldata, 'blobBaseFee'),
    baseFeeScalar: packedValue(calldata, 'baseFeeScalar'),
    blobBaseFeeScalar: packedValue(calldata, 'blobBaseFeeScalar'),
  }
}

/** Jovian's DA footprint gas scalar from L1-attributes calldata: only Jovian-layout calldata carries it. */
export function daFootprintGasScalarFromCalldata(calldata: Uint8Array): bigint {
  if (calldata.length < JOVIAN_L1_INFO_LENGTH) {
    throw new Error(`L1 attributes too short for the DA footprint gas scalar: ${calldata.length} bytes`)
  }
  if (!equalBytes(calldata.subarray(0, 4), L1_INFO_SELECTORS.jovian)) throw new Error('L1 attributes do not have the Jovian selector')
  return packedValue(calldata, 'daFootprintGasScalar')
}
