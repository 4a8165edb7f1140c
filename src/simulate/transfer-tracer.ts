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
 * Bookkeeping fed by our EVM as its frame observer (src/evm/observer.ts: every frame is entered before the
 * depth and balance checks, as geth's tracer sees it, so a CALL with value that fails those checks records
 * its transfer and drops it, using up a log index). Transfer logs never reach receipts or the bloom.
 */

import type { LogView } from '../chain/types.ts'
import type { FrameObserver } from '../evm/observer.ts'
import { MessageKind, Status, type FrameResult, type Message } from '../evm/types.ts'
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

const word = (v: bigint): Uint8Array => bigIntToFixedBytes(v, 32)
const address = (v: bigint): Uint8Array => bigIntToFixedBytes(v, 20)

export class TransferTracer implements FrameObserver {
  /** The transaction's logs so far, in execution order: a frame's logs are a tail of this list. */
  private recorded: SimLog[] = []
  /** For each open frame, where its logs start in `recorded`; the top frame is never popped. */
  private starts: number[] = []
  /** Log index of the next log in this block. */
  private count = 0

  constructor(readonly traceTransfers: boolean) {}

  /** Starts a new transaction of the same block. */
  reset(): void {
    this.recorded = []
    this.starts = []
  }

  /** A frame starts (FrameObserver). DELEGATECALL, CALLCODE and STATICCALL move no value of their own. */
  enter(msg: Message): void {
    this.starts.push(this.recorded.length)
    const kind = msg.kind
    const moves = kind === MessageKind.Call || kind === MessageKind.Create || kind === MessageKind.Create2
    // the addresses as bytes only for a transfer log: most frames move no value
    if (moves && msg.value > 0n && this.traceTransfers) this.transfer(address(msg.caller), address(msg.recipient), msg.value)
  }

  /** A frame ends: a reverted one drops the logs it and its children recorded (their indexes stay used). */
  exit(result: FrameResult): void {
    const reverted = result.status !== Status.Success
    const depth = this.starts.length
    if (depth === 0) return
    const start = depth === 1 ? this.starts[0]! : this.starts.pop()!
    if (reverted) this.recorded.length = start
  }

  /** A LOG opcode (FrameObserver). */
  log(addr: bigint, topics: readonly bigint[], data: Uint8Array): void {
    this.record({ address: address(addr), topics: topics.map(word), data })
  }

  /** A SELFDESTRUCT (FrameObserver): only one moving a non-zero balance is a transfer. */
  selfDestruct(from: bigint, beneficiary: bigint, balance: bigint): void {
    if (balance === 0n) return
    this.transfer(address(from), address(beneficiary), balance)
  }

  private record(log: LogView): void {
    if (this.starts.length === 0) return
    this.recorded.push({ log, logIndex: this.count++ })
  }

  /** A value transfer inside the current frame. */
  private transfer(from: Uint8Array, to: Uint8Array, value: bigint): void {
    if (this.traceTransfers) this.record(transferLog(from, to, value))
  }

  /** The transaction's logs: its top frame's (none once that frame reverted). */
  logs(): SimLog[] {
    return this.recorded
  }
}
