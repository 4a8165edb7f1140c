/**
 * The sealed transactions the `trace` scenario traces: PER_KIND ERC-20 transfers and PER_KIND swaps A→B
 * through the swap fixture's router and pair, every one distinct, sent to a peer and sealed there in blocks of
 * BLOCK_SIZE transactions of one kind (evm_mine; both peers mine only when asked), once per peer start.
 *
 * - Transfer i: sender i mod SENDERS (a mnemonic account) pays 1 + i token units to holder SENDERS + i (a
 *   keyless holder no other transfer names), so every transfer touches two balance slots no other one does.
 * - Swap i: the same senders sell 1 token A + i·10^-6 through the router, paid to holder SENDERS + i.
 * - Signed once per process (signAtBenchFees: every start of every peer gets the same bytes), each sender's
 *   nonces in order; a block never holds two transactions of one sender.
 * `sealTraceTransactions` checks that every block holds exactly its transactions and that each succeeded, and
 * returns each transaction's receipt gasUsed (and cumulativeGasUsed) on that peer: what the trace rows check their answers against.
 */

import { encodeFunctionData, type Address, type Hex } from 'viem'
import { ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { SWAP_ROUTER_ABI } from '../test/fixtures/swap/index.ts'
import type { BenchChain } from './genesis.ts'
import type { RunningNode } from './nodes.ts'
import { rpcCall } from './rpc.ts'
import { SWAP_GAS } from './swap-txs.ts'
import { GAS, privateKeysOf, sendAll, signAtBenchFees, type SignedTx } from './txs.ts'

/** Transactions of each kind. */
export const PER_KIND = 300
/** Transactions a block (of one kind): a traced transaction is replayed after up to BLOCK_SIZE − 1 others. */
export const BLOCK_SIZE = 20
/** Mnemonic accounts that send (≥ BLOCK_SIZE: no sender twice in a block). */
export const SENDERS = 64
/** Holders the chain needs: the senders, then one recipient per transaction of a kind. */
export const TRACE_HOLDERS = SENDERS + PER_KIND

export type TraceKind = 'transfer' | 'swap'

export interface TraceTx extends SignedTx {
  readonly kind: TraceKind
  readonly from: Address
  readonly to: Address
  readonly input: Hex
  /** The holder paid (token A for a transfer, token B for a swap). */
  readonly recipient: Address
}

export interface TraceTxSet {
  readonly transfer: readonly TraceTx[]
  readonly swap: readonly TraceTx[]
}

const made = new WeakMap<BenchChain, TraceTxSet>()

/** The chain's transfers and swaps, signed once. */
export function traceTransactions(chain: BenchChain): TraceTxSet {
  const hit = made.get(chain)
  if (hit !== undefined) return hit
  const s = chain.swap
  if (s === undefined) throw new Error('the trace transactions need a chain built with swap: true')
  if (chain.accounts.length < SENDERS || chain.holders.length < TRACE_HOLDERS) throw new Error(`the trace chain needs ${SENDERS} accounts and ${TRACE_HOLDERS} holders`)
  const keys = privateKeysOf(chain.accounts.slice(0, SENDERS))
  const nonces = new Array<number>(SENDERS).fill(0)
  const sign = (kind: TraceKind, i: number, to: Address, gas: bigint, input: Hex, recipient: Address): TraceTx => {
    const sender = i % SENDERS
    const nonce = nonces[sender]!++
    const { raw, hash } = signAtBenchFees(chain.chainId, keys[sender]!, { nonce, gas, to, value: 0n, data: input })
    return { raw, hash, sender, nonce, kind, from: chain.accounts[sender]!.address, to, input, recipient }
  }
  const recipientOf = (i: number): Address => chain.holders[SENDERS + i]!
  const transfer = Array.from({ length: PER_KIND }, (_, i) =>
    sign('transfer', i, chain.token, GAS.erc20, encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [recipientOf(i), 1n + BigInt(i)] }), recipientOf(i)),
  )
  const swap = Array.from({ length: PER_KIND }, (_, i) => {
    const amountIn = 10n ** 18n + BigInt(i) * 10n ** 12n
    const input = encodeFunctionData({ abi: SWAP_ROUTER_ABI, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, s.tokenA, s.pair, recipientOf(i)] })
    return sign('swap', i, s.router, SWAP_GAS, input, recipientOf(i))
  })
  const set = { transfer, swap }
  made.set(chain, set)
  return set
}

interface Receipt {
  transactionHash: Hex
  status: Hex
  gasUsed: Hex
  cumulativeGasUsed: Hex
}

/** A sealed transaction's gas on the peer that sealed it: its own, and its block's up to it. */
export interface SealedGas {
  readonly gasUsed: bigint
  readonly cumulativeGasUsed: bigint
}

/**
 * Sends and seals every transaction of the set on `node`, BLOCK_SIZE a block, transfers first; throws unless
 * each block holds exactly its transactions, all successful. Returns each transaction's gas (by lower-case hash).
 */
export async function sealTraceTransactions(node: RunningNode, set: TraceTxSet): Promise<Map<Hex, SealedGas>> {
  const gas = new Map<Hex, SealedGas>()
  for (const txs of [set.transfer, set.swap]) {
    for (let at = 0; at < txs.length; at += BLOCK_SIZE) {
      const block = txs.slice(at, at + BLOCK_SIZE)
      await sendAll(node.url, block)
      await rpcCall(node.url, 'evm_mine', [], 60_000)
      const sealed = await rpcCall<{ number: Hex; transactions: Hex[] }>(node.url, 'eth_getBlockByNumber', ['latest', false])
      const want = block.map((t) => t.hash.toLowerCase()).sort()
      const got = sealed.transactions.map((h) => h.toLowerCase()).sort()
      if (got.join() !== want.join()) throw new Error(`evm_mine sealed block ${BigInt(sealed.number)} with ${got.length} transactions, not the ${want.length} pooled`)
      const receipts = await rpcCall<Receipt[]>(node.url, 'eth_getBlockReceipts', [sealed.number], 60_000)
      for (const r of receipts) {
        if (r.status !== '0x1') throw new Error(`transaction ${r.transactionHash} (block ${BigInt(sealed.number)}) failed`)
        gas.set(r.transactionHash.toLowerCase() as Hex, { gasUsed: BigInt(r.gasUsed), cumulativeGasUsed: BigInt(r.cumulativeGasUsed) })
      }
    }
  }
  return gas
}
