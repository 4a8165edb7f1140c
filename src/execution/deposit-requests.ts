/**
 * EIP-7685 request encoding shared by block building and import (block-execution.ts) and eth_simulateV1
 * (simulate/system-calls.ts): the deposit contract of a chain, EIP-6110 deposit requests read from its
 * DepositEvent logs, and a request list entry (its type byte, then its data).
 */

import { Mainnet, type Common } from '@ethereumjs/common'
import { bytesToBigInt } from '../primitives/hex.ts'
import type { Log } from '../evm/types.ts'

/** keccak256 of DepositEvent(bytes,bytes,bytes,bytes,bytes). */
const DEPOSIT_TOPIC = 0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5n

/** The block's deposit requests entry (type 0): every DepositEvent of the chain's deposit contract, in order. */
export function depositRequests(common: Common, logs: readonly Log[]): Uint8Array {
  const contract = depositContractOf(common)
  const deposits: Uint8Array[] = []
  for (const log of logs) {
    if (log.address === contract && log.topics.length > 0 && log.topics[0] === DEPOSIT_TOPIC) deposits.push(depositRequest(log.data))
  }
  return withType(0, concat(deposits))
}

/** The chain's deposit contract (the genesis config's depositContractAddress, else mainnet's). */
export function depositContractOf(common: Common): bigint {
  const params = (common as unknown as { _chainParams: { depositContractAddress?: string } })._chainParams
  return BigInt(params.depositContractAddress ?? Mainnet.depositContractAddress!)
}

/** A DepositEvent's data (five ABI-encoded byte strings at fixed offsets) as the request's concatenation. */
function depositRequest(data: Uint8Array): Uint8Array {
  const layout: readonly [number, number][] = [
    [160, 48],
    [256, 32],
    [320, 8],
    [384, 96],
    [512, 8],
  ]
  if (data.length !== 576) throw new Error('invalid deposit log: unsupported data layout')
  const parts: Uint8Array[] = []
  for (let i = 0; i < layout.length; i++) {
    const [offset, size] = layout[i]!
    if (bytesToBigInt(data.subarray(i * 32, i * 32 + 32)) !== BigInt(offset) || bytesToBigInt(data.subarray(offset, offset + 32)) !== BigInt(size)) {
      throw new Error('invalid deposit log: unsupported data layout')
    }
    parts.push(data.subarray(offset + 32, offset + 32 + size))
  }
  return concat(parts)
}

/** A request list entry: the request type byte, then its data. */
export function withType(type: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 1)
  out[0] = type
  out.set(data, 1)
  return out
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
