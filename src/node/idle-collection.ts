/**
 * Young-generation garbage collection in the sequencer's idle time (issue 40). V8 collects its young
 * generation when it fills, wherever that happens: in the middle of a flashblock's build, or while a group
 * leader waits for the cluster's acknowledgement. Such a pause (milliseconds; longer when the machine is
 * busy) lands on that flashblock's pre-confirmation latency, and a leader whose event loop sits in one hears
 * its acknowledgement late: the group's slowest flashblocks were those with a collection inside the wait.
 * After a tick's work, with the next tick far enough away and the young generation at least half full, this
 * collects it there, in time no flashblock waits on.
 *
 * It owns the collector function (exposed at run time: `--expose-gc` set for one new context, then unset)
 * and the decision. It never starts a full collection and never collects when the next tick is near (a
 * sequencer that is behind gets no extra pauses). Without an exposable collector it does nothing.
 */

import v8 from 'node:v8'
import vm from 'node:vm'

/** Collect once the young generation is at least this full… */
export const YOUNG_FILL_TO_COLLECT = 0.5
/** …and the next tick at least this far away (a young collection takes milliseconds). */
export const IDLE_MS_TO_COLLECT = 50

export interface YoungGeneration {
  /** Bytes in use in the young generation's allocation space. */
  readonly used: number
  /** Bytes it holds before it must be collected (used + available). */
  readonly capacity: number
}

export function shouldCollect(young: YoungGeneration, msUntilNextTick: number): boolean {
  return msUntilNextTick >= IDLE_MS_TO_COLLECT && young.capacity > 0 && young.used >= YOUNG_FILL_TO_COLLECT * young.capacity
}

/** The young generation now (V8's `new_space`: its size counts both semi-spaces, so capacity is used + available). */
export function youngGeneration(): YoungGeneration {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
  return space === undefined ? { used: 0, capacity: 0 } : { used: space.space_used_size, capacity: space.space_used_size + space.space_available_size }
}

type Collector = (options: { type: 'minor' | 'major' }) => void

/** The sequencer's idle hook: given the time until its next tick, collects the young generation when worth it. */
export function idleYoungCollection(collector: Collector | undefined = exposedCollector(), young: () => YoungGeneration = youngGeneration): ((msUntilNextTick: number) => void) | undefined {
  if (collector === undefined) return undefined
  return (msUntilNextTick) => {
    if (shouldCollect(young(), msUntilNextTick)) collector({ type: 'minor' })
  }
}

let exposed: Collector | null | undefined

/** V8's collector, exposed once for a context of its own (the process's global `gc` stays as it was). */
function exposedCollector(): Collector | undefined {
  if (exposed === undefined) {
    const global = (globalThis as { gc?: unknown }).gc
    if (typeof global === 'function') exposed = global as Collector
    else {
      try {
        v8.setFlagsFromString('--expose-gc')
        const gc: unknown = vm.runInNewContext('gc')
        exposed = typeof gc === 'function' ? (gc as Collector) : null
      } catch {
        exposed = null
      } finally {
        v8.setFlagsFromString('--no-expose-gc')
      }
    }
  }
  return exposed ?? undefined
}
