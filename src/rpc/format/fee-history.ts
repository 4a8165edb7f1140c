/**
 * eth_feeHistory's result in geth's shape: oldestBlock; reward only when percentiles were asked for;
 * baseFeePerGas, baseFeePerBlobGas and blobGasUsedRatio left out when empty (geth's omitempty); gasUsedRatio
 * always present, `null` when no block was in range (geth's nil slice).
 */

import type { FeeHistory } from '../../node/api.ts'
import { quantity } from '../../primitives/hex.ts'
import type { JsonObject } from '../../format/json.ts'

export function formatFeeHistory(h: FeeHistory): JsonObject {
  const out: JsonObject = { oldestBlock: quantity(h.oldestBlock) }
  if (h.reward !== undefined && h.reward.length > 0) out.reward = h.reward.map((r) => r.map((v) => quantity(v)))
  if (h.baseFeePerGas.length > 0) out.baseFeePerGas = h.baseFeePerGas.map((v) => quantity(v))
  out.gasUsedRatio = h.gasUsedRatio.length > 0 ? [...h.gasUsedRatio] : null
  if (h.baseFeePerBlobGas.length > 0) out.baseFeePerBlobGas = h.baseFeePerBlobGas.map((v) => quantity(v))
  if (h.blobGasUsedRatio.length > 0) out.blobGasUsedRatio = [...h.blobGasUsedRatio]
  return out
}
