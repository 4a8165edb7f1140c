// nativeEcrecover (the secp256k1 binding called directly) against viem's signer (@noble/curves), an independent
// implementation: the recovered key is the signer's, and what the curve refuses still throws.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256, toBytes, toHex } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { nativeEcrecover } from './crypto.ts'

const KEYS = ['0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'] as const

test('recovers the signing key of each signature (both recovery ids, short r and s padded)', async () => {
  const seen = new Set<number>()
  for (let i = 0; i < 40; i++) {
    const key = KEYS[i % 2]!
    const hash = keccak256(toHex(`message ${i}`))
    const sig = await sign({ hash, privateKey: key })
    const r = toBytes(sig.r)
    const s = toBytes(sig.s)
    seen.add(sig.yParity!)
    const pub = nativeEcrecover(toBytes(hash), BigInt(sig.yParity!), stripZeros(r), stripZeros(s))
    assert.equal(toHex(pub), `0x${privateKeyToAccount(key).publicKey.slice(4)}`)
  }
  assert.deepEqual([...seen].sort(), [0, 1])
})

test('a v of 27/28, or EIP-155 with the chain id, names the same recovery id', async () => {
  const hash = keccak256(toHex('eip-155'))
  const sig = await sign({ hash, privateKey: KEYS[0] })
  const expected = `0x${privateKeyToAccount(KEYS[0]).publicKey.slice(4)}`
  assert.equal(toHex(nativeEcrecover(toBytes(hash), BigInt(sig.yParity!) + 27n, toBytes(sig.r), toBytes(sig.s))), expected)
  assert.equal(toHex(nativeEcrecover(toBytes(hash), BigInt(sig.yParity!) + 35n + 2n * 10n, toBytes(sig.r), toBytes(sig.s), 10n)), expected)
})

test('what the curve refuses throws: r = 0, r at the group order, a bad v', () => {
  const hash = toBytes(keccak256(toHex('refused')))
  const one = new Uint8Array([1])
  assert.throws(() => nativeEcrecover(hash, 0n, new Uint8Array(32), one))
  const order = toBytes('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')
  assert.throws(() => nativeEcrecover(hash, 0n, order, one))
  assert.throws(() => nativeEcrecover(hash, 5n, one, one), /v value/)
  assert.throws(() => nativeEcrecover(hash, 0n, new Uint8Array(33).fill(1), one), /longer than 32 bytes/)
})

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0
  while (i < b.length - 1 && b[i] === 0) i++
  return b.subarray(i)
}
