/**
 * Tracing on our EVM, as geth's debug_trace* methods run it: the transactions of a block replayed on their
 * parent's state (block-execution.ts, the same code that built and imported the block) with a tracer on the
 * ones asked for, and a call traced on a block's state (call-executor.ts). The tracer is geth's by name
 * (evm/tracers: callTracer, prestateTracer, …) or, when none is named, the struct logger.
 *
 * It owns the order of a replay: the block's opening system calls, every earlier transaction untraced, the
 * traced one with its tracer's observers and its place in the block (log index, hash, position). It never
 * writes: the WorldState it runs on is dropped with the replay. Everything is bounded by the caller's deadline
 * (the EVM stops at it with ExecutionTimeout).
 *
 * An OP Stack block replays by its OP fork (BlockExecution's OP hooks: each transaction with its canonical
 * bytes pays its L1 data and operator fees, and the vaults are credited, as when it was built); its leading
 * deposits replay through the deposit hook, and a traced deposit is told to its tracer as op-geth's
 * state processor tells it: the deposit's message (from, to, value, gas, data) at txStart, before its mint is
 * credited, and its receipt's gas used at txEnd. On an OP chain prestateTracer also looks up the base fee vault
 * (op-geth's eth/tracers/native/prestate.go).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { createTracer, type Tracer } from '../evm/tracers/index.ts'
import type { StateReader } from '../state/state-reader.ts'
import { bytesToBigInt } from '../primitives/hex.ts'
import { BlockExecution } from './block-execution.ts'
import { txInputOf } from './evm-env.ts'
import { depositTxInput } from './op-deposit.ts'
import type { DepositTransaction } from '../opstack/deposit-tx.ts'
import type { OpForkName } from '../opstack/forks.ts'
import { BASE_FEE_VAULT } from '../opstack/fee-vaults.ts'

export { TracerConfigError, TraceTooLarge } from '../evm/tracers/index.ts'

/** What to trace with: geth's TraceConfig, parsed (rpc/params/trace.ts). */
export interface TraceSpec {
  /** A tracer's name; absent: the struct logger, configured by `logger`. */
  readonly tracer?: string
  readonly tracerConfig?: unknown
  /** The struct logger's options (geth's top-level enableMemory, disableStack, disableStorage, enableReturnData, limit). */
  readonly logger?: Readonly<Record<string, unknown>>
}

/** One transaction's trace, as debug_traceBlock* answers it. */
export interface TracedTransaction {
  readonly txHash: Uint8Array
  readonly result: unknown
}

/**
 * A block's transaction to replay: the decoded transaction (on an OP chain with its canonical bytes, which its
 * L1 data fee is computed from), its sender and hash; or an OP Stack deposit.
 */
export type ReplayTransaction =
  | { readonly tx: TypedTransaction; readonly raw?: Uint8Array; readonly sender: Uint8Array; readonly hash: Uint8Array }
  | { readonly deposit: DepositTransaction; readonly sender: Uint8Array; readonly hash: Uint8Array }

/** The accounts prestateTracer looks up beside the transaction's own on a chain with OP fork `opFork`. */
export function opChainAccounts(opFork: OpForkName | undefined): readonly bigint[] | undefined {
  return opFork === undefined ? undefined : OP_CHAIN_ACCOUNTS
}

const OP_CHAIN_ACCOUNTS: readonly bigint[] = [BASE_FEE_VAULT]

export function tracerFor(spec: TraceSpec): Tracer {
  if (spec.tracer === undefined || spec.tracer === '') return createTracer('', spec.logger ?? {})
  return createTracer(spec.tracer, spec.tracerConfig)
}

/** Checks a spec before any work: an unknown tracer or a bad configuration throws TracerConfigError. */
export function checkTraceSpec(spec: TraceSpec): void {
  tracerFor(spec)
}

export interface BlockReplay {
  /** The block's header (its environment), and its hash where it has one (zero for the open block). */
  readonly header: BlockHeader
  readonly blockHash: Uint8Array
  /** The parent's state. */
  readonly base: StateReader
  /** BLOCKHASH. */
  readonly blockHashOf: (n: bigint) => bigint
  readonly transactions: readonly ReplayTransaction[]
  /** The block's OP fork on an OP Stack chain (ChainRules.opFork); undefined on Ethereum. */
  readonly opFork?: OpForkName
}

/**
 * Replays `replay`'s transactions and traces those whose position `traced` accepts (stopping after the last
 * one asked for). A transaction the block could not include would mean a corrupt store: it throws.
 */
export function traceBlock(replay: BlockReplay, spec: TraceSpec, traced: (index: number) => boolean, last: number, deadline: number): TracedTransaction[] {
  const exec = new BlockExecution(replay.base, replay.header, replay.blockHashOf, replay.opFork)
  exec.open(replay.header.parentHash, replay.header.parentBeaconBlockRoot)
  const out: TracedTransaction[] = []
  let logs = 0
  const blockHash = bytesToBigInt(replay.blockHash)
  const chainAccounts = opChainAccounts(replay.opFork)
  for (let i = 0; i <= last && i < replay.transactions.length; i++) {
    const t = replay.transactions[i]!
    const run = (extra: Parameters<BlockExecution['run']>[1]) => {
      if ('deposit' in t) return exec.runDeposit(t.deposit, extra).result
      const input = txInputOf(t.tx, t.sender)
      return replay.opFork === undefined ? exec.run(input, extra) : exec.run(input, extra, t.raw ?? t.tx.serialize())
    }
    if (!traced(i)) {
      logs += run({ deadline }).logs.length
      continue
    }
    // A deposit's message as its tracer is told it: `from`'s nonce before the mint (which does not change it).
    const input = 'deposit' in t ? depositTxInput(t.deposit, exec.world.getNonce(bytesToBigInt(t.deposit.from))) : txInputOf(t.tx, t.sender)
    const tracer = tracerFor(spec)
    tracer.txStart({ world: exec.world, block: exec.env, rules: exec.rules, tx: input, firstLogIndex: logs, blockHash, txHash: bytesToBigInt(t.hash), txIndex: i, ...(chainAccounts === undefined ? {} : { chainAccounts }) })
    const result = run({ deadline, observer: tracer.observer, ...(tracer.steps === undefined ? {} : { steps: tracer.steps }) })
    tracer.txEnd(result)
    logs += result.logs.length
    out.push({ txHash: t.hash, result: tracer.result() })
  }
  return out
}
