/**
 * This thread's registry of bounded structures (caches, buffers, per-connection and per-request tables), so
 * a running node can say how full each is against its bound (node/thread-memory.ts reads it for
 * `flashnode_memory`; the soak and the growth test read that).
 *
 * A structure registers once, when it is made, under a stable name, with its owner and a reader of its
 * figures. The registry holds the owner only weakly: an owner that is dropped (a node closed in a test, a
 * replaced cache) disappears from the readings, and the registry prunes such entries as it grows, so
 * registering never becomes a leak of its own. Reading is on request only (nothing is timed here), and a
 * reader must be cheap: sizes kept by the structure, never a walk over its entries.
 *
 * Must never: hold an owner strongly, or register anything made per request.
 */

export interface GaugeReading {
  /** Entries held now. */
  readonly entries: number
  /** The most entries it keeps (absent: bounded by bytes only, or by something the caller documents). */
  readonly maxEntries?: number
  /** Bytes held now, as the structure weighs them (absent: not weighed). */
  readonly bytes?: number
  /** The most bytes it keeps. */
  readonly maxBytes?: number
}

/** One name's figures summed over its live instances on this thread. */
export interface GaugeFigures {
  readonly name: string
  readonly instances: number
  readonly entries: number
  readonly maxEntries: number | null
  readonly bytes: number | null
  readonly maxBytes: number | null
}

interface Registered {
  readonly name: string
  readonly owner: WeakRef<object>
  readonly read: (owner: never) => GaugeReading
}

let registered: Registered[] = []
let pruneAt = 64

/** Registers `owner`'s structure under `name`; `read` gets the owner back (never capture it in `read`). */
export function registerGauge<T extends object>(name: string, owner: T, read: (owner: T) => GaugeReading): void {
  registered.push({ name, owner: new WeakRef(owner), read: read as (owner: never) => GaugeReading })
  if (registered.length >= pruneAt) {
    registered = registered.filter((r) => r.owner.deref() !== undefined)
    pruneAt = Math.max(64, registered.length * 2)
  }
}

/** Every registered name's figures, summed over its live instances, in name order. */
export function readGauges(): GaugeFigures[] {
  const byName = new Map<string, { instances: number; entries: number; maxEntries: number | null; bytes: number | null; maxBytes: number | null }>()
  for (const r of registered) {
    const owner = r.owner.deref()
    if (owner === undefined) continue
    const g = r.read(owner as never)
    let sum = byName.get(r.name)
    if (sum === undefined) byName.set(r.name, (sum = { instances: 0, entries: 0, maxEntries: 0, bytes: null, maxBytes: null }))
    sum.instances++
    sum.entries += g.entries
    sum.maxEntries = g.maxEntries === undefined || sum.maxEntries === null ? null : sum.maxEntries + g.maxEntries
    if (g.bytes !== undefined) sum.bytes = (sum.bytes ?? 0) + g.bytes
    if (g.maxBytes !== undefined) sum.maxBytes = (sum.maxBytes ?? 0) + g.maxBytes
  }
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, s]) => ({ name, ...s }))
}
