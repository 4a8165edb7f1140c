/**
 * Helpers for tests on a dev chain: a node in a temp directory, funded test accounts, signed transactions.
 */

import type { TestContext } from 'node:test'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode } from '../../src/node/create-node.ts'
import { devAccounts, devGenesis, type DevChainOptions } from '../../src/node/dev-genesis.ts'
import { hexToBytes } from '../../src/primitives/hex.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { OpenBlock, type BlockEnvironment, type OpenOptions } from '../../src/execution/block-builder.ts'
import { tempDir } from './temp-dir.ts'

export const DEV_CHAIN_ID = 31337n
export const ACCOUNTS = devAccounts(4)

/** The tests' dev chain; `overrides`: another gas limit, say. */
export function testGenesis(overrides: Partial<DevChainOptions> = {}): GethGenesis {
  return devGenesis({ chainId: DEV_CHAIN_ID, gasLimit: 30_000_000n, baseFee: 1_000_000_000n, accounts: 4, balance: 10n ** 22n, ...overrides })
}

export async function devNode(t: TestContext, dataDir = tempDir(t)): Promise<FlashNode> {
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: testGenesis() })
  t.after(() => node.close())
  return node
}

export interface TxFields {
  readonly to?: string
  readonly value?: bigint
  readonly data?: string
  readonly gasLimit?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
}

/** A signed EIP-1559 transaction from test account `from` under the node's current fork. */
export function signedTx(node: FlashNode, from: number, nonce: bigint, f: TxFields = {}): TypedTransaction {
  const head = node.chain.header(node.chain.head())!
  const common = node.rules.at(head.number + 1n, head.timestamp + 1n)
  const tx = createTx(
    {
      type: 2,
      chainId: DEV_CHAIN_ID,
      nonce,
      to: f.to as `0x${string}` | undefined,
      value: f.value ?? 0n,
      data: (f.data ?? "0x") as `0x${string}`,
      gasLimit: f.gasLimit ?? 100_000n,
      maxFeePerGas: f.maxFeePerGas ?? 10_000_000_000n,
      maxPriorityFeePerGas: f.maxPriorityFeePerGas ?? 1_000_000_000n,
    },
    { common },
  )
  return tx.sign(hexToBytes(ACCOUNTS[from]!.privateKey))
}

/** The environment of the block after the node's head: 2 s later, fixed coinbase and randomness. */
export function nextBlockEnv(node: FlashNode, coinbase: Uint8Array = new Uint8Array(20).fill(0xcb)): BlockEnvironment {
  const head = node.chain.header(node.chain.head())!
  return {
    timestamp: head.timestamp + 2n,
    coinbase,
    gasLimit: head.gasLimit,
    extraData: new Uint8Array(0),
    prevRandao: new Uint8Array(32).fill(7),
    parentBeaconBlockRoot: new Uint8Array(32),
  }
}

/** A block opened on the node's head, with `nextBlockEnv` unless another environment is given. */
export function openOnHead(node: FlashNode, env = nextBlockEnv(node), options?: OpenOptions): Promise<OpenBlock> {
  const head = node.chain.header(node.chain.head())!
  return OpenBlock.open(node.rules, node.chain.store.kv, node.chain.store, head, env, options)
}

/** Init code deploying `runtime` (hex without 0x). */
export function deployCode(runtimeHex: string): string {
  const len = runtimeHex.length / 2
  const lenHex = len.toString(16).padStart(2, '0')
  // PUSH1 len, DUP1, PUSH1 11 (this prefix's length), PUSH1 0, CODECOPY, PUSH1 0, RETURN
  return `0x60${lenHex}80600b6000396000f3${runtimeHex}`
}
