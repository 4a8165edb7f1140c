/**
 * Progress of a long job (import today, a follower's catch-up later): on a terminal, one line redrawn in
 * place (a bar, the percentage, done/total, the rate and the time left); anywhere else, a log line now and
 * then (every `logEveryMs`, default 5 s, or every `logEveryFraction` of the work, default a tenth, whichever
 * comes first), and one when the job ends.
 *
 * The rate is the average since the start (units per second) and the time left is what remains at that
 * rate; both are absent until some work and some time have passed. The job reports how far it is with
 * `update(done)`; this module does no timing of its own (the clock is injected) and never throws into the
 * job: it only writes.
 */

import type { Logger } from '../primitives/logger.ts'

/** Where a terminal's line goes (process.stderr). */
export interface ProgressTerminal {
  readonly isTTY?: boolean
  readonly columns?: number
  write(text: string): unknown
}

export interface ProgressOptions {
  /** What is in progress, e.g. `import chain.rlp`. */
  readonly job: string
  readonly total: number
  /** The unit counted, plural (`blocks`). */
  readonly unit: string
  readonly terminal: ProgressTerminal
  /** Where the lines go when `terminal` is not a terminal. */
  readonly log: Logger
  /** Clock, ms (default performance.now). */
  readonly now?: () => number
  readonly logEveryMs?: number
  readonly logEveryFraction?: number
  /** Least time between two redraws on a terminal (ms). */
  readonly redrawEveryMs?: number
}

export interface Progress {
  update(done: number): void
  /** The job ended (at `done`, default the last update): a final redraw and newline, or a final line. */
  finish(done?: number): void
}

export interface ProgressFigures {
  readonly done: number
  readonly total: number
  /** 0-100, one decimal. */
  readonly percent: number
  /** Units per second since the start; null until time has passed. */
  readonly rate: number | null
  /** Seconds left at that rate; null while there is no rate. */
  readonly etaSeconds: number | null
  readonly elapsedSeconds: number
}

export function figures(done: number, total: number, elapsedMs: number): ProgressFigures {
  const percent = total <= 0 ? 100 : Math.round((1000 * Math.min(done, total)) / total) / 10
  const rate = elapsedMs > 0 && done > 0 ? (done * 1000) / elapsedMs : null
  const etaSeconds = rate === null ? null : Math.max(0, total - done) / rate
  return { done, total, percent, rate, etaSeconds, elapsedSeconds: elapsedMs / 1000 }
}

/** 75 -> `1:15`, 3725 -> `1:02:05`. */
export function clock(seconds: number): string {
  const s = Math.round(seconds)
  const two = (n: number) => String(n).padStart(2, '0')
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`
}

const rateText = (rate: number | null): string => (rate === null ? '–' : rate >= 100 ? rate.toFixed(0) : rate.toFixed(1))

/** The terminal line (without the carriage return), at most `columns` wide. */
export function progressLine(job: string, unit: string, f: ProgressFigures, columns: number): string {
  const tail = ` ${f.percent.toFixed(1).padStart(5)}%  ${f.done}/${f.total} ${unit}  ${rateText(f.rate)} ${unit}/s  ${f.etaSeconds === null ? 'ETA –' : `ETA ${clock(f.etaSeconds)}`}`
  const room = columns - job.length - tail.length - 3
  const width = Math.min(40, room)
  if (width < 10) return `${job}${tail}`.slice(0, columns)
  const filled = Math.round((width * f.percent) / 100)
  return `${job} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${tail}`
}

export function startProgress(opts: ProgressOptions): Progress {
  const now = opts.now ?? (() => performance.now())
  const started = now()
  const onTerminal = opts.terminal.isTTY === true
  const logEveryMs = opts.logEveryMs ?? 5_000
  const step = Math.max(1, Math.ceil(opts.total * (opts.logEveryFraction ?? 0.1)))
  const redrawEveryMs = opts.redrawEveryMs ?? 100
  let last = 0
  let lastAt = started
  let loggedDone = 0
  let finished = false

  const draw = (f: ProgressFigures) => opts.terminal.write(`\r${progressLine(opts.job, opts.unit, f, opts.terminal.columns || 80)}\x1b[K`)
  const logLine = (f: ProgressFigures, message: string) => {
    loggedDone = f.done
    opts.log.info(
      {
        job: opts.job,
        unit: opts.unit,
        done: f.done,
        total: f.total,
        percent: f.percent,
        rate: f.rate === null ? null : Math.round(f.rate * 10) / 10,
        etaSeconds: f.etaSeconds === null ? null : Math.round(f.etaSeconds),
        elapsedSeconds: Math.round(f.elapsedSeconds * 10) / 10,
      },
      message,
    )
  }

  return {
    update(done: number): void {
      if (finished) return
      last = done
      const at = now()
      if (onTerminal) {
        if (at - lastAt < redrawEveryMs) return
        lastAt = at
        draw(figures(done, opts.total, at - started))
        return
      }
      if (at - lastAt < logEveryMs && done - loggedDone < step) return
      lastAt = at
      logLine(figures(done, opts.total, at - started), 'progress')
    },
    finish(done: number = last): void {
      if (finished) return
      finished = true
      const f = figures(done, opts.total, now() - started)
      if (onTerminal) {
        draw(f)
        opts.terminal.write('\n')
      } else logLine(f, 'done')
    },
  }
}
