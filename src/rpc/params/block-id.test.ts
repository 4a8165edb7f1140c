import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../../primitives/hex.ts'
import type { BlockId } from '../../primitives/block-id.ts'
import { reason } from './test-kit.ts'
import { parseBlockNumber, parseBlockNumberOrHash } from './block-id.ts'

const HASH = `0x${'00'.repeat(28)}deadbeef`

const show = (id: BlockId): string =>
  id.kind === 'tag' ? id.tag : id.kind === 'number' ? `#${id.number}` : `${bytesToHex(id.hash)}${id.requireCanonical ? '!' : ''}`

test('block number: every tag and hex numbers', () => {
  for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) assert.equal(show(parseBlockNumber(tag)), tag)
  assert.equal(show(parseBlockNumber('0x0')), '#0')
  assert.equal(show(parseBlockNumber('0x36')), '#54')
  assert.equal(show(parseBlockNumber('0x7fffffffffffffff')), `#${2n ** 63n - 1n}`)
})

test('block number: geth errors', () => {
  assert.equal(reason(() => parseBlockNumber('0x8000000000000000')), 'block number larger than int64')
  assert.equal(reason(() => parseBlockNumber('0x-4994')), 'invalid hex string')
  // geth's reason, then the valid tags (a mistyped tag is the usual cause)
  for (const typo of ['Latest', 'Pending', 'head', 54]) {
    const why = reason(() => parseBlockNumber(typo))
    assert.ok(why.startsWith('hex string without 0x prefix ('), why)
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) assert.ok(why.includes(tag), `${why} names ${tag}`)
    assert.ok(/or a 0x-prefixed hex number/.test(why))
    assert.ok(reason(() => parseBlockNumberOrHash(typo === 54 ? '54' : typo)) === why, 'both decoders say the same')
  }
  assert.equal(reason(() => parseBlockNumber('0x036')), 'hex number with leading zero digits')
  assert.equal(reason(() => parseBlockNumber('')), 'empty hex string')
  // a hash is no block number
  assert.equal(reason(() => parseBlockNumber(HASH)), 'hex number with leading zero digits')
})

test('number or hash: strings', () => {
  assert.equal(show(parseBlockNumberOrHash('pending')), 'pending')
  assert.equal(show(parseBlockNumberOrHash('0x1')), '#1')
  assert.equal(show(parseBlockNumberOrHash(HASH)), HASH)
  assert.equal(reason(() => parseBlockNumberOrHash('0x8000000000000000')), 'blocknumber too high')
  assert.equal(reason(() => parseBlockNumberOrHash(`0x${'zz'.repeat(32)}`)), 'invalid hex string')
  assert.equal(reason(() => parseBlockNumberOrHash(5)), 'json: cannot unmarshal number into Go value of type string')
})

test('number or hash: EIP-1898 objects', () => {
  assert.equal(show(parseBlockNumberOrHash({ blockNumber: '0x2' })), '#2')
  assert.equal(show(parseBlockNumberOrHash({ blockNumber: 'safe' })), 'safe')
  assert.equal(show(parseBlockNumberOrHash({ blockHash: HASH })), HASH)
  assert.equal(show(parseBlockNumberOrHash({ blockHash: HASH, requireCanonical: true })), `${HASH}!`)
  assert.equal(show(parseBlockNumberOrHash({ blockHash: HASH, requireCanonical: false, extra: 1 })), HASH)
  assert.equal(
    reason(() => parseBlockNumberOrHash({ blockHash: HASH, blockNumber: '0x1' })),
    'cannot specify both BlockHash and BlockNumber, choose one or the other',
  )
  assert.equal(reason(() => parseBlockNumberOrHash({})), 'must specify either BlockHash or BlockNumber')
  assert.equal(reason(() => parseBlockNumberOrHash({ blockNumber: null })), 'must specify either BlockHash or BlockNumber')
  assert.equal(reason(() => parseBlockNumberOrHash(null)), 'must specify either BlockHash or BlockNumber')
  assert.equal(reason(() => parseBlockNumberOrHash({ blockHash: '0x12' })), 'blockHash: hex string has length 2, want 64 for common.Hash')
  assert.equal(
    reason(() => parseBlockNumberOrHash({ blockHash: HASH, requireCanonical: 'yes' })),
    'requireCanonical: json: cannot unmarshal string into Go value of type bool',
  )
})
