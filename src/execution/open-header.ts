/**
 * The environment of a block about to be built on `parent`: its header fields before any transaction
 * (number, parent hash, time, gas limit, coinbase, extra data, prevRandao, the base fee and excess blob gas
 * that follow from the parent, the beacon root). One definition, so that a block the sequencer opens and the
 * same block a follower rebuilds from the stream's opening message have the same environment, and so the
 * same `pending` answers. On an OP Stack chain the base fee is the chain's (opstack/base-fee.ts) and the
 * excess blob gas 0.
 */

import { createBlock, type Block, type BlockHeader, type HeaderData } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { OpChainConfig } from '../opstack/chain-config.ts'
import { opNextBaseFee } from '../opstack/base-fee.ts'

/** What the producer chooses for a new block; the rest follows from the parent. */
export interface BlockEnvironment {
  readonly timestamp: bigint
  readonly coinbase: Uint8Array
  readonly gasLimit: bigint
  readonly extraData: Uint8Array
  readonly prevRandao: Uint8Array
  readonly parentBeaconBlockRoot: Uint8Array
}

/**
 * The header fields of the block after `parent` with `env`; `common` is set to that block's rules. `op`: an
 * OP Stack chain's configuration, whose EIP-1559 parameters give the base fee (opstack/base-fee.ts).
 */
export function openHeaderData(common: Common, parent: BlockHeader, env: BlockEnvironment, op?: OpChainConfig): HeaderData {
  const number = parent.number + 1n
  common.setHardforkBy({ blockNumber: number, timestamp: env.timestamp })
  return {
    number,
    parentHash: parent.hash(),
    timestamp: env.timestamp,
    gasLimit: env.gasLimit,
    coinbase: env.coinbase,
    extraData: env.extraData,
    mixHash: env.prevRandao,
    difficulty: 0n,
    ...(common.isActivatedEIP(1559) ? { baseFeePerGas: nextBaseFee(common, parent, env.timestamp, op) } : {}),
    ...(common.isActivatedEIP(4844) ? { excessBlobGas: nextExcessBlobGas(common, parent, op) } : {}),
    ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: env.parentBeaconBlockRoot } : {}),
  }
}

/** The open block's environment as a header-only block: `data` with nothing used yet (`pending` reads its header). */
export function environmentBlock(common: Common, data: HeaderData): Block {
  const header = { ...data, gasUsed: 0n, ...(common.isActivatedEIP(4844) ? { blobGasUsed: 0n } : {}) }
  return createBlock({ header }, { common, skipConsensusFormatValidation: true })
}

/** The base fee of the block at `timestamp` after `parent`: EIP-1559's, or an OP Stack chain's with its parameters. */
export function nextBaseFee(common: Common, parent: BlockHeader, timestamp: bigint, op?: OpChainConfig): bigint {
  if (!parent.common.isActivatedEIP(1559)) return BigInt(common.param('initialBaseFee'))
  if (op === undefined) return parent.calcNextBaseFee()
  const { timestamp: parentTime, gasLimit, gasUsed, blobGasUsed, extraData } = parent
  return opNextBaseFee(op, { timestamp: parentTime, gasLimit, gasUsed, ...(blobGasUsed !== undefined ? { blobGasUsed } : {}), baseFee: parent.baseFeePerGas!, extraData }, timestamp)
}

/**
 * The excess blob gas of the block after `parent`: EIP-4844's, or 0 on an OP Stack chain, which has no blobs
 * and from Jovian keeps its DA footprint in blobGasUsed (op-geth PR #694; Base's node writes 0 from Ecotone on).
 */
export function nextExcessBlobGas(common: Common, parent: BlockHeader, op?: OpChainConfig): bigint {
  return op === undefined ? parent.calcNextExcessBlobGas(common) : 0n
}
