/**
 * Block selectors → `BlockId`, with geth's two decoders:
 *
 * - `parseBlockNumber` (geth's rpc.BlockNumber; eth_getBlockByNumber, eth_feeHistory, log ranges): a tag
 *   (`latest`, `pending`, `safe`, `finalized`, `earliest`) or a hex number up to int64;
 * - `parseBlockNumberOrHash` (geth's rpc.BlockNumberOrHash; state reads, eth_call, eth_getBlockReceipts): the
 *   same, or a 66-character string read as a block hash, or an EIP-1898 object `{blockNumber}` /
 *   `{blockHash, requireCanonical?}`.
 * An omitted optional block parameter is `latest`; that default lives in the method's arg spec. A string
 * that is neither (`"Pending"`, `"head"`) keeps geth's reason and code and is told the valid tags.
 */

import type { BlockId } from '../../primitives/block-id.ts'
import { BLOCK_TAGS, isBlockTag } from '../../primitives/block-id.ts'
import { decodeUint64, parseFixedBytes, parseHash } from './hex.ts'
import { inField, fail } from './param-error.ts'
import { isPlainObject, jsonKind, jsonText, readFields, typeError } from './json.ts'

const MAX_INT64 = 0x7fff_ffff_ffff_ffffn

/** geth's reason for a string that is neither a tag nor 0x-hex, followed by what a block may be. */
const NOT_A_BLOCK = `hex string without 0x prefix (a block is ${BLOCK_TAGS.join(', ')} or a 0x-prefixed hex number; tags are lower-case)`

function tagOrNumber(s: string, tooHigh: string): BlockId {
  if (isBlockTag(s)) return { kind: 'tag', tag: s }
  if (s.length > 0 && !s.startsWith('0x') && !s.startsWith('0X')) fail(NOT_A_BLOCK)
  const n = decodeUint64(s)
  if (n > MAX_INT64) fail(tooHigh)
  return { kind: 'number', number: n }
}

/** geth's rpc.BlockNumber: any JSON value is read as text (quotes stripped), then as a tag or hex number. */
export function parseBlockNumber(raw: unknown): BlockId {
  const text = typeof raw === 'string' ? raw : jsonText(raw).trim()
  return tagOrNumber(text, 'block number larger than int64')
}

function parseEip1898(obj: Record<string, unknown>): BlockId {
  const f = readFields(obj, ['blockNumber', 'blockHash', 'requireCanonical'])
  const number = f.blockNumber === undefined ? undefined : inField('blockNumber', () => parseBlockNumber(f.blockNumber))
  const hash = f.blockHash === undefined ? undefined : inField('blockHash', () => parseHash(f.blockHash))
  let requireCanonical = false
  if (f.requireCanonical !== undefined) {
    if (typeof f.requireCanonical !== 'boolean') {
      throw typeError(jsonKind(f.requireCanonical), 'bool').within('requireCanonical')
    }
    requireCanonical = f.requireCanonical
  }
  if (number !== undefined && hash !== undefined) fail('cannot specify both BlockHash and BlockNumber, choose one or the other')
  if (hash !== undefined) return { kind: 'hash', hash, requireCanonical }
  if (number !== undefined) return number
  return fail('must specify either BlockHash or BlockNumber')
}

/** geth's rpc.BlockNumberOrHash. */
export function parseBlockNumberOrHash(raw: unknown): BlockId {
  if (raw === null || raw === undefined) return fail('must specify either BlockHash or BlockNumber')
  if (isPlainObject(raw)) return parseEip1898(raw)
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'string')
  if (isBlockTag(raw)) return { kind: 'tag', tag: raw }
  if (raw.length === 66) return { kind: 'hash', hash: parseFixedBytes(raw, 32, 'Hash'), requireCanonical: false }
  return tagOrNumber(raw, 'blocknumber too high')
}
