/**
 * Decoded, cached reads of the sealed chain: headers, block views, receipts with their block context.
 *
 * Sealed blocks never change, so decoded results are cached by number (bounded LRU). A re-org does not
 * exist for a single sequencer; import only appends.
 *
 * Bounds, per instance (one per thread that reads the chain): 512 headers (~3.7 KB each: ~2 MB); block
 * views and receipt lists at most 256 blocks and 16 MiB each. Decoded, a block weighs ~10 times its RLP
 * (~1.5 KB a transaction) and a receipt ~1.2 KB plus its logs, so the byte budget, not the count, bounds
 * them once blocks are big: 16 MiB is ~100 blocks of 100 transactions, ~10 of 1,000.
 *
 * On an OP Stack chain a block's leading deposits (type 0x7e, which the library cannot decode) are decoded
 * apart and viewed with their receipts' deposit nonce and version, and the receipts the RPC answers with
 * (`rpcReceipts`) carry the L1 fee keys derived from the block (op-receipts.ts), cached apart from the plain
 * receipts that logs and fees read. On an Ethereum chain both paths are the plain ones.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainStore } from '../chain/chain-store.ts'
import type { BlockContext, BlockView, ReceiptView } from '../chain/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { decodeBlock, decodeHeader, decodeOpBlock } from '../execution/block-codec.ts'
import { blockView, depositView } from '../execution/views.ts'
import { Lru, SizedLru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'
import { withOpReceiptFields } from './op-receipts.ts'

/**
 * Decoded headers kept (geth keeps 512 too). Reads follow the head, which brings a new header every block:
 * 2,048 of them (before issue 43) took 68 minutes of 2 s blocks to fill, ~7.5 MB per thread rising all that time.
 */
const HEADERS = 512

const BLOCK_CACHE = { maxEntries: 256, maxBytes: 16 * 1024 * 1024 }

/** Heap bytes a decoded block view keeps (measured: ~10 times its RLP, blocks of 100 transfers). */
const blockWeight = (view: BlockView): number => 4096 + 10 * view.size

/** Heap bytes a decoded receipt list keeps (measured: ~1.5 KB a receipt of an ERC-20 transfer). */
function receiptsWeight(receipts: readonly ReceiptView[]): number {
  let bytes = 256
  for (const r of receipts) {
    bytes += 1200
    for (const log of r.logs) bytes += 300 + 80 * log.topics.length + log.data.length
  }
  return bytes
}

export class ChainReader {
  private readonly headers = new Lru<bigint, BlockHeader>(HEADERS)
  private readonly blocks = new SizedLru<bigint, BlockView>(BLOCK_CACHE, blockWeight)
  private readonly receiptCache = new SizedLru<bigint, ReceiptView[]>(BLOCK_CACHE, receiptsWeight)
  /** OP Stack: receipts with their L1 fee keys (~300 bytes more a receipt). */
  private readonly opReceiptCache = new SizedLru<bigint, ReceiptView[]>(BLOCK_CACHE, (rs) => receiptsWeight(rs) + 300 * rs.length)

  constructor(
    readonly store: ChainStore,
    private readonly rules: ChainRules,
  ) {
    registerGauge('chain-reader headers', this.headers, (c) => c.gauge())
    registerGauge('chain-reader block views', this.blocks, (c) => c.gauge())
    registerGauge('chain-reader receipt lists', this.receiptCache, (c) => c.gauge())
    if (rules.op !== undefined) registerGauge('chain-reader OP receipt lists', this.opReceiptCache, (c) => c.gauge())
  }

  head(): bigint {
    const head = this.store.pointer('head')
    if (head === undefined) throw new Error('chain has no genesis')
    return head
  }

  header(num: bigint): BlockHeader | undefined {
    const hit = this.headers.get(num)
    if (hit !== undefined) return hit
    const rlp = this.store.headerRlp(num)
    if (rlp === undefined) return undefined
    const header = decodeHeader(this.rules, rlp)
    this.headers.set(num, header)
    return header
  }

  block(num: bigint): BlockView | undefined {
    const hit = this.blocks.get(num)
    if (hit !== undefined) return hit
    const rlp = this.store.blockRlp(num)
    if (rlp === undefined) return undefined
    const header = this.header(num)!
    const view = this.rules.op === undefined ? blockView(decodeBlock(this.rules, rlp), this.store.senders(num), header.hash(), rlp.length) : this.opBlock(num, rlp, header.hash())
    this.blocks.set(num, view)
    return view
  }

  /** An OP Stack block: its deposits viewed apart, with what their receipts record. */
  private opBlock(num: bigint, rlp: Uint8Array, hash: Uint8Array): BlockView {
    const { block, deposits } = decodeOpBlock(this.rules, rlp)
    const receipts = deposits.length === 0 ? [] : (this.receipts(num) ?? [])
    const leading = deposits.map((envelope, i) => depositView(envelope, receipts[i]))
    return blockView(block, this.store.senders(num), hash, rlp.length, leading)
  }

  /**
   * The receipts as the RPC answers them: on an OP Stack chain with the L1 fee keys of each non-deposit
   * receipt; on Ethereum the plain receipts.
   */
  rpcReceipts(num: bigint): ReceiptView[] | undefined {
    if (this.rules.op === undefined) return this.receipts(num)
    const hit = this.opReceiptCache.get(num)
    if (hit !== undefined) return hit
    const receipts = this.receipts(num)
    const block = this.block(num)
    if (receipts === undefined || block === undefined) return undefined
    const fork = this.rules.opFork(block.header.number, block.header.timestamp)
    // Before Bedrock (a legacy block of an OP chain's history) receipts have no OP keys.
    const derived = fork === undefined ? receipts : withOpReceiptFields(fork, block, receipts)
    this.opReceiptCache.set(num, derived)
    return derived
  }

  receipts(num: bigint): ReceiptView[] | undefined {
    const hit = this.receiptCache.get(num)
    if (hit !== undefined) return hit
    const receipts = this.store.receipts(num)
    if (receipts !== undefined) this.receiptCache.set(num, receipts)
    return receipts
  }

  context(num: bigint): BlockContext | undefined {
    const h = this.header(num)
    if (h === undefined) return undefined
    return {
      blockHash: h.hash(),
      preconfirmed: false,
      blockNumber: h.number,
      blockTimestamp: h.timestamp,
      ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: h.baseFeePerGas } : {}),
    }
  }
}
