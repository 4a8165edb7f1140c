/**
 * Scenario "read": ERC-20 reads at `latest`, the most common load on a public RPC endpoint.
 *   - eth_call balanceOf(holder) on the token, cycling through 64 holders (a different account's storage
 *     on consecutive requests, so a peer cannot win by caching one answer);
 *   - eth_getStorageAt of the same holders' balance slots (state access without the EVM).
 * Each peer's answer is checked against the genesis balances before it is measured.
 */

import { encodeFunctionData, type Hex } from 'viem'
import { balanceSlot, ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'

const HOLDERS = 64

function expectWord(got: unknown, want: bigint, what: string): void {
  if (typeof got !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(got)) throw new Error(`${what}: not a 32-byte word: ${String(got)}`)
  if (BigInt(got) !== want) throw new Error(`${what}: ${BigInt(got)} instead of ${want}`)
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  const holders = chain.accounts.slice(0, HOLDERS).map((a) => a.address)
  const first = holders[0]!
  const callParams = (holder: Hex): unknown[] => [
    { to: chain.token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [holder] }) },
    'latest',
  ]
  return [
    {
      name: 'eth_call balanceOf @latest',
      bodies: () => holders.map((h, i) => rpcBody(i + 1, 'eth_call', callParams(h))),
      check: async ({ node }: CaseRun) => {
        expectWord(await rpcCall(node.url, 'eth_call', callParams(first)), chain.tokenBalance, 'balanceOf(holder 0)')
        const stranger = '0x000000000000000000000000000000000000dEaD'
        expectWord(await rpcCall(node.url, 'eth_call', callParams(stranger)), 0n, 'balanceOf(stranger)')
      },
    },
    {
      name: 'eth_getStorageAt balance slot @latest',
      bodies: () => holders.map((h, i) => rpcBody(i + 1, 'eth_getStorageAt', [chain.token, balanceSlot(h), 'latest'])),
      check: async ({ node }: CaseRun) => {
        const got = await rpcCall(node.url, 'eth_getStorageAt', [chain.token, balanceSlot(first), 'latest'])
        expectWord(got, chain.tokenBalance, 'balance slot of holder 0')
      },
    },
  ]
}

export const readBench: Scenario = {
  name: 'read',
  title: `ERC-20 reads at latest, ${HOLDERS} holders cycled`,
  genesis: { accounts: HOLDERS },
  cases,
}
