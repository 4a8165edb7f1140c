/**
 * Signed token swaps for the write-path benchmarks (flashblock-build): swapExactTokensForTokens of
 * SWAP_AMOUNT_IN of token A for token B through the swap fixture's router and pair (a chain built with
 * `swap: true`, where every holder lets the router spend its A), from the bench chain's mnemonic accounts, each
 * swap paid to its sender, amountOutMin 0 (a swap's output depends on the swaps before it in the block).
 *
 * Signed as txs.ts signs its transfers: EIP-1559, max fee 100 gwei, tip 1 gwei, the native secp256k1 binding
 * on the hash of viem's unsigned serialization, cached by (sender, nonce), so every peer start gets the same
 * bytes and signing is never inside a measured window. `batch` hands out nonces from the same NonceBook as
 * TxFactory's transfers, in the same rounds over the senders, so the rows of one start continue each sender's
 * sequence. `reserveA` reads the pair's reserve of token A, by which a row checks that its swaps succeeded.
 */

import { encodeFunctionData, type Hex } from 'viem'
import { SWAP_PAIR_ABI, SWAP_ROUTER_ABI, type SwapAddresses } from '../test/fixtures/swap/index.ts'
import { benchAccounts } from './genesis.ts'
import type { RunningNode } from './nodes.ts'
import { rpcCall } from './rpc.ts'
import { inRounds, privateKeysOf, signAtBenchFees, type NonceBook, type SignedTx } from './txs.ts'

/** Token A base units a swap sells (1 token; the pair holds 10^12). */
export const SWAP_AMOUNT_IN = 10n ** 18n
/** A swap uses ~85,000 gas (router, transferFrom, the pair's transfer, balances and reserves: swap.test.ts reports it). */
export const SWAP_GAS = 200_000n

export class SwapTxFactory {
  private readonly keys: Uint8Array[]
  private readonly cache = new Map<string, SignedTx>()
  private readonly data: Hex[]

  constructor(
    private readonly chainId: number,
    private readonly swap: SwapAddresses,
    senders: number,
  ) {
    const accounts = benchAccounts(senders)
    this.keys = privateKeysOf(accounts)
    this.data = accounts.map((a) =>
      encodeFunctionData({ abi: SWAP_ROUTER_ABI, functionName: 'swapExactTokensForTokens', args: [SWAP_AMOUNT_IN, 0n, swap.tokenA, swap.pair, a.address] }),
    )
  }

  /** `cache` false: sign without keeping it (the throughput scenario signs each of ~10^5 swaps once). */
  tx(sender: number, nonce: number, cache = true): SignedTx {
    const key = `${sender}:${nonce}`
    const hit = this.cache.get(key)
    if (hit !== undefined) return hit
    const { raw, hash } = signAtBenchFees(this.chainId, this.keys[sender]!, { nonce, gas: SWAP_GAS, to: this.swap.router, value: 0n, data: this.data[sender]! })
    const signed: SignedTx = { raw, hash, sender, nonce }
    if (cache) this.cache.set(key, signed)
    return signed
  }

  /** `count` swaps in rounds over the senders, each sender's next nonces from `nonces` (as TxFactory.batch). */
  batch(count: number, nonces: NonceBook, node: RunningNode): SignedTx[] {
    return inRounds(count, this.keys.length, nonces, node, (sender, nonce) => this.tx(sender, nonce))
  }
}

/** The pair's reserve of token A (token0) at `tag`. */
export async function reserveA(url: string, swap: SwapAddresses, tag: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: SWAP_PAIR_ABI, functionName: 'getReserves' })
  const result = await rpcCall<Hex>(url, 'eth_call', [{ to: swap.pair, data }, tag])
  return BigInt(result.slice(0, 66))
}
