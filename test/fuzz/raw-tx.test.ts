/**
 * Fuzz: eth_sendRawTransaction with random bytes and with mutated valid transactions (legacy EIP-155, access
 * list and dynamic-fee, signed by funded accounts): bit and byte edits, truncation, type-byte changes,
 * field-level RLP edits, and value-preserving but non-canonical encodings (long-form lengths, wrapped single
 * bytes, leading zeros in integers), which keep the signature valid and are exactly what a lenient decoder
 * would let through. Unmutated transactions are sent too, so acceptances happen.
 *
 * Every answer must be well-formed with a code of eth_sendRawTransaction (-32000 or -32602). Every accepted
 * transaction must decode with @ethereumjs/tx and re-encode to the very bytes sent, and its answered hash
 * must be keccak256 of those bytes. Afterwards the node answers normal requests. Seeded: the seed is
 * printed; rerun one with FUZZ_SEED=<seed>.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTxFromRLP } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, equalBytes } from '../../src/primitives/hex.ts'
import { checkHttpAnswer, newFindings } from './support/check.ts'
import { FuzzClient } from './support/client.ts'
import { FUZZ_ACCOUNTS, signTx, startFuzzNode, type FuzzNode } from './support/fuzz-node.ts'
import { fuzzSeed, reproduce, Rng } from '../support/rng.ts'

const CASES = 1500
const FILE = 'test/fuzz/raw-tx.test.ts'
const SENDERS = FUZZ_ACCOUNTS.slice(4).map((_, i) => i + 4)
const TX_SIZE_LIMIT = 128 * 1024

type Nested = Uint8Array | Nested[]

const countItems = (x: Nested): number => (x instanceof Uint8Array ? 1 : 1 + x.reduce((n, y) => n + countItems(y), 0))

/** RLP with one item (chosen at random, pre-order) encoded non-canonically with the same value, to probe
 * the decoder's strictness. Items that have no other encoding (an empty string) leave it canonical. */
function encodeNonCanonical(item: Nested, rng: Rng): Uint8Array {
  const target = rng.int(countItems(item))
  let index = 0
  const lengthBytes = (n: number): number[] => {
    const out: number[] = []
    for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256)
    return out
  }
  const head = (short: number, long: number, len: number, forceLong: boolean): number[] =>
    len < 56 && !forceLong ? [short + len] : [long + lengthBytes(len).length, ...lengthBytes(len)]
  const enc = (x: Nested): number[] => {
    const bend = index++ === target
    if (x instanceof Uint8Array) {
      if (x.length === 1 && x[0]! < 0x80) return bend ? [0x81, x[0]!] : [x[0]!] // a low byte is its own encoding
      return [...head(0x80, 0xb7, x.length, bend), ...x]
    }
    const body = x.flatMap(enc)
    return [...head(0xc0, 0xf7, body.length, bend), ...body]
  }
  return Uint8Array.from(enc(item))
}

/** The RLP payload of a transaction and how to put it back together (type byte or not). */
function split(raw: Uint8Array): { prefix: Uint8Array; payload: Uint8Array } {
  return raw[0]! < 0x7f ? { prefix: raw.subarray(0, 1), payload: raw.subarray(1) } : { prefix: new Uint8Array(0), payload: raw }
}

const join = (a: Uint8Array, b: Uint8Array): Uint8Array => Uint8Array.from([...a, ...b])

/** One mutation; RLP-level ones fall back to a byte edit when `raw` is no longer RLP. */
function mutate(raw: Uint8Array, rng: Rng): { bytes: Uint8Array; how: string } {
  const kind = rng.int(12)
  try {
    return mutateAs(kind, raw, rng)
  } catch {
    return mutateAs(1, raw, rng)
  }
}

function mutateAs(kind: number, raw: Uint8Array, rng: Rng): { bytes: Uint8Array; how: string } {
  const bytes = [...raw]
  if (bytes.length === 0) return { bytes: rng.bytes(rng.range(1, 8)), how: 'replace empty' }
  switch (kind) {
    case 0: {
      const at = rng.int(bytes.length)
      bytes[at] = bytes[at]! ^ (1 << rng.int(8))
      return { bytes: Uint8Array.from(bytes), how: `bit flip at ${at}` }
    }
    case 1: {
      const at = rng.int(bytes.length)
      bytes[at] = rng.u32() & 0xff
      return { bytes: Uint8Array.from(bytes), how: `byte set at ${at}` }
    }
    case 2: {
      const at = rng.int(bytes.length + 1)
      bytes.splice(at, 0, ...rng.bytes(rng.range(1, 4)))
      return { bytes: Uint8Array.from(bytes), how: `insert at ${at}` }
    }
    case 3: {
      const at = rng.int(bytes.length)
      bytes.splice(at, rng.range(1, 4))
      return { bytes: Uint8Array.from(bytes), how: `delete at ${at}` }
    }
    case 4: return { bytes: raw.subarray(0, rng.int(raw.length)), how: 'truncate' }
    case 5: return { bytes: join(raw, rng.bytes(rng.range(1, 40))), how: 'append' }
    case 6: {
      bytes[0] = rng.pick([0, 1, 2, 3, 4, 5, 0x7e, 0x7f, 0xc0])
      return { bytes: Uint8Array.from(bytes), how: `type byte ${bytes[0]}` }
    }
    case 7:
    case 8: {
      const { prefix, payload } = split(raw)
      return { bytes: join(prefix, encodeNonCanonical(RLP.decode(payload) as Nested, rng)), how: 'non-canonical RLP' }
    }
    case 9: {
      // A leading zero byte in one integer field: the same value, a non-canonical integer.
      const { prefix, payload } = split(raw)
      const fields = RLP.decode(payload) as Nested[]
      const at = rng.int(fields.length)
      const field = fields[at]!
      if (field instanceof Uint8Array) fields[at] = join(Uint8Array.of(0), field)
      return { bytes: join(prefix, RLP.encode(fields)), how: `leading zero in field ${at}` }
    }
    case 10: {
      const { prefix, payload } = split(raw)
      const fields = RLP.decode(payload) as Nested[]
      const at = rng.int(fields.length + 1)
      const r = rng.int(4)
      if (r === 0) fields.splice(at, 1)
      else if (r === 1) fields.splice(at, 0, rng.bytes(rng.int(33)))
      else if (r === 2) fields[Math.min(at, fields.length - 1)] = rng.chance(0.5) ? [] : [rng.bytes(3)]
      else fields[Math.min(at, fields.length - 1)] = rng.bytes(rng.int(40))
      return { bytes: join(prefix, RLP.encode(fields)), how: `field edit ${r} at ${at}` }
    }
    default: {
      const at = rng.int(bytes.length)
      const len = rng.range(1, 16)
      bytes.splice(at, 0, ...bytes.slice(at, at + len))
      return { bytes: Uint8Array.from(bytes), how: `duplicate at ${at}` }
    }
  }
}

async function pendingNonce(client: FuzzClient, sender: number): Promise<bigint> {
  const answer = await client.call('eth_getTransactionCount', [FUZZ_ACCOUNTS[sender]!.address, 'pending'])
  return BigInt(answer.result as string)
}

async function baseTx(fuzz: FuzzNode, client: FuzzClient, rng: Rng, large: boolean): Promise<Uint8Array> {
  const sender = rng.pick(SENDERS)
  const dataLength = large ? TX_SIZE_LIMIT + rng.range(-64, 2_000) : rng.pick([0, 0, 4, 36, rng.int(300)])
  const data = `0x${Buffer.from(rng.bytes(dataLength)).toString('hex')}`
  const create = !large && rng.chance(0.1) // init code is capped at 48 KiB
  const tx = signTx(fuzz.node, sender, {
    type: rng.pick([0, 1, 2] as const),
    nonce: (await pendingNonce(client, sender)) + (rng.chance(0.05) ? BigInt(rng.range(1, 3)) : 0n),
    ...(create ? {} : { to: rng.chance(0.7) ? FUZZ_ACCOUNTS[rng.int(4)]!.address : `0x${Buffer.from(rng.bytes(20)).toString('hex')}` }),
    value: rng.chance(0.5) ? 0n : BigInt(rng.int(1_000_000)),
    data,
    gasLimit: 21_000n + 40n * BigInt(dataLength) + (create ? 60_000n : 0n) + BigInt(rng.int(50_000)),
  })
  return tx.serialize()
}

test('random bytes and mutated transactions to eth_sendRawTransaction: what is accepted re-encodes to the same bytes', { timeout: 60_000 }, async (t) => {
  const seed = fuzzSeed()
  t.diagnostic(`fuzz seed ${seed} (reproduce: ${reproduce(FILE, seed)})`)
  const rng = new Rng(seed)
  const fuzz = await startFuzzNode(t)
  const client = new FuzzClient(fuzz.dedicated)
  t.after(() => client.close())
  const findings = newFindings()
  const outcomes = new Map<string, number>()
  const count = (key: string): void => {
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
  }
  let accepted = 0
  /** Mutations that changed the bytes and still gave an acceptable transaction. */
  const acceptedMutants: string[] = []
  const started = performance.now()

  for (let i = 0; i < CASES; i++) {
    const caseRng = rng.fork()
    let bytes: Uint8Array
    let how: string
    let original: Uint8Array = new Uint8Array(0)
    const r = caseRng.int(100)
    if (r < 15) {
      bytes = caseRng.bytes(caseRng.int(400))
      if (caseRng.chance(0.5) && bytes.length > 0) bytes[0] = caseRng.pick([0, 1, 2, 3, 4, 0xc0, 0xf8])
      how = 'random bytes'
    } else if (r < 16) {
      bytes = caseRng.bytes(TX_SIZE_LIMIT + caseRng.range(1, 4_000))
      how = 'oversized random bytes'
    } else {
      const large = r < 18
      const valid = await baseTx(fuzz, client, caseRng, large)
      original = valid
      if (caseRng.chance(0.25)) {
        bytes = valid
        how = large ? 'large valid' : 'valid'
      } else {
        ;({ bytes, how } = mutate(valid, caseRng))
        if (caseRng.chance(0.2)) ({ bytes, how } = { bytes: mutate(bytes, caseRng).bytes, how: `${how} + another` })
      }
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [bytesToHex(bytes)] })
    try {
      const answer = await client.send({ body })
      const msg = checkHttpAnswer(answer, body.slice(0, 2_000), findings)
      assert.ok(msg !== null && !Array.isArray(msg), 'one response')
      if ('error' in msg) {
        const error = msg.error as { code: number; message: string }
        assert.ok([-32000, -32602].includes(error.code), `eth_sendRawTransaction answers -32000 or -32602, got ${error.code} ${error.message}`)
        count(error.message.replace(/\d+/g, 'N').replace(/0x[0-9a-f]+/gi, '0x…').slice(0, 60))
        continue
      }
      const hash = msg.result as string
      assert.match(hash, /^0x[0-9a-f]{64}$/)
      assert.equal(hash, bytesToHex(keccak_256(bytes)), 'the hash answered is keccak256 of the bytes sent')
      const head = fuzz.node.chain.header(fuzz.node.chain.head())!
      const tx = createTxFromRLP(bytes, { common: fuzz.node.rules.at(head.number + 1n, head.timestamp + 1n) })
      assert.ok(equalBytes(tx.serialize(), bytes), `decode → re-encode gives other bytes (${how})`)
      assert.equal(bytesToHex(tx.hash()), hash)
      accepted++
      if (!equalBytes(bytes, original)) acceptedMutants.push(how)
      count('accepted')
    } catch (err) {
      throw new Error(`case ${i} (${how}) failed: ${(err as Error).message}\nbytes: ${bytesToHex(bytes).slice(0, 400)}\nreproduce: ${reproduce(FILE, seed)}`, { cause: err })
    }
    if (i % 300 === 299) assert.equal((await client.call('evm_mine')).result, '0x0')
  }

  assert.ok(accepted > 0, 'some transactions were accepted')
  assert.deepEqual(await client.call('eth_chainId'), { jsonrpc: '2.0', id: 1, result: '0x7a69' })
  const block = await client.call('eth_getBlockByNumber', ['latest', false])
  assert.equal(typeof (block.result as { hash: string }).hash, 'string')
  assert.ok(BigInt((await client.call('eth_getBalance', [FUZZ_ACCOUNTS[0]!.address, 'latest'])).result as string) > 0n)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const top = [...outcomes].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${v} × ${k}`)
  t.diagnostic(`${CASES} cases in ${seconds} s: ${accepted} accepted, ${acceptedMutants.length} of them changed by a mutation${acceptedMutants.length === 0 ? '' : ` (${acceptedMutants.join('; ')})`}`)
  for (const line of top) t.diagnostic(`  ${line}`)
  assert.deepEqual(findings.internal, [], `internal errors answered (reproduce: ${reproduce(FILE, seed)})`)
  assert.deepEqual(fuzz.logged.map((l) => l.split('\n')[0]), [], `unexpected errors logged (reproduce: ${reproduce(FILE, seed)})`)
})
