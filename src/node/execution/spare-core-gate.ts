/**
 * Whether the execution pool may hand every kind of job to its extra workers (simulations and long calls go
 * to them either way: worker-executor.ts): only while they raise the rate at which jobs complete, and tried only when jobs
 * wait and the node's main thread leaves most of its core unused.
 *
 * Why: a worker pool as large as the machine is right for long executions (a loop-heavy eth_call, a swap's
 * simulation, a multicall: hundreds of µs to ms of EVM per request against tens of µs of HTTP and JSON on the
 * main thread), where another worker takes the core the main thread leaves idle: on 2 cores a second worker
 * made those rows 1.3-2.7x faster. Under short executions the main thread is near its own limit and a further
 * worker takes CPU from it: one-call simulations lost 20-38% with it.
 *
 * How: closed, the gate opens after `openAfter` intervals in a row in which jobs waited and the main
 * thread's event-loop utilization stayed below `openBelow` (the first interval of a new load is mostly the
 * idle time before it). Every change is then a trial: after its settling intervals, the jobs completed over
 * `trialIntervals` are set against the rate before the change (the settling is longer after opening: a fresh
 * worker's first jobs run before its JIT has warmed up, and a trial that counted them failed about every
 * other time). Opening must raise the rate by `minGain` or it is undone, and the gate stays shut for
 * `holdIntervals` (doubling after each failed trial in a row, up to `maxHoldIntervals`; an interval in which
 * nothing ran ends the hold: the next load is a new one). While open, every `recheckEvery` intervals it
 * closes on trial: if the rate without the extra workers is within `minGain` of the rate with them, it stays
 * closed (the load changed), else it reopens. A main thread busier than `closeAbove` closes it at once
 * (short executions after long ones: the next row of a benchmark, a burst of eth_call), with no trial. That
 * mark is high: with three busy threads on two cores the main thread's utilization rises because it waits
 * for a core, not because it has more to do (a multicall load went from 0.33 to 0.61 while its rate rose by
 * ~40%), and the former mark of 0.6 closed the gate just when it paid.
 *
 * The decision is pure (`sample`, given an interval's utilization, whether jobs wait, and the jobs completed
 * in it), so it is tested without time; the executor samples the real figures on a timer.
 */

export interface SpareCoreOptions {
  /** How often the executor samples the main thread's utilization and the jobs completed. */
  readonly intervalMs: number
  /** Try opening when the utilization of an interval is below this (0..1) and jobs wait at its end, */
  readonly openBelow: number
  /** ... for this many intervals in a row. */
  readonly openAfter: number
  /** Close at once when the utilization of an interval is above this. */
  readonly closeAbove: number
  /** Intervals after opening that are not measured: an extra worker's first jobs run cold (its JIT warms up). */
  readonly openSettleIntervals: number
  /** Intervals after closing for a recheck that are not measured (the queue evens out). */
  readonly closeSettleIntervals: number
  /** Intervals measured after a change. */
  readonly trialIntervals: number
  /** The factor by which the extra workers must raise the completion rate to be kept (e.g. 1.1). */
  readonly minGain: number
  /** Intervals the gate stays shut after a trial that did not pay; doubled for each such trial in a row. */
  readonly holdIntervals: number
  readonly maxHoldIntervals: number
  /** Open intervals between two checks that the extra workers still pay. */
  readonly recheckEvery: number
}

export const DEFAULT_SPARE_CORE: SpareCoreOptions = {
  intervalMs: 250,
  openBelow: 0.45,
  openAfter: 2,
  closeAbove: 0.8,
  openSettleIntervals: 3,
  closeSettleIntervals: 1,
  trialIntervals: 3,
  minGain: 1.1,
  holdIntervals: 4,
  maxHoldIntervals: 80,
  recheckEvery: 120,
}

/** Why the gate turned, with the completion rates (jobs an interval) it compared, for the node's log. */
export interface GateTurn {
  readonly open: boolean
  readonly reason: 'main thread idle while jobs wait' | 'extra workers did not pay' | 'extra workers pay' | 'recheck' | 'load changed' | 'main thread busy'
  readonly utilization: number
  readonly rateBefore?: number
  readonly rateAfter?: number
}

type Phase = 'closed' | 'trying-open' | 'open' | 'trying-closed'

export class SpareCoreGate {
  private isOpen = false
  private phase: Phase = 'closed'
  /** Completions of the last intervals that would open the gate (closed), or of a trial's measured ones. */
  private recent: number[] = []
  /** Intervals since the current trial's change, or since the last check while open. */
  private step = 0
  /** The rate the current trial is set against. */
  private rateBefore = 0
  private holdLeft = 0
  private failedInARow = 0

  constructor(
    private readonly options: SpareCoreOptions = DEFAULT_SPARE_CORE,
    private readonly changed?: (turn: GateTurn) => void,
  ) {}

  get open(): boolean {
    return this.isOpen
  }

  /** One interval: the main thread's utilization (0..1), whether jobs waited at its end, jobs completed in it. */
  sample(utilization: number, jobsWaiting: boolean, completed: number): void {
    const o = this.options
    if (this.isOpen && utilization > o.closeAbove) {
      this.phase = 'closed'
      this.recent = []
      this.turn({ open: false, reason: 'main thread busy', utilization })
      return
    }
    switch (this.phase) {
      case 'closed': {
        if (completed === 0 && !jobsWaiting) {
          // a quiet interval: whatever load comes next is a new one, owed a fresh trial
          this.holdLeft = 0
          this.failedInARow = 0
        }
        if (this.holdLeft > 0) {
          this.holdLeft--
          return
        }
        if (utilization < o.openBelow && jobsWaiting) this.recent.push(completed)
        else this.recent = []
        if (this.recent.length < o.openAfter) return
        this.beginTrial('trying-open', mean(this.recent))
        this.turn({ open: true, reason: 'main thread idle while jobs wait', utilization, rateBefore: this.rateBefore })
        return
      }
      case 'open': {
        this.recent.push(completed)
        if (this.recent.length > o.trialIntervals) this.recent.shift()
        if (++this.step < o.recheckEvery) return
        this.beginTrial('trying-closed', mean(this.recent))
        this.turn({ open: false, reason: 'recheck', utilization, rateBefore: this.rateBefore })
        return
      }
      case 'trying-open':
      case 'trying-closed': {
        if (++this.step <= (this.phase === 'trying-open' ? o.openSettleIntervals : o.closeSettleIntervals)) return
        this.recent.push(completed)
        if (this.recent.length < o.trialIntervals) return
        const rateAfter = mean(this.recent)
        const opened = this.phase === 'trying-open'
        // with the extra workers (after opening, or before closing) against without them
        const withExtra = opened ? rateAfter : this.rateBefore
        const without = opened ? this.rateBefore : rateAfter
        // a ratio with a little slack, so that a gain of exactly minGain counts despite rounding
        const pays = without === 0 ? withExtra > 0 : withExtra / without >= o.minGain - 1e-9
        const figures = { utilization, rateBefore: this.rateBefore, rateAfter }
        if (pays) {
          this.failedInARow = 0
          this.phase = 'open'
          this.step = 0
          this.recent = opened ? this.recent : []
          if (!opened) this.turn({ open: true, reason: 'extra workers pay', ...figures })
        } else {
          this.failedInARow++
          this.holdLeft = Math.min(o.maxHoldIntervals, o.holdIntervals * 2 ** (this.failedInARow - 1))
          this.phase = 'closed'
          this.recent = []
          this.turn({ open: false, reason: opened ? 'extra workers did not pay' : 'load changed', ...figures }, true)
        }
        return
      }
    }
  }

  private beginTrial(phase: 'trying-open' | 'trying-closed', rateBefore: number): void {
    this.phase = phase
    this.rateBefore = rateBefore
    this.step = 0
    this.recent = []
  }

  /** Reports a change of state, and with `always` a decision that keeps the state (a recheck that stays shut). */
  private turn(turn: GateTurn, always = false): void {
    if (turn.open === this.isOpen) {
      if (always) this.changed?.(turn)
      return
    }
    this.isOpen = turn.open
    this.changed?.(turn)
  }
}

function mean(xs: readonly number[]): number {
  return xs.reduce((sum, x) => sum + x, 0) / xs.length
}
