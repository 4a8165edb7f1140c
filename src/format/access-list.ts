/**
 * Access lists and EIP-7702 authorizations in geth's JSON (types.AccessList, types.SetCodeAuthorization).
 */

import type { AccessListEntry, AuthorizationView } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import type { JsonObject, JsonValue } from './json.ts'

export function formatAccessList(list: readonly AccessListEntry[]): JsonValue[] {
  return list.map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map(bytesToHex) }))
}

export function formatAuthorization(a: AuthorizationView): JsonObject {
  return {
    chainId: quantity(a.chainId),
    address: bytesToHex(a.address),
    nonce: quantity(a.nonce),
    yParity: quantity(a.yParity),
    r: quantity(a.r),
    s: quantity(a.s),
  }
}
