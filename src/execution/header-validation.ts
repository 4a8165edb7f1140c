/**
 * Consensus checks of a header against its parent, under the header's fork rules. Proof-of-work seals are
 * not checked (imported test chains carry fake seals); difficulty, gas limit, base fee and blob gas are (on an
 * OP Stack chain: excess blob gas 0, and from Jovian the DA footprint in blobGasUsed within the gas limit).
 * Throws `InvalidBlockError` naming the block and the mismatch.
 */

import type { BlockHeader } from '@ethereumjs/block'
import { ConsensusType } from '@ethereumjs/common'
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import { bytesToHex, equalBytes } from '../primitives/hex.ts'
import type { OpChainConfig } from '../opstack/chain-config.ts'
import { nextBaseFee, nextExcessBlobGas } from './open-header.ts'
import { opForkActiveAt } from '../opstack/chain-config.ts'

export class InvalidBlockError extends Error {
  constructor(
    readonly blockNumber: bigint,
    reason: string,
  ) {
    super(`block ${blockNumber}: ${reason}`)
    this.name = 'InvalidBlockError'
  }
}

/** `op`: an OP Stack chain's configuration (its base fee rules; its gas limit may change at once, as op-geth allows). */
export function validateHeader(header: BlockHeader, parent: BlockHeader, op?: OpChainConfig): void {
  const fail = (reason: string): never => {
    throw new InvalidBlockError(header.number, reason)
  }
  const common = header.common
  if (header.number !== parent.number + 1n) fail(`number ${header.number} does not follow parent ${parent.number}`)
  const parentHash = parent.hash()
  if (!equalBytes(header.parentHash, parentHash)) {
    fail(`parent hash ${bytesToHex(header.parentHash)} is not ${bytesToHex(parentHash)}`)
  }
  if (header.timestamp <= parent.timestamp) fail(`timestamp ${header.timestamp} not after parent's ${parent.timestamp}`)
  const maxExtra = Number(common.param('maxExtraDataSize'))
  if (header.extraData.length > maxExtra) fail(`extra data is ${header.extraData.length} bytes, limit ${maxExtra}`)
  if (header.gasUsed > header.gasLimit) fail(`gas used ${header.gasUsed} exceeds gas limit ${header.gasLimit}`)
  if (op === undefined) {
    try {
      header.validateGasLimit(parent)
    } catch (e) {
      fail((e as Error).message)
    }
  }
  if (common.isActivatedEIP(1559) && parent.common.isActivatedEIP(1559)) {
    let expected: bigint
    try {
      expected = nextBaseFee(common, parent, header.timestamp, op)
    } catch (e) {
      return fail((e as Error).message)
    }
    if (header.baseFeePerGas !== expected) fail(`base fee ${header.baseFeePerGas} is not ${expected}`)
  }
  if (common.consensusType() === ConsensusType.ProofOfWork) {
    const expected = header.ethashCanonicalDifficulty(parent)
    if (header.difficulty !== expected) fail(`difficulty ${header.difficulty} is not ${expected}`)
  } else if (common.consensusType() === ConsensusType.ProofOfStake) {
    if (header.difficulty !== 0n) fail(`difficulty ${header.difficulty} after the merge`)
    if (!equalBytes(header.uncleHash, KECCAK256_RLP_ARRAY)) fail('uncles after the merge')
  }
  if (common.isActivatedEIP(4844)) {
    const expected = nextExcessBlobGas(common, parent, op)
    if (header.excessBlobGas !== expected) fail(`excess blob gas ${header.excessBlobGas} is not ${expected}`)
    // Jovian: blobGasUsed holds the block's DA footprint, limited like gas by the gas limit (its value is
    // checked against execution by block-runner.ts).
    if (op !== undefined && opForkActiveAt(op, 'jovian', header.timestamp) && (header.blobGasUsed ?? 0n) > header.gasLimit) {
      fail(`DA footprint (blobGasUsed) ${header.blobGasUsed} exceeds gas limit ${header.gasLimit}`)
    }
  }
}
