/**
 * What one execution job's EVM runs add up to: the gas they used and the time `executeTransaction` took,
 * for the node's gas-per-second metrics (node/metrics.ts). A job that runs the EVM several times (an
 * estimate's binary search, an access list's rounds, a simulation's calls) adds each run.
 *
 * Cheap by design: one performance.now() pair around each run (no timer per opcode, nothing when no meter is
 * given), and plain numbers (a job's gas stays far below 2^53). Gas is a run's gas used as its receipt
 * would show it (after refunds). Only runs that end count: a transaction refused before execution (an
 * InvalidTransaction) or one stopped at its deadline (ExecutionTimeout) adds nothing.
 */

export class EvmMeter {
  /** Gas used by the runs so far. */
  gas = 0
  /** Seconds spent inside them. */
  seconds = 0

  /** A run that started at `startedMs` (performance.now()) has ended, having used `gasUsed`. */
  ran(gasUsed: bigint, startedMs: number): void {
    this.seconds += (performance.now() - startedMs) / 1000
    this.gas += Number(gasUsed)
  }
}
