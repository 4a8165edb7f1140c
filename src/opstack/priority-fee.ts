/**
 * op-geth's priority fee suggestion on an OP Stack chain (eth/gasprice/optimism-gasprice.go
 * SuggestOptimismPriorityFee; what eth_maxPriorityFeePerGas answers there, and eth_gasPrice adds the head's
 * base fee to): with one known block builder a tip buys nothing while blocks have room, so the answer is a
 * fixed minimum (op-geth's --gpo.minsuggestedpriorityfee, 0.001 gwei by default) unless the newest block
 * looks full, when it is the higher of that minimum and the block's median effective tip plus 10%, capped by
 * the oracle's maximum (500 gwei).
 *
 * "Full": the block's gas used plus the most gas any one of its transactions used exceeds its gas limit (the
 * next transaction like its largest would not have fit). The median is over every transaction of the block,
 * deposits included at a tip of zero (op-geth's EffectiveGasTip of a deposit), the upper middle of an even
 * count. A largest transaction over the block's gas limit (impossible in a valid block) answers the minimum.
 *
 * Owns the rule as a pure function of one block's figures. Never: reads of the chain (the caller gives the
 * newest block's gas, its transactions' gas used and their tips), Ethereum chains (their suggestion is
 * node/fee-oracle.ts's).
 */

/** op-geth's DefaultMinSuggestedPriorityFee: 1e6 wei (0.001 gwei). */
export const OP_MIN_SUGGESTED_PRIORITY_FEE = 1_000_000n
/** op-geth's gasprice DefaultMaxPrice: 500 gwei. */
export const OP_MAX_SUGGESTED_PRICE = 500_000_000_000n

export interface OpSuggestionBlock {
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  /** Each transaction's gas used (its receipt's), deposits included. */
  readonly txGasUsed: readonly bigint[]
  /** Each transaction's effective tip over the block's base fee; a deposit's is 0. */
  readonly tips: readonly bigint[]
}

export function opSuggestedPriorityFee(block: OpSuggestionBlock, min = OP_MIN_SUGGESTED_PRIORITY_FEE, max = OP_MAX_SUGGESTED_PRICE): bigint {
  let suggestion = min
  let largest = 0n
  for (const gas of block.txGasUsed) if (gas > largest) largest = gas
  if (largest > block.gasLimit) return suggestion
  if (block.gasUsed + largest > block.gasLimit) {
    if (block.tips.length === 0) return suggestion
    const sorted = [...block.tips].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const median = sorted[Math.floor(sorted.length / 2)]!
    const raised = median + median / 10n
    if (raised > suggestion) suggestion = raised
  }
  return suggestion > max ? max : suggestion
}
