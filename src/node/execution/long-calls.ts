/**
 * Which eth_call jobs are long: a call to the same contract and function (its 4-byte selector) whose last
 * run took at least LONG_CALL_SECONDS of EVM time. The execution pool lets such a call use its extra
 * worker whether or not the spare-core gate is open, as it does simulations (worker-executor.ts).
 *
 * Why: a call that executes for longer than the main thread spends on its request (~100-150 µs of HTTP,
 * JSON and hand-off here) leaves the worker as the limit, and a second worker raises the rate; the gate
 * finds that out by trial, which a machine this noisy fails now and then, and holds it shut for seconds
 * after. A short call (an ERC-20 balanceOf, ~20 µs) never counts as long. Bounded: the last run of at most
 * MAX_REMEMBERED functions (the least recently used go first).
 */

import { bytesKey } from '../../primitives/bytes-key.ts'
import { Lru } from '../../primitives/lru.ts'
import type { ExecutionJob } from './jobs.ts'
import { registerGauge } from '../../primitives/memory-gauges.ts'

/** EVM seconds from which a call counts as long. */
export const LONG_CALL_SECONDS = 250e-6
const MAX_REMEMBERED = 1024

export class LongCalls {
  private readonly lastSeconds = new Lru<string, number>(MAX_REMEMBERED)

  /** `mark`: the EVM seconds from which a call counts as long (Infinity: none does). */
  constructor(private readonly mark: number = LONG_CALL_SECONDS) {
    registerGauge('long-call functions', this.lastSeconds, (c) => c.gauge())
  }

  /** Whether `job` is a call whose function ran long the last time. */
  isLong(job: ExecutionJob): boolean {
    const key = keyOf(job)
    if (key === undefined) return false
    const seconds = this.lastSeconds.get(key)
    return seconds !== undefined && seconds >= this.mark
  }

  /** Remembers how long `job`'s EVM runs took (calls only). */
  record(job: ExecutionJob, seconds: number): void {
    const key = keyOf(job)
    if (key !== undefined) this.lastSeconds.set(key, seconds)
  }
}

/** A call's contract and selector (the first four bytes of its data); undefined for other jobs and creations. */
function keyOf(job: ExecutionJob): string | undefined {
  if (job.kind !== 'call') return undefined
  const to = job.request.to
  if (to === undefined || to === null) return undefined
  const data = job.request.data
  return bytesKey(to) + (data === undefined ? '' : bytesKey(data.subarray(0, 4)))
}
