/**
 * Time for the sequencer, injectable: the real scheduler uses timers; tests use ManualScheduler and move
 * time explicitly (never sleeping for a tick).
 */

export interface Scheduler {
  now(): number
  /** Runs `fn` after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms)
    t.unref?.()
    return () => clearTimeout(t)
  },
}

export class ManualScheduler implements Scheduler {
  private time: number
  private queue: { at: number; fn: () => void; id: number }[] = []
  private nextId = 0

  constructor(start = 1_700_000_000_000) {
    this.time = start
  }

  now(): number {
    return this.time
  }

  after(ms: number, fn: () => void): () => void {
    const entry = { at: this.time + ms, fn, id: this.nextId++ }
    this.queue.push(entry)
    return () => {
      this.queue = this.queue.filter((e) => e !== entry)
    }
  }

  /** Moves time forward, running due callbacks in order. */
  advance(ms: number): void {
    const target = this.time + ms
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id)
      const next = this.queue[0]
      if (next === undefined || next.at > target) break
      this.queue.shift()
      this.time = next.at
      next.fn()
    }
    this.time = target
  }
}
