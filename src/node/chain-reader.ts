/**
 * Decoded, cached reads of the sealed chain: headers, block views, receipts with their block context.
 *
 * Sealed blocks never change, so decoded results are cached by number (bounded LRU). A re-org does not
 * exist for a single sequencer; import only appends.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainStore } from '../chain/chain-store.ts'
import type { BlockContext, BlockView, ReceiptView } from '../chain/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { decodeBlock, decodeHeader } from '../execution/block-codec.ts'
import { blockView } from '../execution/views.ts'
import { Lru } from '../primitives/lru.ts'

export class ChainReader {
  private readonly headers = new Lru<bigint, BlockHeader>(2048)
  private readonly blocks = new Lru<bigint, BlockView>(256)
  private readonly receiptCache = new Lru<bigint, ReceiptView[]>(256)

  constructor(
    readonly store: ChainStore,
    private readonly rules: ChainRules,
  ) {}

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
    const block = decodeBlock(this.rules, rlp)
    const header = this.header(num)!
    const view = blockView(block, this.store.senders(num), header.hash(), rlp.length)
    this.blocks.set(num, view)
    return view
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
