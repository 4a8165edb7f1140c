/**
 * A pre-confirmed snapshot: the state of the open block after its newest flashblock. Immutable once
 * published; readers take the current reference once per request, so a request never mixes two
 * flashblocks.
 *
 * `pending` on every read method means "the newest snapshot": its state is the sealed parent's state with
 * `diff` on top, its block environment is the open block's own header (number, timestamp, base fee,
 * coinbase), and its transactions and receipts are those pre-confirmed so far, in execution order.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { IncludedTransaction } from '../execution/block-builder.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { StateDiff } from '../state/state-diff.ts'

export interface PreconfirmedSnapshot {
  /** The sealed block this one builds on. */
  readonly parent: BlockHeader
  /** The open block's environment (gas used and roots are not final). */
  readonly header: BlockHeader
  /** Flashblock index within the block: 0 = opened (system operations only). */
  readonly index: number
  /** Every transaction pre-confirmed in this block so far, in order. */
  readonly transactions: readonly IncludedTransaction[]
  /** Position in `transactions` of the first transaction this flashblock added. */
  readonly firstNew: number
  readonly diff: StateDiff
  readonly gasUsed: bigint
  /**
   * The blob gas the block's header will carry for what it holds so far: the blob transactions' blob gas and,
   * on a Jovian OP chain, each signed transaction's DA footprint (execution/block-execution.ts), so the
   * pending block's header shows what the sealed one will.
   */
  readonly blobGasUsed: bigint
  /** Transaction hash (0x-hex) -> position. */
  readonly positions: ReadonlyMap<string, number>
}

export function makeSnapshot(
  parent: BlockHeader,
  header: BlockHeader,
  index: number,
  transactions: readonly IncludedTransaction[],
  firstNew: number,
  diff: StateDiff,
  gasUsed: bigint,
  blobGasUsed: bigint,
  previous?: PreconfirmedSnapshot,
): PreconfirmedSnapshot {
  const positions = new Map(previous !== undefined && previous.header.number === header.number ? previous.positions : [])
  for (let i = firstNew; i < transactions.length; i++) positions.set(bytesToHex(transactions[i]!.hash), i)
  return { parent, header, index, transactions, firstNew, diff, gasUsed, blobGasUsed, positions }
}
