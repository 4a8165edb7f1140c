/**
 * Which byte shapes decode, field by field, as geth's decoder decides: list lengths, integer widths and
 * leading zeros, a `to` of 0 or 20 bytes, lists where lists belong, a legacy v's chain id (uint64 arithmetic),
 * the blob network wrapper's forms (with or without a version byte; its hash covers the inner transaction
 * only, whatever the lengths of the list headers), and the errors that building the library object turns
 * into (an invalid sender, an undecodable transaction, a KZG failure).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { RLP, type Input } from '@ethereumjs/rlp'
import { createBlob4844Tx } from '@ethereumjs/tx'
import { computeVersionedHash } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { decodeTx, parseTx } from './decode.ts'
import { TxPool } from './pool.ts'
import { CHAIN_ID, env, FakeState, forks, GWEI, keys, KZG_INFINITY, signFields, TO, transfer } from './test-kit.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

const alice = keys[0]!
const to = Uint8Array.from(Buffer.from(TO.slice(2), 'hex'))
const empty = new Uint8Array()

const undecodable = (fn: () => unknown, why: string) =>
  assert.throws(
    fn,
    (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message === 'failed to decode signed transaction',
    why,
  )

const typed = (type: number, fields: Input[]) => {
  const body = RLP.encode(fields)
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}

/** A legacy transaction's nine fields with a chosen v (the signature need not be valid to parse). */
const legacy = (v: Input, o: { to?: Input; nonce?: Input } = {}) =>
  RLP.encode([o.nonce ?? 0n, GWEI, 21_000n, o.to ?? to, 1n, empty, v, 1n, 1n])

test('legacy: nine fields exactly, integers without leading zeros and within their width, a 20-byte or empty `to`', () => {
  assert.equal(parseTx(legacy(37n)).nonce, 0n)
  undecodable(() => parseTx(RLP.encode([0n, GWEI, 21_000n, to, 1n, empty, 37n, 1n, 1n, 1n])), 'ten fields')
  undecodable(() => parseTx(legacy(37n, { nonce: new Uint8Array([0, 1]) })), 'a leading zero')
  assert.equal(parseTx(legacy(37n, { nonce: new Uint8Array(8).fill(0xff) })).nonce, (1n << 64n) - 1n)
  undecodable(() => parseTx(legacy(37n, { nonce: new Uint8Array(9).fill(1) })), 'a nonce over 8 bytes')
  undecodable(() => parseTx(legacy(37n, { nonce: [] })), 'a list for an integer')
  undecodable(() => parseTx(legacy(37n, { to: new Uint8Array(19).fill(1) })), 'a 19-byte `to`')
  const call = parseTx(legacy(37n))
  assert.equal(call.isCreate, false)
  assert.deepEqual(call.to, to)
  const create = parseTx(legacy(37n, { to: empty }))
  assert.equal(create.isCreate, true)
  assert.equal(create.to, undefined)
})

test('legacy v: 27, 28 (and 0, 1) are unprotected; otherwise the chain id is (v - 35) / 2 in uint64 arithmetic', () => {
  for (const v of [27n, 28n, 0n, 1n]) assert.equal(parseTx(legacy(v)).chainId, undefined, `v ${v}`)
  assert.equal(parseTx(legacy(37n)).chainId, 1n)
  assert.equal(parseTx(legacy(CHAIN_ID * 2n + 36n)).chainId, CHAIN_ID)
  // Below 35 the uint64 subtraction wraps around, as in geth's deriveChainId.
  assert.equal(parseTx(legacy(2n)).chainId, ((1n << 64n) - 33n) / 2n)
  // Above uint64 geth works on the big integer.
  const big = (1n << 64n) + 101n
  assert.equal(parseTx(legacy(big)).chainId, (big - 35n) / 2n)
})

test('typed: the exact field count of the type, and lists where lists belong', () => {
  const base: Input[] = [CHAIN_ID, 0n, GWEI, 2n * GWEI, 21_000n, to, 1n, empty, [], 1n, 1n, 1n]
  assert.equal(parseTx(typed(2, base)).chainId, CHAIN_ID)
  undecodable(() => parseTx(typed(2, [...base, 1n])), 'thirteen fields for type 2')
  const accessListAsBytes = base.slice()
  accessListAsBytes[8] = empty
  undecodable(() => parseTx(typed(2, accessListAsBytes)), 'an access list that is not a list')
  undecodable(() => parseTx(typed(2, 'not a list' as unknown as Input[])), 'a byte string instead of the field list')
})

test('a set-code transaction counts its authorizations', () => {
  const auth = [CHAIN_ID, to, 0n, 0n, 1n, 1n]
  const raw = signFields(4, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 60_000n, to, 0n, empty, [], [auth, auth]], alice)
  assert.equal(parseTx(raw).authorizationCount, 2)
})

test('a set-code transaction is admitted under Prague', () => {
  const auth = [CHAIN_ID, to, 0n, 0n, 1n, 1n]
  const raw = signFields(4, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 60_000n, to, 0n, empty, [], [auth]], alice)
  const pool = new TxPool()
  const r = pool.add(raw, new FakeState(), env(forks.prague))
  assert.equal(r.status, 'pending')
  assert.equal(r.tx.tx.type, 4)
})

/**
 * A blob transaction's 14 fields, all one byte long (RLP) but `to` (21) and the data: a 34-byte payload with no
 * data. Made-up values for the signature: parsing does not check it.
 */
const blobFields = (data: Uint8Array = empty): Input[] => [1n, 0n, 1n, 2n, 9n, to, 0n, data, [], 1n, [], 0n, 1n, 1n]

const wrapper = (items: Input[]) => typed(3, items)

test('the blob wrapper: four items, or five with a canonical version byte; the sidecar\'s shape is counted', () => {
  const tx = blobFields()
  const blobs = [new Uint8Array(3), new Uint8Array(3)]
  const four = parseTx(wrapper([tx, blobs, [empty], [empty, empty, empty]]))
  assert.deepEqual(four.sidecar, { version: 0, blobs: 2, commitments: 1, proofs: 3 })
  assert.deepEqual(parseTx(wrapper([tx, empty, blobs, [], []])).sidecar, { version: 0, blobs: 2, commitments: 0, proofs: 0 })
  assert.deepEqual(parseTx(wrapper([tx, 1n, [], [], []])).sidecar, { version: 1, blobs: 0, commitments: 0, proofs: 0 })
  undecodable(() => parseTx(wrapper([tx, new Uint8Array([0]), [], [], []])), 'a version 0 written as a byte 0x00')
  undecodable(() => parseTx(wrapper([tx, new Uint8Array([0, 1]), [], [], []])), 'a two-byte version')
  undecodable(() => parseTx(wrapper([tx, [], []])), 'three items')
  undecodable(() => parseTx(wrapper([tx, [], [], [], [], []])), 'six items')
})

test('the blob wrapper\'s hash is that of the inner transaction, for short and long list headers alike', () => {
  // No data: a 34-byte payload, a one-byte list header for the inner list and the outer one (four items).
  // With 21 bytes of data the payload is exactly 55 bytes, the largest a one-byte header holds; with 22, 56.
  const payloads = new Map([[0, 34], [21, 55], [22, 56], [300, 336]])
  for (const [dataLength, payload] of payloads) {
    const tx = blobFields(new Uint8Array(dataLength).fill(7))
    const inner = RLP.encode(tx)
    assert.equal(inner.length, payload + (payload > 55 ? 1 + (payload > 255 ? 2 : 1) : 1))
    const expected = keccak_256(typed(3, tx))
    for (const form of [[tx, [], [], []], [tx, 1n, [], [], []], [tx, [new Uint8Array(200)], [], []]] as Input[][]) {
      const parsed = parseTx(wrapper(form))
      assert.equal(parsed.hashHex, bytesToHex(expected), `data ${dataLength}, ${form.length} items`)
    }
  }
})

test('a canonical blob transaction (no sidecar) decodes into the library\'s blob transaction', () => {
  const raw = signFields(3, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 21_000n, to, 0n, empty, [], 1n, [new Uint8Array(32).fill(1)]], alice)
  const tx = decodeTx(raw, forks.cancun)
  assert.equal(tx.type, 3)
  assert.equal(tx.tx.type, 3)
  assert.equal(tx.sidecar, undefined)
  assert.equal(tx.blobCount, 1)
})

/** A Cancun blob transaction in network form with one blob of `fill` bytes and the point at infinity as its
 * commitment and proof (right only for an all-zero blob), and an access list entry of `addressLength` bytes. */
function blobWrapper(fill: number, addressLength = 20): Uint8Array {
  const unsigned = createBlob4844Tx(
    {
      chainId: CHAIN_ID,
      nonce: 0n,
      maxFeePerGas: 10n * GWEI,
      maxPriorityFeePerGas: GWEI,
      maxFeePerBlobGas: 100n,
      gasLimit: 30_000n,
      to: TO,
      blobs: [new Uint8Array(131_072).fill(fill)],
      kzgCommitments: [KZG_INFINITY],
      kzgProofs: [KZG_INFINITY],
      blobVersionedHashes: [computeVersionedHash(bytesToHex(KZG_INFINITY), 1)],
    },
    { common: forks.cancun },
  )
  const sig = secp256k1.ecdsaSign(unsigned.getHashedMessageToSign(), alice.secret)
  const raw = unsigned.addSignature(BigInt(sig.recid), sig.signature.slice(0, 32), sig.signature.slice(32)).serializeNetworkWrapper()
  if (addressLength === 20) return raw
  // Swap in an access list with a short address (the library refuses it; parsing only sees a list).
  const outer = RLP.decode(raw.subarray(1)) as Uint8Array[][]
  const inner = outer[0]!.slice() as Input[]
  inner[8] = [[new Uint8Array(addressLength).fill(1), []]]
  return wrapper([inner, ...outer.slice(1)])
}

test('a blob transaction without blobs, in either form, is not decodable as KZG-checked content', () => {
  const canonical = signFields(3, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 21_000n, to, 0n, empty, [], 1n, []], alice)
  // Canonical form (as in a block body): the library refuses it; that is not a KZG failure.
  undecodable(() => decodeTx(canonical, forks.cancun), 'no blob hashes, canonical form')
  // Network form with an empty sidecar: the library's wrapper reader refuses it, named as it words it.
  const inner = RLP.decode(canonical.subarray(1)) as Input[]
  assert.throws(
    () => new TxPool().add(wrapper([inner, [], [], []]), new FakeState(), env(forks.cancun)),
    (e: unknown) => e instanceof FlashnodeError && e.message === 'KZG verification error: tx should contain at least one blob',
  )
})

test('building the library object: a blob whose proof fails is a KZG error; a bad access list is undecodable', () => {
  const pool = new TxPool()
  const state = new FakeState()
  const cancun = env(forks.cancun)
  assert.equal(pool.add(blobWrapper(0), state, cancun).status, 'pending')
  assert.throws(
    () => new TxPool().add(blobWrapper(1), new FakeState(), cancun),
    (e: unknown) =>
      e instanceof FlashnodeError &&
      e.kind === 'transactionRejected' &&
      e.message.startsWith('KZG verification error: ') &&
      !e.message.includes('(tx '),
  )
  undecodable(() => new TxPool().add(blobWrapper(0, 19), new FakeState(), cancun), 'a blob transaction with a 19-byte access list address')
  const typed2 = signFields(2, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 30_000n, to, 0n, empty, [[new Uint8Array(19).fill(1), []]]], alice)
  undecodable(() => new TxPool().add(typed2, new FakeState(), env()), 'a 19-byte access list address')
})

test('a signature whose r is the x of no curve point builds, but recovers no sender: an invalid sender', () => {
  const fields = RLP.decode(transfer(alice, 0).subarray(1)) as Uint8Array[]
  // x = 5: 5^3 + 7 is not a square modulo the field prime, so no point has it.
  const raw = typed(2, [...fields.slice(0, 10), 5n, fields[11]!])
  assert.throws(
    () => new TxPool().add(raw, new FakeState(), env()),
    (e: unknown) => e instanceof FlashnodeError && e.kind === 'transactionRejected' && e.message === 'invalid sender: invalid transaction v, r, s values',
  )
})

test('the first byte picks the envelope as geth does: a byte-string prefix is undecodable, type 0 is not a supported type', () => {
  const body = RLP.encode([0n, GWEI, 21_000n, to, 1n, empty, 37n, 1n, 1n])
  for (const prefix of [0x80, 0x85, 0xbf]) undecodable(() => parseTx(Uint8Array.from([prefix, ...body])), `first byte 0x${prefix.toString(16)}`)
  for (const type of [0, 5, 0x7f]) {
    assert.throws(
      () => parseTx(Uint8Array.from([type, ...body])),
      (e: unknown) => e instanceof FlashnodeError && e.message === 'transaction type not supported',
      `type ${type}`,
    )
  }
})

test('non-canonical RLP framing is undecodable, as the library decoder finds it (the views decoder is as strict)', () => {
  // A valid legacy list to reframe: [nonce 0, gas price, gas, to, value 1, data, v, r, s].
  const fields: Input[] = [0n, GWEI, 21_000n, to, 1n, empty, 37n, 1n, 1n]
  const canonical = legacy(37n)
  assert.equal(parseTx(canonical).nonce, 0n)
  const body = RLP.encode(fields).subarray(2) // the list's header is 0xf8 LL (its payload is 56-255 bytes)
  const framings: [string, Uint8Array][] = [
    ['the list length with a leading zero', Uint8Array.from([0xf9, 0x00, body.length, ...body])],
    ['a list of at most 55 bytes in long form', Uint8Array.from([0xf8, 3, 0x80, 0x80, 0x80])],
    ['a single byte below 0x80 wrapped', Uint8Array.from([0xf8, body.length + 1, 0x81, 0x00, ...body.subarray(1)])],
    ['a short string in long form', (() => {
      const at = 1 + 5 + 4 // nonce (1), gas price 0x84+4, gas 0x82+2: the `to` header follows
      const out = Uint8Array.from([0xf8, body.length + 1, ...body.subarray(0, at - 1), 0xb8, 20, ...body.subarray(at)])
      return out
    })()],
    ['bytes after the list', Uint8Array.from([...canonical, 0x00])],
    ['the list running past its input', canonical.subarray(0, canonical.length - 1)],
  ]
  for (const [why, bytes] of framings) {
    assert.throws(() => RLP.decode(bytes), `the library refuses it too: ${why}`)
    undecodable(() => parseTx(bytes), why)
  }
})
