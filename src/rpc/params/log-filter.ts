/**
 * eth_getLogs' filter object (geth's FilterCriteria) → `LogFilter`.
 *
 * `fromBlock` / `toBlock` are block numbers or tags (no hashes); `blockHash` excludes both. `address` is one
 * address or an array of them. `topics` has at most 4 positions; each is null (any), a topic, or an array of
 * topics (any of them; a null inside, or an empty array, makes the position a wildcard). geth's messages:
 * `invalid address at index N: …`, `exceed max topics`, `invalid topic(s)`, `hex has invalid length N after
 * decoding; expected 32 for topic`. A numeric range that runs backwards is `invalid block range params`,
 * which geth reports without the argument prefix.
 */

import { invalidParams } from '../../errors/errors.ts'
import type { BlockId } from '../../primitives/block-id.ts'
import type { LogFilter } from '../../node/api.ts'
import { parseBlockNumber } from './block-id.ts'
import { decodeHex, parseHash } from './hex.ts'
import { ParamError, fail, inField } from './param-error.ts'
import { isPlainObject, jsonKind, readFields, typeError } from './json.ts'

/** Field lists of the objects read here (module constants: readFields indexes each once). */
const FILTER_FIELDS = ['blockHash', 'fromBlock', 'toBlock', 'address', 'topics'] as const

const MAX_TOPICS = 4
const MAX_SUB_TOPICS = 1000

function decodeSized(s: string, size: number, what: string): Uint8Array {
  const b = decodeHex(s)
  if (b.length !== size) fail(`hex has invalid length ${b.length} after decoding; expected ${size} for ${what}`)
  return b
}

function withPrefix<T>(prefix: string, f: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof ParamError) fail(`${prefix}: ${e.reason}`)
    throw e
  }
}

function parseAddresses(raw: unknown): Uint8Array[] {
  if (raw === undefined) return []
  if (typeof raw === 'string') return [withPrefix('invalid address', () => decodeSized(raw, 20, 'address'))]
  if (!Array.isArray(raw)) fail('invalid addresses in query')
  return raw.map((a: unknown, i) => {
    if (typeof a !== 'string') fail(`non-string address at index ${i}`)
    return withPrefix(`invalid address at index ${i}`, () => decodeSized(a, 20, 'address'))
  })
}

function parseTopicPosition(raw: unknown): Uint8Array[] | null {
  if (raw === null || raw === undefined) return null
  if (typeof raw === 'string') return [decodeSized(raw, 32, 'topic')]
  if (!Array.isArray(raw)) fail('invalid topic(s)')
  if (raw.length > MAX_SUB_TOPICS) fail('exceed max topics')
  const out: Uint8Array[] = []
  for (const t of raw as unknown[]) {
    if (t === null) return null
    if (typeof t !== 'string') fail('invalid topic(s)')
    out.push(decodeSized(t, 32, 'topic'))
  }
  return out.length === 0 ? null : out
}

function parseTopics(raw: unknown): (Uint8Array[] | null)[] {
  if (raw === undefined) return []
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), '[]interface {}').within('topics')
  if (raw.length > MAX_TOPICS) fail('exceed max topics')
  return raw.map(parseTopicPosition)
}

const numberOf = (id: BlockId | undefined): bigint | undefined => (id?.kind === 'number' ? id.number : undefined)

export function parseLogFilter(raw: unknown): LogFilter {
  if (!isPlainObject(raw)) throw typeError(jsonKind(raw), 'filters.FilterCriteria')
  const f = readFields(raw, FILTER_FIELDS)
  const blockHash = f.blockHash === undefined ? undefined : inField('blockHash', () => parseHash(f.blockHash))
  const fromBlock = f.fromBlock === undefined ? undefined : inField('fromBlock', () => parseBlockNumber(f.fromBlock))
  const toBlock = f.toBlock === undefined ? undefined : inField('toBlock', () => parseBlockNumber(f.toBlock))
  const addresses = parseAddresses(f.address)
  const topics = parseTopics(f.topics)
  if (blockHash !== undefined) {
    if (fromBlock !== undefined || toBlock !== undefined) {
      fail('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    }
    return { blockHash, addresses, topics }
  }
  const from = numberOf(fromBlock)
  const to = numberOf(toBlock)
  if (from !== undefined && to !== undefined && from > 0n && to > 0n && from > to) {
    throw invalidParams('invalid block range params')
  }
  return {
    ...(fromBlock !== undefined ? { fromBlock } : {}),
    ...(toBlock !== undefined ? { toBlock } : {}),
    addresses,
    topics,
  }
}
