import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { RLP, type Input } from '@ethereumjs/rlp'
import { createTxFromRLP, paramsTx } from '@ethereumjs/tx'
import { FlashnodeError } from '../errors/errors.ts'
import { ChainRules } from '../execution/chain-config.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { decodeTx, materialize, parseTx } from './decode.ts'
import { CHAIN_ID, GWEI, TO, forks, keys, sign, signFields, transfer, unprotectedLegacy } from './test-kit.ts'

const rejectsWith = (fn: () => unknown, kind: string, message: string | RegExp) =>
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof FlashnodeError, `not a FlashnodeError: ${String(e)}`)
    assert.equal(e.kind, kind)
    if (typeof message === 'string') assert.equal(e.message, message)
    else assert.match(e.message, message)
    return true
  })

test('an EIP-1559 transfer decodes with its fields, hash, sender and cost', () => {
  const raw = transfer(keys[0]!, 7, { feeCap: 3n * GWEI, tip: 2n * GWEI, value: 5n })
  const p = decodeTx(raw, forks.osaka, 1234)
  const library = createTxFromRLP(raw, { common: forks.osaka })
  assert.equal(p.type, 2)
  assert.equal(p.hashHex, bytesToHex(library.hash()))
  assert.equal(p.senderHex, keys[0]!.hex)
  assert.equal(p.nonce, 7n)
  assert.equal(p.feeCap, 3n * GWEI)
  assert.equal(p.tipCap, 2n * GWEI)
  assert.equal(p.gasLimit, 21_000n)
  assert.equal(p.value, 5n)
  assert.equal(p.chainId, CHAIN_ID)
  assert.equal(p.cost, 21_000n * 3n * GWEI + 5n)
  assert.equal(p.size, raw.length)
  assert.equal(p.arrivedAt, 1234)
  assert.equal(p.raw, raw)
  assert.equal(p.blobCount, 0)
  // The library object answers from its caches, with the same values.
  assert.equal(bytesToHex(p.tx.hash()), p.hashHex)
  assert.equal(bytesToHex(p.tx.getSenderAddress().bytes), keys[0]!.hex)
})

test('the library object gets the same parameters as the library\'s own decoding gives it', () => {
  for (const common of [forks.berlin, forks.cancun, forks.osaka]) {
    const raw = sign({ type: 1, nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 30_000n, to: TO, value: 1n, chainId: CHAIN_ID }, keys[0]!, common)
    const ours = decodeTx(raw, common).tx.common
    const theirs = createTxFromRLP(raw, { common }).common
    assert.equal(ours.hardfork(), theirs.hardfork())
    let compared = 0
    for (const group of Object.values(paramsTx)) {
      for (const name of Object.keys(group)) {
        const read = (c: typeof ours) => {
          try {
            return c.param(name)
          } catch {
            return 'absent'
          }
        }
        assert.equal(read(ours), read(theirs), name)
        compared++
      }
    }
    assert.ok(compared > 10)
    assert.notEqual(ours, common) // each transaction keeps its own copy (the VM may switch its fork)
  }
})

test('each transaction owns its Common: the VM switching one transaction\'s fork touches no other', () => {
  const one = decodeTx(transfer(keys[0]!, 0), forks.osaka).tx
  const two = decodeTx(transfer(keys[0]!, 1), forks.osaka).tx
  one.common.setHardfork('prague')
  assert.equal(one.common.isActivatedEIP(7825), false)
  assert.equal(two.common.hardfork(), 'osaka')
  assert.equal(two.common.isActivatedEIP(7825), true)
  assert.equal(forks.osaka.hardfork(), 'osaka')
  assert.equal(decodeTx(transfer(keys[0]!, 2), forks.osaka).tx.common.isActivatedEIP(7825), true)
  assert.equal(one.getIntrinsicGas(), 21_000n)
})

test('legacy transactions: EIP-155 chain id from v, unprotected ones have none', () => {
  const protectedRaw = sign({ type: 0, nonce: 1n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: TO, value: 1n }, keys[1]!)
  const p = decodeTx(protectedRaw, forks.osaka)
  assert.equal(p.type, 0)
  assert.equal(p.chainId, CHAIN_ID)
  assert.equal(p.feeCap, 2n * GWEI)
  assert.equal(p.tipCap, 2n * GWEI)
  assert.equal(p.senderHex, keys[1]!.hex)

  const unprotected = parseTx(unprotectedLegacy(keys[1]!, 0n))
  assert.equal(unprotected.chainId, undefined)
})

test('parse sees a foreign chain id without building the library object', () => {
  const raw = signFields(2, [1n, 0n, GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], keys[0]!, 1n)
  assert.equal(parseTx(raw).chainId, 1n)
})

test('undecodable bytes answer -32602, an unknown type byte is "transaction type not supported"', () => {
  rejectsWith(() => parseTx(new Uint8Array()), 'invalidParams', 'failed to decode signed transaction')
  rejectsWith(() => parseTx(hexToBytes('0xdeadbeef')), 'invalidParams', 'failed to decode signed transaction')
  rejectsWith(() => parseTx(hexToBytes('0x05c0')), 'transactionRejected', 'transaction type not supported')
  const raw = transfer(keys[0]!, 0)
  const trailing = new Uint8Array(raw.length + 1)
  trailing.set(raw)
  rejectsWith(() => parseTx(trailing), 'invalidParams', 'failed to decode signed transaction')
  rejectsWith(() => parseTx(raw.subarray(0, raw.length - 1)), 'invalidParams', 'failed to decode signed transaction')
  // A non-canonical integer (leading zero) in the nonce.
  const leadingZero = signFields(2, [CHAIN_ID, new Uint8Array([0, 1]), GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], keys[0]!)
  rejectsWith(() => parseTx(leadingZero), 'invalidParams', 'failed to decode signed transaction')
  // A blob transaction cannot create a contract: its `to` does not decode.
  const blobCreate = signFields(3, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 21_000n, new Uint8Array(), 0n, new Uint8Array(), [], 1n, []], keys[0]!)
  rejectsWith(() => parseTx(blobCreate), 'invalidParams', 'failed to decode signed transaction')
})

test('a signature that recovers no key is an invalid sender', () => {
  const raw = transfer(keys[0]!, 0)
  const fields = parseTx(raw).values as Uint8Array[]
  // s above n/2 (EIP-2) is refused.
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
  const s = BigInt(bytesToHex(fields[11]!))
  const body = [...fields.slice(0, 9), fields[9]!, fields[10]!, n - s]
  const highS = reencode(2, body)
  rejectsWith(() => materialize(parseTx(highS), forks.osaka, 0), 'transactionRejected', 'invalid sender: invalid transaction v, r, s values')
})

/** Re-encodes already-signed fields without a new signature (for tampering). */
function reencode(type: number, fields: Input[]): Uint8Array {
  const body = RLP.encode(fields)
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}

const compat = fileURLToPath(new URL('../../../shared/rpc-compat/tests/', import.meta.url))

test('a blob transaction in network form with cell proofs (the rpc-compat fixture)', { skip: !existsSync(compat) }, () => {
  const rules = new ChainRules(JSON.parse(readFileSync(`${compat}genesis.json`, 'utf8')))
  const line = readFileSync(`${compat}eth_sendRawTransaction/send-blob-tx.io`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('>>'))!
  const raw = hexToBytes(JSON.parse(line.slice(3)).params[0])
  const parsed = parseTx(raw)
  assert.equal(parsed.hashHex, '0x05d85f6a761cac82cfdf06dd168952838ac452b10641aabccdfdad46e03d2f0b')
  assert.deepEqual(parsed.sidecar, { version: 1, blobs: 1, commitments: 1, proofs: 128 })
  assert.equal(parsed.blobCount, 1)
  const pooled = materialize(parsed, rules.at(55n, 560n), 0)
  assert.equal(pooled.senderHex, '0x1f4924b14f34e24159387c0a4cdbaa32f3ddb0cf')
  assert.equal(pooled.blobFeeCap, 131_072n)
  assert.equal(pooled.cost, pooled.gasLimit * pooled.feeCap + pooled.value + 131_072n * 131_072n)
  assert.equal(pooled.raw, raw)
  assert.equal(bytesToHex(pooled.tx.hash()), parsed.hashHex)
})
