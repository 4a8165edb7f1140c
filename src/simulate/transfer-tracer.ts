/**
 * The logs of a simulated call, as geth's simulation tracer records them: the contract's own logs and,
 * with traceTransfers, every ETH movement as an ERC-20 `Transfer(from, to, value)` log emitted by
 * 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE (ERC-7528), all in execution order.
 *
 * Invariants (geth's tracer):
 * - each call frame collects its logs; a frame that fails drops them with everything it collected from
 *   its children; the transaction's logs are the top frame's (none when the transaction failed);
 * - a transfer is a frame entered with value > 0 that is not a DELEGATECALL or CALLCODE (the transaction
 *   itself, CALL, CREATE/CREATE2; a SELFDESTRUCT moving a non-zero balance counts as one);
 * - the log index counts every log recorded in the block, including logs that a failing frame dropped
 *   later, so indexes can skip numbers.
 *
 * Pure bookkeeping: evm-hooks.ts feeds it from the EVM. Transfer logs never reach receipts or the bloom.
 */

import type { LogView } from '../chain/types.ts'
import { bigIntToFixedBytes, hexToBytes, leftPad } from '../primitives/hex.ts'
import type { SimLog } from './types.ts'

export const TRANSFER_LOG_ADDRESS = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')

export function transferLog(from: Uint8Array, to: Uint8Array, value: bigint): LogView {
  return {
    address: TRANSFER_LOG_ADDRESS,
    topics: [TRANSFER_TOPIC, leftPad(from, 32), leftPad(to, 32)],
    data: bigIntToFixedBytes(value, 32),
  }
}

export class TransferTracer {
  private frames: SimLog[][] = []
  /** Log index of the next log in this block. */
  private count = 0

  constructor(readonly traceTransfers: boolean) {}

  /** Starts a new transaction of the same block. */
  reset(): void {
    this.frames = []
  }

  get depth(): number {
    return this.frames.length - 1
  }

  /** A frame starts. `moves` is false for DELEGATECALL and CALLCODE, which move no value of their own. */
  enter(from: Uint8Array, to: Uint8Array, value: bigint, moves: boolean): void {
    this.frames.push([])
    if (moves && value > 0n) this.transfer(from, to, value)
  }

  exit(reverted: boolean): void {
    if (this.frames.length === 0) return
    if (this.frames.length === 1) {
      if (reverted) this.frames[0] = []
      return
    }
    const frame = this.frames.pop()!
    if (!reverted) this.frames[this.frames.length - 1]!.push(...frame)
  }

  log(log: LogView): void {
    const top = this.frames[this.frames.length - 1]
    if (top === undefined) return
    top.push({ log, logIndex: this.count++ })
  }

  /** A value transfer inside the current frame (SELFDESTRUCT). */
  transfer(from: Uint8Array, to: Uint8Array, value: bigint): void {
    if (this.traceTransfers) this.log(transferLog(from, to, value))
  }

  /**
   * A CALL or CREATE with value that failed before its frame began (depth or balance): geth enters and
   * leaves the frame, so the transfer log it recorded and dropped still used up a log index.
   */
  abortedTransfer(value: bigint): void {
    if (this.traceTransfers && value > 0n && this.frames.length > 0) this.count++
  }

  logs(): SimLog[] {
    return this.frames[0] ?? []
  }
}
