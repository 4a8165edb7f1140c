/**
 * Fee suggestions and history from recent sealed blocks.
 *
 * The tip suggestion follows geth's oracle in spirit: the 60th percentile of the lowest effective tips of
 * the last 20 blocks, or 1 gwei when they carried no transactions (the usual dev-chain answer).
 * eth_gasPrice = tip + the head's base fee. Fee history reports per block: base fee (plus the next
 * block's), gas used ratio, blob base fee and ratio, and the requested tip percentiles weighted by gas.
 *
 * On an OP Stack chain, as op-geth's eth/gasprice/feehistory.go: the next block's base fee is the chain's own
 * EIP-1559 rule (open-header.ts nextBaseFee: its elasticity and denominator, Holocene's from the extraData) at
 * the newest block's time + 1, and a deposit's tip is zero (op-geth's EffectiveGasTip of a deposit), never
 * its 0 price less the base fee. The tip suggestion there is op-geth's OP rule (opstack/priority-fee.ts: a
 * minimum, raised to the median tip + 10% when the head block was full), from the head block alone.
 */

import { FlashnodeError } from '../errors/errors.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { nextBaseFee } from '../execution/open-header.ts'
import { DEPOSIT_TX_TYPE } from '../opstack/deposit-tx.ts'
import { opSuggestedPriorityFee } from '../opstack/priority-fee.ts'
import type { ReceiptView } from '../chain/types.ts'
import type { FeeHistory } from './api.ts'
import type { ChainReader } from './chain-reader.ts'

const GWEI = 1_000_000_000n
const SAMPLE_BLOCKS = 20n
const MAX_HISTORY = 1024

export class FeeOracle {
  constructor(
    private readonly chain: ChainReader,
    private readonly rules: ChainRules,
  ) {}

  suggestedTip(): bigint {
    if (this.rules.op !== undefined) return this.opSuggestedTip()
    const head = this.chain.head()
    const tips: bigint[] = []
    for (let n = head; n >= 0n && n > head - SAMPLE_BLOCKS; n--) {
      const header = this.chain.header(n)
      const base = header?.baseFeePerGas ?? 0n
      const receipts = this.chain.receipts(n) ?? []
      const blockTips = receipts.filter((r) => r.type !== DEPOSIT_TX_TYPE).map((r) => tipOf(r, base)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      tips.push(...blockTips.slice(0, 3))
    }
    if (tips.length === 0) return GWEI
    tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return tips[Math.floor(((tips.length - 1) * 60) / 100)]!
  }

  /** op-geth's SuggestOptimismPriorityFee over the head block. */
  private opSuggestedTip(): bigint {
    const head = this.chain.header(this.chain.head())!
    const base = head.baseFeePerGas ?? 0n
    const receipts = this.chain.receipts(head.number) ?? []
    return opSuggestedPriorityFee({ gasLimit: head.gasLimit, gasUsed: head.gasUsed, txGasUsed: receipts.map((r) => r.gasUsed), tips: receipts.map((r) => tipOf(r, base)) })
  }

  gasPrice(): bigint {
    const head = this.chain.header(this.chain.head())!
    return this.suggestedTip() + (head.baseFeePerGas ?? 0n)
  }

  nextBlobBaseFee(): bigint {
    const head = this.chain.header(this.chain.head())!
    const next = this.rules.at(head.number + 1n, head.timestamp + 1n)
    if (!next.isActivatedEIP(4844)) throw new FlashnodeError('executionFailed', 'blob base fee is not available before Cancun')
    return head.calcNextBlobGasPrice(next)
  }

  history(blockCount: number, newest: bigint, percentiles?: readonly number[]): FeeHistory {
    const count = BigInt(Math.min(Math.max(blockCount, 0), MAX_HISTORY))
    const oldest = newest - count + 1n < 0n ? 0n : newest - count + 1n
    const baseFeePerGas: bigint[] = []
    const gasUsedRatio: number[] = []
    const baseFeePerBlobGas: bigint[] = []
    const blobGasUsedRatio: number[] = []
    const reward: bigint[][] = []
    for (let n = oldest; n <= newest && count > 0n; n++) {
      const h = this.chain.header(n)!
      baseFeePerGas.push(h.baseFeePerGas ?? 0n)
      gasUsedRatio.push(h.gasLimit === 0n ? 0 : Number(h.gasUsed) / Number(h.gasLimit))
      const blobs = h.common.isActivatedEIP(4844)
      baseFeePerBlobGas.push(blobs ? h.getBlobGasPrice() : 0n)
      const maxBlobGas = blobs ? h.common.getBlobGasSchedule().maxBlobGasPerBlock : 0n
      blobGasUsedRatio.push(maxBlobGas === 0n ? 0 : Number(h.blobGasUsed ?? 0n) / Number(maxBlobGas))
      if (percentiles !== undefined) reward.push(this.rewards(n, h.baseFeePerGas ?? 0n, h.gasUsed, percentiles))
    }
    if (count > 0n) {
      const last = this.chain.header(newest)!
      const next = this.rules.at(last.number + 1n, last.timestamp + 1n)
      baseFeePerGas.push(last.common.isActivatedEIP(1559) ? nextBaseFee(next, last, last.timestamp + 1n, this.rules.op) : 0n)
      baseFeePerBlobGas.push(next.isActivatedEIP(4844) ? last.calcNextBlobGasPrice(next) : 0n)
    }
    return {
      oldestBlock: oldest,
      baseFeePerGas,
      gasUsedRatio,
      baseFeePerBlobGas,
      blobGasUsedRatio,
      ...(percentiles !== undefined ? { reward } : {}),
    }
  }

  private rewards(n: bigint, baseFee: bigint, gasUsed: bigint, percentiles: readonly number[]): bigint[] {
    const receipts = this.chain.receipts(n) ?? []
    if (receipts.length === 0) return percentiles.map(() => 0n)
    const sorted = receipts
      .map((r) => ({ tip: tipOf(r, baseFee), gas: r.gasUsed }))
      .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
    return percentiles.map((p) => {
      const threshold = (Number(gasUsed) * p) / 100
      let sum = 0
      for (const s of sorted) {
        sum += Number(s.gas)
        if (sum >= threshold) return s.tip
      }
      return sorted[sorted.length - 1]!.tip
    })
  }
}

/** The tip a receipt's transaction paid over `baseFee`; a deposit's (OP Stack) is zero, as op-geth's EffectiveGasTip. */
function tipOf(r: ReceiptView, baseFee: bigint): bigint {
  return r.type === DEPOSIT_TX_TYPE ? 0n : r.effectiveGasPrice - baseFee
}
