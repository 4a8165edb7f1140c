/**
 * The one translation between the node's library data types (headers, transactions, the Common of a fork)
 * and our EVM's inputs (src/evm/types.ts): the fork's rules, a block's environment, a signed transaction as a
 * TxInput. Everything that drives the EVM (calls, block building and import, simulation) goes through here,
 * so a block the sequencer builds and a pending read of it see the same environment.
 *
 * A header's fields are read as the EVM sees them: DIFFICULTY before the merge and PREVRANDAO (the mix hash)
 * after, the blob gas price its excess blob gas gives (or an override), the block's blob gas limit from the
 * fork's schedule. BLOCKHASH is a synchronous lookup the caller gives (the chain store answers it).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { ChainStore } from '../chain/chain-store.ts'
import { rulesFor, type ForkName, type OpEvmForkName, type Rules } from '../evm/fork.ts'
import type { AccessListEntry, Authorization, BlockEnv, TxInput } from '../evm/types.ts'
import type { OpForkName } from '../opstack/forks.ts'
import type { ChainRules } from './chain-config.ts'

/** The library's fork names, by the fork whose rules they run. */
const FORK_OF: Readonly<Record<string, ForkName>> = {
  chainstart: 'frontier',
  homestead: 'homestead',
  dao: 'homestead',
  tangerineWhistle: 'tangerineWhistle',
  spuriousDragon: 'spuriousDragon',
  byzantium: 'byzantium',
  constantinople: 'constantinople',
  petersburg: 'constantinople',
  istanbul: 'istanbul',
  muirGlacier: 'istanbul',
  berlin: 'berlin',
  london: 'london',
  arrowGlacier: 'london',
  grayGlacier: 'london',
  paris: 'paris',
  mergeNetsplitBlock: 'paris',
  shanghai: 'shanghai',
  cancun: 'cancun',
  prague: 'prague',
  osaka: 'osaka',
  bpo1: 'osaka',
  bpo2: 'osaka',
  bpo3: 'osaka',
  bpo4: 'osaka',
  bpo5: 'osaka',
}

/** Each OP fork by the latest fork at or before it that changes the EVM (evm/fork.ts OP_EVM_FORK_NAMES). */
const OP_EVM_FORK_OF: Readonly<Record<OpForkName, OpEvmForkName>> = {
  bedrock: 'bedrock',
  regolith: 'bedrock',
  canyon: 'bedrock',
  delta: 'bedrock',
  ecotone: 'bedrock',
  fjord: 'fjord',
  granite: 'granite',
  holocene: 'granite',
  isthmus: 'isthmus',
  jovian: 'jovian',
}

/**
 * The EVM rules of the fork a Common is set to, with the block's OP fork on an OP Stack chain (absent on
 * Ethereum and before Bedrock); a fork past Osaka is refused (our EVM does not run it).
 */
export function rulesOf(common: Common, opFork?: OpForkName): Rules {
  const name = FORK_OF[common.hardfork()]
  if (name === undefined) throw new Error(`fork ${common.hardfork()} is not supported by this node's EVM`)
  return rulesFor(name, opFork === undefined ? undefined : OP_EVM_FORK_OF[opFork])
}

/** The EVM rules of a block with this number and timestamp on the chain of `rules` (its OP fork included). */
export function evmRulesAt(rules: ChainRules, number: bigint, timestamp: bigint): Rules {
  return rulesOf(rules.at(number, timestamp), rules.opFork(number, timestamp))
}

export interface BlockEnvOptions {
  /** BLOCKHASH of an earlier block (0n when unknown). */
  readonly blockHash: (number: bigint) => bigint
  /** eth_call's blobBaseFee override: BLOBBASEFEE and the blob fee check see this price. */
  readonly blobBaseFee?: bigint
  /** A call that offered no fee sees a base fee of 0 (geth's eth_call rule). */
  readonly zeroBaseFee?: boolean
}

/** A block's fields that the EVM reads: a header's, or those of a block not yet finished (a simulated one). */
export interface BlockEnvFields {
  readonly number: bigint
  readonly timestamp: bigint
  readonly coinbase: Uint8Array
  readonly gasLimit: bigint
  readonly baseFeePerGas?: bigint
  readonly difficulty: bigint
  readonly mixHash: Uint8Array
  readonly excessBlobGas?: bigint
}

/** The environment a transaction in the block of `header` runs in. */
export function blockEnvOf(header: BlockHeader, options: BlockEnvOptions): BlockEnv {
  return blockEnvFrom(
    {
      number: header.number,
      timestamp: header.timestamp,
      coinbase: header.coinbase.bytes,
      gasLimit: header.gasLimit,
      baseFeePerGas: header.baseFeePerGas,
      difficulty: header.difficulty,
      mixHash: header.mixHash,
      excessBlobGas: header.excessBlobGas,
    },
    header.common,
    options,
  )
}

/** The environment of a block with these fields under `common`'s fork, without building a library header. */
export function blockEnvFrom(fields: BlockEnvFields, common: Common, options: BlockEnvOptions): BlockEnv {
  const blobs = common.isActivatedEIP(4844)
  return {
    number: fields.number,
    timestamp: fields.timestamp,
    coinbase: bytesToBigInt(fields.coinbase),
    gasLimit: fields.gasLimit,
    baseFee: options.zeroBaseFee === true ? 0n : (fields.baseFeePerGas ?? 0n),
    difficulty: fields.difficulty,
    prevRandao: bytesToBigInt(fields.mixHash),
    blobBaseFee: options.blobBaseFee ?? (blobs ? blobGasPrice(fields.excessBlobGas, common) : 0n),
    maxBlobGasPerBlock: blobs ? common.getBlobGasSchedule().maxBlobGasPerBlock : 0n,
    chainId: common.chainId(),
    blockHash: options.blockHash,
  }
}

/** EIP-4844's blob gas price of a block with this excess blob gas, under the fork's minimum and update
 * fraction (the fake exponential: factor · e^(numerator / denominator), summed as a Taylor series). */
export function blobGasPrice(excessBlobGas: bigint | undefined, common: Common): bigint {
  if (excessBlobGas === undefined) throw new Error('a block of a blob fork without excessBlobGas')
  const factor = common.param('minBlobGas')
  const denominator = common.param('blobGasPriceUpdateFraction')
  let output = 0n
  let term = factor * denominator
  for (let i = 1n; term > 0n; i++) {
    output += term
    term = (term * excessBlobGas) / (denominator * i)
  }
  return output / denominator
}

/** BLOCKHASH from the chain store (a hash is the keccak of the header's bytes), `extra` first (e.g. simulated blocks). */
export function chainBlockHash(chain: ChainStore, extra?: (n: bigint) => Uint8Array | undefined): (n: bigint) => bigint {
  return (n) => {
    const given = extra?.(n)
    if (given !== undefined) return bytesToBigInt(given)
    const rlp = chain.headerRlp(n)
    return rlp === undefined ? 0n : bytesToBigInt(keccak256(rlp))
  }
}

const accessListOf = (list: readonly [Uint8Array, Uint8Array[]][]): AccessListEntry[] =>
  list.map(([address, keys]) => ({ address: bytesToBigInt(address), storageKeys: keys.map(bytesToBigInt) }))

/** A signed (or otherwise sender-known) library transaction as the EVM's input. */
export function txInputOf(tx: TypedTransaction, sender: Uint8Array): TxInput {
  const fields = tx as unknown as {
    gasPrice?: bigint
    maxFeePerGas?: bigint
    maxPriorityFeePerGas?: bigint
    maxFeePerBlobGas?: bigint
    blobVersionedHashes?: string[]
    accessList?: [Uint8Array, Uint8Array[]][]
    authorizationList?: Uint8Array[][]
  }
  const type = tx.type as TxInput['type']
  return {
    type,
    from: bytesToBigInt(sender),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    to: tx.to === undefined ? undefined : bytesToBigInt(tx.to.bytes),
    value: tx.value,
    data: tx.data,
    ...(type === 0 || type === 1 ? { gasPrice: fields.gasPrice! } : { maxFeePerGas: fields.maxFeePerGas!, maxPriorityFeePerGas: fields.maxPriorityFeePerGas! }),
    ...(type !== 0 ? { accessList: accessListOf(fields.accessList ?? []) } : {}),
    ...(type === 3 ? { maxFeePerBlobGas: fields.maxFeePerBlobGas!, blobVersionedHashes: (fields.blobVersionedHashes ?? []).map((h) => BigInt(h)) } : {}),
    ...(type === 4 ? { authorizationList: (fields.authorizationList ?? []).map(authorizationOf) } : {}),
  }
}

function authorizationOf([chainId, address, nonce, yParity, r, s]: Uint8Array[]): Authorization {
  return {
    chainId: bytesToBigInt(chainId!),
    address: bytesToBigInt(address!),
    nonce: bytesToBigInt(nonce!),
    yParity: bytesToBigInt(yParity!),
    r: bytesToBigInt(r!),
    s: bytesToBigInt(s!),
  }
}
