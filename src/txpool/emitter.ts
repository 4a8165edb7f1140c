/**
 * A tiny typed event emitter. Listeners run synchronously in registration order; a listener that throws
 * does not stop the others, nor the pool operation that emitted: its error is rethrown on a microtask
 * (an uncaught error, loud on purpose: a listener bug must not corrupt the pool).
 */

export type EventMap = Record<string, unknown[]>

export class Emitter<E extends EventMap> {
  private readonly listeners: { [K in keyof E]?: Array<(...args: E[K]) => void> } = {}

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof E>(event: K, listener: (...args: E[K]) => void): () => void {
    const list = (this.listeners[event] ??= [])
    list.push(listener)
    return () => {
      const i = list.indexOf(listener)
      if (i >= 0) list.splice(i, 1)
    }
  }

  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    const list = this.listeners[event]
    if (list === undefined || list.length === 0) return
    for (const listener of list.slice()) {
      try {
        listener(...args)
      } catch (e) {
        queueMicrotask(() => {
          throw e
        })
      }
    }
  }

  listenerCount(event: keyof E): number {
    return this.listeners[event]?.length ?? 0
  }
}

/**
 * Events held back while an operation is under way, emitted in order by `flush()` once it is done (so a
 * listener never sees a half-updated owner). A flush started by a listener's re-entrant call is left to the
 * outer one, which keeps the order.
 */
export class EventQueue<E extends EventMap> {
  private readonly queued: Array<() => void> = []
  private flushing = false

  constructor(private readonly emitter: Emitter<E>) {}

  push<K extends keyof E>(event: K, ...args: E[K]): void {
    if (this.emitter.listenerCount(event) === 0) return
    this.queued.push(() => this.emitter.emit(event, ...args))
  }

  flush(): void {
    if (this.flushing) return
    this.flushing = true
    try {
      for (let i = 0; i < this.queued.length; i++) this.queued[i]!()
    } finally {
      this.queued.length = 0
      this.flushing = false
    }
  }
}
