/**
 * The node the fuzz suite attacks: a dev chain with pre-confirmations (manual sealing on an injected
 * clock, so eth_simulateV1 and the write methods are live), a dedicated and a public endpoint, tight
 * execution bounds so random code cannot make a case slow, and every unexpected server error collected
 * instead of printed. The public endpoint's rate limiter runs on a clock the suite advances per request,
 * so which requests it refuses is part of the reproducible run.
 */

import type { TestContext } from 'node:test'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import type { FlashNode } from '../../../src/node/create-node.ts'
import { bytesToHex, hexToBytes } from '../../../src/primitives/hex.ts'
import type { Known } from './values.ts'
import { devGenesis, devAccounts } from '../../../src/node/dev-genesis.ts'
import { endpoint, startEndpoints, type EndpointsNode } from '../../support/endpoints.ts'

export const FUZZ_ACCOUNTS = devAccounts(16)

export interface FuzzNode extends EndpointsNode {
  readonly dedicated: string
  readonly dedicatedWs: string
  readonly public: string
  /** Moves the public endpoint's rate-limit clock. */
  advance(ms: number): void
}

export async function startFuzzNode(t: TestContext): Promise<FuzzNode> {
  let now = 0
  const running = await startEndpoints(
    t,
    [endpoint('dedicated'), endpoint('public', { profile: 'public', rateLimit: { requestsPerSecond: 100, burst: 50 } })],
    {
      now: () => now,
      node: {
        genesis: devGenesis({ chainId: 31337n, gasLimit: 30_000_000n, baseFee: 1_000_000_000n, accounts: FUZZ_ACCOUNTS.length, balance: 10n ** 22n }),
        gasCap: 2_000_000n,
        evmTimeoutMs: 1_000,
        maxLogBlockRange: 1_000,
      },
    },
  )
  const dedicated = running.endpoints.get('dedicated')!
  return {
    ...running,
    dedicated: dedicated.url,
    dedicatedWs: dedicated.wsUrl!,
    public: running.endpoints.get('public')!.url,
    advance: (ms) => (now += ms),
  }
}

export interface TxSpec {
  readonly type: 0 | 1 | 2
  readonly nonce: bigint
  readonly to?: string
  readonly value?: bigint
  readonly data?: string
  readonly gasLimit?: bigint
}

/** A signed transaction of test account `from` under the node's next-block rules. */
export function signTx(node: FlashNode, from: number, spec: TxSpec): TypedTransaction {
  const head = node.chain.header(node.chain.head())!
  const common = node.rules.at(head.number + 1n, head.timestamp + 1n)
  const base = {
    nonce: spec.nonce,
    to: spec.to as `0x${string}` | undefined,
    value: spec.value ?? 0n,
    data: (spec.data ?? '0x') as `0x${string}`,
    gasLimit: spec.gasLimit ?? 100_000n,
  }
  const fields =
    spec.type === 2
      ? { ...base, type: 2, chainId: 31337n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
      : spec.type === 1
        ? { ...base, type: 1, chainId: 31337n, gasPrice: 10_000_000_000n, accessList: [] }
        : { ...base, type: 0, gasPrice: 10_000_000_000n }
  return createTx(fields, { common }).sign(hexToBytes(FUZZ_ACCOUNTS[from]!.privateKey))
}

/** Puts blocks, transactions, receipts and logs on the chain (and one transaction in the pre-confirmed
 * block), so random params that name them reach real data. Returns what the generators may name. */
export async function seedChain(fuzz: FuzzNode): Promise<Known> {
  const rpc = async (method: string, params: unknown[]): Promise<unknown> => {
    const res = await fetch(fuzz.dedicated, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
  const hashes: string[] = []
  const send = async (from: number, spec: TxSpec): Promise<void> => {
    hashes.push((await rpc('eth_sendRawTransaction', [bytesToHex(signTx(fuzz.node, from, spec).serialize())])) as string)
  }
  // PUSH1 0 PUSH1 0 LOG0 as init code: a deployment that logs.
  await send(0, { type: 2, nonce: 0n, data: '0x60006000a0', gasLimit: 200_000n })
  await send(1, { type: 0, nonce: 0n, to: FUZZ_ACCOUNTS[2]!.address, value: 1n })
  await send(1, { type: 1, nonce: 1n, to: FUZZ_ACCOUNTS[3]!.address, value: 2n })
  await rpc('evm_mine', [])
  await send(2, { type: 2, nonce: 0n, to: FUZZ_ACCOUNTS[0]!.address, value: 3n })
  await rpc('flashnode_flashblock', [])
  for (const tag of ['0x0', '0x1']) hashes.push(((await rpc('eth_getBlockByNumber', [tag, false])) as { hash: string }).hash)
  return {
    addresses: [...FUZZ_ACCOUNTS.slice(0, 4).map((a) => a.address), '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'],
    hashes,
  }
}
