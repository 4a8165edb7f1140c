import assert from 'node:assert/strict'
import { test } from 'node:test'
import { RLP, type Input } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import { bytesToHex } from '../primitives/hex.ts'
import { recoverDirect } from './direct-prepare.ts'
import { recordOf } from './prepared.ts'
import { materialize, parseTx, type PooledTx } from './decode.ts'
import { CHAIN_ID, GWEI, TO, forks, keys, sign, signFields, transfer, unprotectedLegacy } from './test-kit.ts'

const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const [a, b] = [keys[0]!, keys[1]!]
const calldata = new Uint8Array([0xa9, 0x05, 0, 0, 0, 0, 0x11, 0x22, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01])

/** The same signature with s' = n - s (a valid ECDSA signature the EIP-2 rule refuses), parity flipped. */
function highS(raw: Uint8Array): Uint8Array {
  const typed = raw[0]! < 0xc0
  const fields = RLP.decode(typed ? raw.subarray(1) : raw) as Uint8Array[]
  const n = fields.length
  const v = bytesToBigInt(fields[n - 3]!)
  fields[n - 3] = bigIntToUnpaddedBytes(typed ? 1n - v : v % 2n === 0n ? v - 1n : v + 1n)
  fields[n - 1] = bigIntToUnpaddedBytes(ORDER - bytesToBigInt(fields[n - 1]!))
  const body = RLP.encode(fields)
  return typed ? Uint8Array.from([raw[0]!, ...body]) : body
}

/**
 * Everyday shapes (`direct`: the direct path must take them wherever the library builds them), shapes it leaves
 * to the library, and every refusal the library's constructor or signature check makes.
 */
function corpus(): Array<{ name: string; raw: Uint8Array; direct: boolean }> {
  const legacy = (fields: Input[], chainId?: bigint): Uint8Array => signFields(0, fields, a, chainId)
  const list: Array<{ name: string; raw: Uint8Array; direct: boolean }> = [
    { name: '1559 transfer', raw: transfer(a, 0), direct: true },
    { name: '1559 call with calldata', raw: transfer(b, 7, { data: calldata, gas: 60_000n, value: 0n }), direct: true },
    { name: '1559 large nonce and value', raw: transfer(a, 2n ** 40n, { value: 10n ** 30n }), direct: true },
    { name: 'legacy EIP-155', raw: sign({ type: 0, nonce: 1n, gasPrice: 2n * GWEI, gasLimit: 30_000n, to: TO, value: 5n, data: calldata }, a), direct: true },
    { name: 'legacy unprotected', raw: unprotectedLegacy(b, 3n), direct: true },
    { name: '2930 empty access list', raw: sign({ type: 1, nonce: 2n, gasPrice: 2n * GWEI, gasLimit: 40_000n, to: TO, chainId: CHAIN_ID, data: calldata }, b), direct: true },
    { name: '2930 with access list', raw: sign({ type: 1, nonce: 2n, gasPrice: 2n * GWEI, gasLimit: 40_000n, to: TO, chainId: CHAIN_ID, accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(31)}01`] }] }, b), direct: false },
    { name: '1559 creation', raw: transfer(a, 4, { to: '', data: new Uint8Array(64).fill(0x60), gas: 100_000n }), direct: false },
    { name: 'tip above fee cap', raw: signFields(2, [CHAIN_ID, 0n, 3n * GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], a), direct: false },
    { name: 'nonce 2^64-1', raw: signFields(2, [CHAIN_ID, 2n ** 64n - 1n, GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], a), direct: false },
    { name: 'gas limit above the EIP-7825 cap', raw: transfer(a, 0, { gas: 2n ** 24n + 1n, common: forks.prague }), direct: false },
    { name: 'gas x fee overflows', raw: signFields(2, [CHAIN_ID, 0n, GWEI, 2n ** 250n, 2n ** 20n, TO, 1n, new Uint8Array(), []], a), direct: false },
    { name: 'typed, another chain', raw: signFields(2, [1n, 0n, GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], a, 1n), direct: false },
    { name: 'legacy, another chain', raw: legacy([0n, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array()], 1n), direct: false },
    { name: '1559 high s', raw: highS(transfer(a, 0)), direct: false },
    { name: 'legacy high s', raw: highS(legacy([0n, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array()])), direct: false },
    { name: 'y-parity 2', raw: withField(transfer(a, 0), -3, 2n), direct: false },
    { name: 'r = 0', raw: withField(transfer(a, 0), -2, 0n), direct: false },
    { name: 'legacy v = 29', raw: withField(unprotectedLegacy(a, 0n), -3, 29n), direct: false },
  ]
  return list
}

/** `raw` with one field (counted from the end) replaced by an integer. */
function withField(raw: Uint8Array, fromEnd: number, value: bigint): Uint8Array {
  const typed = raw[0]! < 0xc0
  const fields = RLP.decode(typed ? raw.subarray(1) : raw) as Uint8Array[]
  fields[fields.length + fromEnd] = bigIntToUnpaddedBytes(value)
  const body = RLP.encode(fields)
  return typed ? Uint8Array.from([raw[0]!, ...body]) : body
}

function viaLibrary(raw: Uint8Array, common: Common): PooledTx | Error {
  try {
    return materialize(parseTx(raw), common, 0)
  } catch (e) {
    return e as Error
  }
}

test('the direct path makes the library path\'s record, field for field, and declines whatever the library refuses', () => {
  let taken = 0
  for (const [forkName, common] of Object.entries(forks)) {
    for (const c of corpus()) {
      const label = `${c.name} @ ${forkName}`
      const library = viaLibrary(c.raw, common)
      const parsed = parseTx(c.raw)
      const recovered = recoverDirect(parsed, common)
      const direct = recovered === undefined ? undefined : recordOf(parsed, common.hardfork(), recovered)
      if (library instanceof Error) {
        assert.equal(direct, undefined, `${label}: the library refuses (${library.message}) but the direct path took it`)
        continue
      }
      if (direct === undefined) {
        // Declining is always safe, but an everyday shape the library builds must not be declined.
        assert.ok(!c.direct, `${label}: declined`)
        continue
      }
      taken++
      for (const k of ['type', 'hashHex', 'chainId', 'nonce', 'gasLimit', 'feeCap', 'tipCap', 'value', 'isCreate', 'dataLength', 'size', 'senderHex', 'intrinsicGas', 'floorDataGas', 'fork'] as const) {
        assert.deepEqual(direct[k], library[k], `${label}: ${k}`)
      }
      assert.deepEqual(direct.sender, library.sender, `${label}: sender`)
      assert.equal(bytesToHex(direct.senderPublicKey), bytesToHex(library.tx.getSenderPublicKey()), `${label}: public key`)
    }
  }
  assert.ok(taken >= 20, `the direct path took ${taken} cases`)
})
