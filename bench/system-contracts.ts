/**
 * The four Prague system contracts every benchmark chain carries (EIP-4788, EIP-2935, EIP-7002, EIP-7251):
 * the node's own list (src/evm/system-contracts.ts), typed for viem.
 */

import type { Address, Hex } from 'viem'
import { SYSTEM_CONTRACTS as NODE_SYSTEM_CONTRACTS } from '../src/evm/system-contracts.ts'

export const SYSTEM_CONTRACTS: readonly { readonly name: string; readonly address: Address; readonly code: Hex }[] =
  NODE_SYSTEM_CONTRACTS.map((c) => ({ name: c.name, address: c.address as Address, code: c.code as Hex }))
