/**
 * Whether the execution pool may hand jobs to its extra workers: only while jobs wait for a worker and the
 * node's main thread leaves most of its core unused.
 *
 * Why: a worker pool as large as the machine is right for long executions (a loop-heavy eth_call, a
 * simulation of many frames: milliseconds of EVM per request against microseconds of HTTP and JSON on the
 * main thread), where the main thread idles and another worker takes the idle core: on 2 cores a second
 * worker made those rows 1.3-2.7x faster. Under short executions the main thread is near its own limit,
 * and a further worker takes CPU from it: one-call simulations lost 20-38% with it. So the gate opens when
 * the main thread's event-loop utilization is below `openBelow` while jobs wait, `openAfter` intervals in a
 * row (the first interval of a new load is mostly the idle time before it), and closes again above
 * `closeAbove` (hysteresis: a main thread that gets busier because the extra worker took its core closes
 * the gate, and it stays closed at that load).
 *
 * The decision is pure (`sample`, given a utilization and whether jobs wait), so it is tested without time;
 * the executor samples the real utilization on a timer.
 */

export interface SpareCoreOptions {
  /** How often the executor samples the main thread's utilization. */
  readonly intervalMs: number
  /** Open when the utilization of an interval is below this (0..1) and jobs wait at its end, */
  readonly openBelow: number
  /** ... for this many intervals in a row. */
  readonly openAfter: number
  /** Close when it is above this. */
  readonly closeAbove: number
}

export const DEFAULT_SPARE_CORE: SpareCoreOptions = { intervalMs: 250, openBelow: 0.35, openAfter: 2, closeAbove: 0.6 }

export class SpareCoreGate {
  private isOpen = false
  /** Intervals in a row that would open the gate. */
  private idleRun = 0

  constructor(
    private readonly options: SpareCoreOptions = DEFAULT_SPARE_CORE,
    private readonly changed?: (open: boolean, utilization: number) => void,
  ) {}

  get open(): boolean {
    return this.isOpen
  }

  /** One interval's main-thread utilization (0..1), and whether jobs were waiting for a worker at its end. */
  sample(utilization: number, jobsWaiting: boolean): void {
    this.idleRun = utilization < this.options.openBelow && jobsWaiting ? this.idleRun + 1 : 0
    const next = this.isOpen ? utilization <= this.options.closeAbove : this.idleRun >= this.options.openAfter
    if (next === this.isOpen) return
    this.isOpen = next
    this.changed?.(next, utilization)
  }
}
