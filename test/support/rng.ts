/**
 * A seeded pseudo-random generator for the fuzz suite and the randomized differential tests (sfc32 seeded
 * through splitmix32), so every run is reproducible: the fuzz seed comes from `FUZZ_SEED` (decimal or
 * 0x-hex) or is drawn at random, and is printed.
 * Nothing here touches I/O except reading the environment in `fuzzSeed`.
 */

export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: number) {
    let s = seed >>> 0
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
      return (z ^ (z >>> 16)) >>> 0
    }
    this.a = next()
    this.b = next()
    this.c = next()
    this.d = next()
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0
    this.d = (this.d + 1) >>> 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) >>> 0
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0
    this.c = (this.c + t) >>> 0
    return t
  }

  /** A number in [0, 1). */
  float(): number {
    return this.u32() / 0x1_0000_0000
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 0 ? 0 : Math.floor((this.u32() / 0x1_0000_0000) * n)
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }

  chance(p: number): boolean {
    return this.u32() / 0x1_0000_0000 < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff
    return out
  }

  /** A child generator: the same parent seed always gives the same children, in order. */
  fork(): Rng {
    return new Rng(this.u32())
  }
}

/** The run's seed: FUZZ_SEED when set, else a random one. */
export function fuzzSeed(): number {
  const raw = process.env['FUZZ_SEED']
  if (raw === undefined || raw.trim() === '') return (Math.random() * 0x1_0000_0000) >>> 0
  const n = Number(raw.trim())
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`FUZZ_SEED must be a whole number (decimal or 0x-hex), got "${raw}"`)
  return n >>> 0
}

/** How to rerun a failing case. */
export const reproduce = (file: string, seed: number): string => `FUZZ_SEED=${seed} node --import tsx --test ${file}`
