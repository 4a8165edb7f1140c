/** The test dev chain as viem describes a chain (for wallet clients that sign for it). */

import { defineChain } from 'viem'
import { DEV_CHAIN_ID } from './dev-chain.ts'

export const VIEM_DEV_CHAIN = defineChain({
  id: Number(DEV_CHAIN_ID),
  name: 'flashnode-test',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})
