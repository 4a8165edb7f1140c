/**
 * eth_call's block overrides: the same header with some environment fields replaced. The fork follows the
 * overridden number and time.
 */

import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { BlockOverrides } from './requests.ts'
import { bytesToHex, leftPad } from '../primitives/hex.ts'
import type { ChainRules } from './chain-config.ts'

const hex = (v: bigint) => `0x${v.toString(16)}` as const

export function withBlockOverrides(header: BlockHeader, o: BlockOverrides, rules: ChainRules): BlockHeader {
  const data = header.toJSON()
  if (o.number !== undefined) data.number = hex(o.number)
  if (o.time !== undefined) data.timestamp = hex(o.time)
  if (o.gasLimit !== undefined) data.gasLimit = hex(o.gasLimit)
  if (o.feeRecipient !== undefined) data.coinbase = bytesToHex(o.feeRecipient)
  if (o.prevRandao !== undefined) data.mixHash = bytesToHex(leftPad(o.prevRandao, 32))
  if (o.baseFeePerGas !== undefined && data.baseFeePerGas !== undefined) data.baseFeePerGas = hex(o.baseFeePerGas)
  const common = rules.at(BigInt(data.number ?? '0x0'), BigInt(data.timestamp ?? '0x0'))
  return createBlockHeader(data, { common, skipConsensusFormatValidation: true })
}
