import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, createAccountFromRLP, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { RLP } from '@ethereumjs/rlp'
import { decodeAccount } from './account-rlp.ts'

const MAX = (1n << 256n) - 1n

function same(a: Account, b: Account, what: string): void {
  assert.equal(a.nonce, b.nonce, what)
  assert.equal(a.balance, b.balance, what)
  assert.deepEqual(a.storageRoot, b.storageRoot, what)
  assert.deepEqual(a.codeHash, b.codeHash, what)
}

test('decodes every stored account as the library does', () => {
  const root = new Uint8Array(32).fill(0xab)
  const code = new Uint8Array(32).fill(0xcd)
  for (const nonce of [0n, 1n, 0x7fn, 0x80n, 255n, 256n, 2n ** 64n - 1n]) {
    for (const balance of [0n, 1n, 0x7fn, 0x80n, 10n ** 18n, MAX]) {
      for (const [storageRoot, codeHash] of [[KECCAK256_RLP, KECCAK256_NULL], [root, code]] as const) {
        const rlp = new Account(nonce, balance, storageRoot, codeHash).serialize()
        same(decodeAccount(rlp), createAccountFromRLP(rlp), `nonce ${nonce}, balance ${balance}`)
      }
    }
  }
})

test('what is not an account body fails as the library fails', () => {
  const wrong = [
    RLP.encode([1, 2, 3]), // three items
    RLP.encode('not a list'),
    RLP.encode([1, 2, new Uint8Array(31), new Uint8Array(32)]), // a short storage root
  ]
  for (const rlp of wrong) {
    assert.throws(() => createAccountFromRLP(rlp))
    assert.throws(() => decodeAccount(rlp))
  }
  // a decoded copy is the caller's: changing it changes nothing stored
  const rlp = new Account(1n, 2n).serialize()
  const before = Uint8Array.from(rlp)
  decodeAccount(rlp).codeHash.fill(0)
  assert.deepEqual(rlp, before)
})

test('bytes that only look like the four fields of an account fail as the library fails', () => {
  const root = new Uint8Array(32).fill(0xab)
  const code = new Uint8Array(32).fill(0xcd)
  const field = (b: Uint8Array) => [0xa0, ...b]
  // three fields (an empty balance, the root, the code hash): 67 bytes, 0x43
  const fields = [0x80, ...field(root), ...field(code)]
  // a string, not a list, whose length byte reads as a fourth field (the nonce) in front of them
  const asString = Uint8Array.from([0xb8, fields.length, ...fields])
  // a list with a two-byte length (non-canonical: a leading zero), whose second length byte reads the same way
  const twoByteLength = Uint8Array.from([0xf9, 0x00, fields.length, ...fields])
  const twoByteLengthAsFields = Uint8Array.from([0xf9, 0x05, 0x07, ...field(root), ...field(code)])
  // a whole account with one byte after it
  const trailing = Uint8Array.from([...new Account(1n, 2n, root, code).serialize(), 0x00])
  for (const rlp of [asString, twoByteLength, twoByteLengthAsFields, trailing]) {
    assert.throws(() => createAccountFromRLP(rlp), Error, 'the library refuses it')
    assert.throws(() => decodeAccount(rlp), Error, `refused too: ${Buffer.from(rlp).toString('hex').slice(0, 16)}…`)
  }
})
