/**
 * eth_createAccessList's result in geth's JSON: `accessList`, `error` only when the call failed, `gasUsed`.
 */

import { formatAccessList } from '../../format/access-list.ts'
import type { JsonObject } from '../../format/json.ts'
import type { AccessListResult } from '../../node/api.ts'
import { quantity } from '../../primitives/hex.ts'

export function formatAccessListResult(result: AccessListResult): JsonObject {
  return {
    accessList: formatAccessList(result.accessList),
    ...(result.error !== undefined && result.error !== '' ? { error: result.error } : {}),
    gasUsed: quantity(result.gasUsed),
  }
}
