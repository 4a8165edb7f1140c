/**
 * The length FastLZ (level 1) would compress a byte string to, without producing the compressed bytes: the
 * size estimate Fjord's L1 data fee regresses on. OP Stack clients and the GasPriceOracle contract all use
 * the same counting (the one in solady's LibZip `flzCompress`), so this must agree with it to the byte,
 * quirks included; `fastlz.test.ts` holds it to op-geth's vectors.
 *
 * Owns: the compressed-length count. It never allocates output, never decompresses, and never decides fees.
 *
 * The scan, as the format describes it: a table remembers, for each hash of three bytes, the last position
 * that hashed there. Walking the input from position 2, a position whose three bytes equal those at the
 * remembered one, no more than 8191 bytes back, starts a match; the bytes before it since the last match
 * are literals. Literals cost one control byte per run of up to 32 plus the bytes; a match costs 2 bytes, 3
 * when its length code needs the extra byte, plus 3 per 262-byte chunk of a long match. The last 13 bytes
 * are never searched (they end as literals), nor is a match kept whose next position is the last searched one;
 * and a match's length counts the first differing byte too (the reference encoder's compare loop steps past
 * it), bounded by the search limit plus 9.
 *
 * The hash table is one for the module, not one per call (a fresh 32 KiB table per transaction was most of a
 * call's cost): a call's entries are stored offset by a base above every earlier call's, so an entry below the
 * base reads as the zero a fresh table holds. Calls never interleave (the count is synchronous).
 */

const HASH_BITS = 13
const HASH_SIZE = 1 << HASH_BITS
const MAX_DISTANCE = 0x1fff
const TAIL_NOT_SEARCHED = 13
const MATCH_READ_BEYOND_LIMIT = 9
const LITERAL_RUN = 32
const MATCH_CHUNK = 262
const SHORT_MATCH_CODES = 6
/** Fibonacci hashing constant (2^32 / golden ratio), as the format's hash uses it. */
const GOLDEN = 2654435769

const read24 = (bytes: Uint8Array, at: number): number => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)

const hash24 = (value: number): number => (Math.imul(GOLDEN | 0, value) >>> (32 - HASH_BITS)) & (HASH_SIZE - 1)

/** Cost in bytes of `count` literal bytes. */
function literalCost(count: number): number {
  const fullRuns = Math.floor(count / LITERAL_RUN)
  const rest = count % LITERAL_RUN
  return fullRuns * (LITERAL_RUN + 1) + (rest === 0 ? 0 : rest + 1)
}

/** Cost in bytes of a match of `length` bytes. */
function matchCost(length: number): number {
  const code = length - 1
  return 3 * Math.floor(code / MATCH_CHUNK) + (code % MATCH_CHUNK >= SHORT_MATCH_CODES ? 3 : 2)
}

/** How many bytes from `from` equal those from `reference`, counting the first unequal one, at most `bound`. */
function matchLength(bytes: Uint8Array, reference: number, from: number, bound: number): number {
  for (let i = 0; i < bound; i++) if (bytes[reference + i] !== bytes[from + i]) return i + 1
  return bound
}

const table = new Int32Array(HASH_SIZE)
/** What this call's entries are stored above: every entry written by an earlier call is below it. */
let base = 1
const MAX_STORED = 0x7fff_ffff

/** The FastLZ-compressed length of `input`, in bytes. */
export function fastLzCompressedLength(input: Uint8Array): number {
  if (base + input.length >= MAX_STORED) {
    table.fill(0)
    base = 1
  }
  const offset = base
  base += input.length + 1
  const limit = Math.max(input.length - TAIL_NOT_SEARCHED, 0)
  let size = 0
  let anchor = 0
  let position = 2
  while (position < limit) {
    let reference = 0
    let found = false
    while (position < limit) {
      const sequence = read24(input, position)
      const slot = hash24(sequence)
      const stored = table[slot]!
      reference = stored >= offset ? stored - offset : 0
      table[slot] = position + offset
      if (position - reference <= MAX_DISTANCE && sequence === read24(input, reference)) {
        found = true
        break
      }
      position++
    }
    // a match whose next position reaches the limit is dropped: the tail is left to the literals
    if (!found || position + 1 >= limit) break
    if (position > anchor) size += literalCost(position - anchor)
    const length = matchLength(input, reference + 3, position + 3, limit + MATCH_READ_BEYOND_LIMIT - (position + 3))
    size += matchCost(length)
    position += length
    for (let k = 0; k < 2; k++) {
      table[hash24(read24(input, position))] = position + offset
      position++
    }
    anchor = position
  }
  return size + literalCost(input.length - anchor)
}
