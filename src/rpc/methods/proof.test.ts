/**
 * eth_getProof's handler over a fake proof port: what reaches the port (the address, 32-byte slots, the block
 * id), geth's answer shape and key echo, and the refusals made before any state is read (argument errors, the
 * key limit, bad keys).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { MAX_PROOF_SLOTS } from '../../node/state-proofs.ts'
import { bytesToHex, hexToBytes } from '../../primitives/hex.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { proofMethods } from './proof.ts'

const ADDR = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df'
const slot32 = `0x${'00'.repeat(31)}07`

test('the port gets 32-byte slots and the block id; the answer has geth\'s fields, order and encodings', async () => {
  const { node, calls } = fakeNode({}, {
    getProof: async (address, slots) => ({
      address,
      accountProof: [Uint8Array.of(0xc0, 1)],
      nonce: 3n,
      balance: 1000n,
      codeHash: new Uint8Array(32).fill(0xcc),
      storageHash: new Uint8Array(32).fill(0x55),
      storageProof: slots.map((slot, i) => ({ slot, value: BigInt(i), proof: [Uint8Array.of(0xc1, i)] })),
    }),
  })
  const keys = [slot32, '0x7', '0x07', '7', '0x', `0X${'ab'.repeat(32)}`]
  const answer = (await invoke(proofMethods(node), 'eth_getProof', [ADDR, keys, 'pending'])) as Record<string, unknown>
  assert.deepEqual(Object.keys(answer), ['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof'])
  assert.equal(answer.address, ADDR)
  assert.deepEqual(answer.accountProof, ['0xc001'])
  assert.equal(answer.balance, '0x3e8')
  assert.equal(answer.nonce, '0x3')
  assert.equal(answer.codeHash, `0x${'cc'.repeat(32)}`)
  assert.equal(answer.storageHash, `0x${'55'.repeat(32)}`)
  const echoed = (answer.storageProof as { key: string; value: string; proof: string[] }[]).map((s) => s.key)
  // 32 bytes written: echoed as 32-byte hex (lower case); fewer: as a quantity of the key's value.
  assert.deepEqual(echoed, [slot32, '0x7', '0x7', '0x7', '0x0', `0x${'ab'.repeat(32)}`])
  assert.deepEqual((answer.storageProof as { value: string }[]).map((s) => s.value), keys.map((_, i) => `0x${i.toString(16)}`))
  assert.equal(calls.length, 1)
  assert.equal(calls[0]!.method, 'proofs.getProof')
  const [address, slots, block] = calls[0]!.args as [Uint8Array, Uint8Array[], unknown]
  assert.equal(bytesToHex(address), ADDR)
  assert.ok(slots.every((s) => s.length === 32))
  assert.deepEqual(slots[1], hexToBytes(slot32))
  assert.deepEqual(block, { kind: 'tag', tag: 'pending' })
})

test('refusals before any state is read, in geth\'s words', async () => {
  const { node, calls } = fakeNode()
  const m = proofMethods(node)
  const rejects = (params: unknown[], message: string) =>
    assert.rejects(invoke(m, 'eth_getProof', params), (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message === message)
  await rejects([ADDR, []], 'missing value for required argument 2')
  await rejects([ADDR, '0x1', 'latest'], 'invalid argument 1: json: cannot unmarshal string into Go value of type []string')
  await rejects([ADDR, [1], 'latest'], 'invalid argument 1: json: cannot unmarshal number into Go value of type string')
  await rejects([ADDR, [`0x${'00'.repeat(33)}`], 'latest'], `storage key too long (want at most 32 bytes): "0x${'00'.repeat(33)}"`)
  await rejects([ADDR, ['0xzz'], 'latest'], 'invalid hex in storage key: "0xzz"')
  const many = Array.from({ length: MAX_PROOF_SLOTS + 1 }, (_, i) => `0x${i.toString(16)}`)
  await rejects([ADDR, many, 'latest'], `too many storage keys requested (max ${MAX_PROOF_SLOTS}, got ${MAX_PROOF_SLOTS + 1})`)
  assert.equal(calls.length, 0)
  await invoke(m, 'eth_getProof', [ADDR, many.slice(1), 'latest'])
  await invoke(m, 'eth_getProof', [ADDR, null, '0x0'])
  assert.equal((calls[0]!.args[1] as unknown[]).length, MAX_PROOF_SLOTS, 'the limit itself is served')
  assert.deepEqual(calls[1]!.args[1], [])
})
