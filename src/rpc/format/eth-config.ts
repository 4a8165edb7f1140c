/**
 * eth_config's JSON (EIP-7910, as geth prints it): activationTime a JSON number, chainId a quantity, forkId
 * 4 bytes of hex, blobSchedule `{baseFeeUpdateFraction, max, target}` or null, precompiles and
 * systemContracts name -> lower-case address with sorted keys (Go prints maps sorted); an absent fork null.
 */

import type { EthConfig, ForkConfig } from '../../node/node-info.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import type { JsonObject } from '../../format/json.ts'

const sorted = (map: Readonly<Record<string, string>>): JsonObject => {
  const out: JsonObject = {}
  for (const key of Object.keys(map).sort()) out[key] = map[key]!
  return out
}

function formatFork(c: ForkConfig | null): JsonObject | null {
  if (c === null) return null
  return {
    activationTime: Number(c.activationTime),
    blobSchedule: c.blobSchedule === null ? null : { baseFeeUpdateFraction: c.blobSchedule.baseFeeUpdateFraction, max: c.blobSchedule.max, target: c.blobSchedule.target },
    chainId: quantity(c.chainId),
    forkId: bytesToHex(c.forkId),
    precompiles: sorted(c.precompiles),
    systemContracts: sorted(c.systemContracts),
  }
}

export function formatEthConfig(config: EthConfig): JsonObject {
  return { current: formatFork(config.current), next: formatFork(config.next), last: formatFork(config.last) }
}
