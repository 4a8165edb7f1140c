import assert from 'node:assert/strict'
import { test } from 'node:test'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '../../primitives/hex.ts'
import { TxPool } from '../../txpool/pool.ts'
import { env, GENESIS, keys, sign, transfer, forks, FakeState } from '../../txpool/test-kit.ts'
import { SenderRecovery } from './recovery-pool.ts'

const OSAKA = { number: 20n, timestamp: 450n }
const addressOf = (publicKey: Uint8Array): string => bytesToHex(keccak_256(publicKey).subarray(12))

test('a burst is recovered on the worker: every key is its signer, legacy and typed, in order', async (t) => {
  const recovery = new SenderRecovery(GENESIS, 2)
  t.after(() => recovery.close())
  await recovery.whenReady()
  const raws = keys.flatMap((key, i) => [
    transfer(key, i),
    sign({ type: 0, nonce: 1n, gasPrice: 2n * 10n ** 9n, gasLimit: 21_000n, to: `0x${'22'.repeat(20)}` }, key, forks.osaka),
  ])
  const recovered = await Promise.all(raws.map((raw) => recovery.recover(raw, OSAKA.number, OSAKA.timestamp)))
  assert.deepEqual(
    recovered.map((key) => (key === undefined ? 'none' : addressOf(key))),
    keys.flatMap((key) => [key.hex, key.hex]),
  )
})

test('what the worker cannot decode answers undefined (the caller decodes inline and rejects)', async (t) => {
  const recovery = new SenderRecovery(GENESIS, 1)
  t.after(() => recovery.close())
  await recovery.whenReady()
  const good = transfer(keys[0]!, 0)
  const badSignature = good.slice()
  badSignature[badSignature.length - 5]! ^= 0xff // inside s
  const [garbage, tampered] = await Promise.all([
    recovery.recover(new Uint8Array([0x02, 0xc0, 0x01]), OSAKA.number, OSAKA.timestamp),
    recovery.recover(badSignature, OSAKA.number, OSAKA.timestamp),
  ])
  assert.equal(garbage, undefined)
  // A tampered signature may still recover some key: it must then not be the signer's.
  if (tampered !== undefined) assert.notEqual(addressOf(tampered), keys[0]!.hex)
})

test('until a worker is loaded, recover answers undefined at once (inline) instead of waiting for it', async (t) => {
  const recovery = new SenderRecovery(GENESIS, 1)
  t.after(() => recovery.close())
  assert.equal(await recovery.recover(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp), undefined)
  await recovery.whenReady()
  assert.ok((await recovery.recover(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp)) !== undefined)
})

test('after close, recover answers undefined at once', async () => {
  const recovery = new SenderRecovery(GENESIS, 1)
  await recovery.close()
  assert.equal(await recovery.recover(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp), undefined)
})

test('the pool admits with a worker-recovered key exactly as it does inline', async (t) => {
  const recovery = new SenderRecovery(GENESIS, 1)
  t.after(() => recovery.close())
  await recovery.whenReady()
  const state = new FakeState()
  const viaWorker = new TxPool({ config: {} })
  const inline = new TxPool({ config: {} })
  for (const [i, key] of keys.entries()) {
    const raw = transfer(key, 0, { value: BigInt(i + 1) })
    const senderPublicKey = await recovery.recover(raw, OSAKA.number, OSAKA.timestamp)
    assert.ok(senderPublicKey !== undefined)
    const a = viaWorker.add(raw, state, env(forks.osaka, { senderPublicKey }))
    const b = inline.add(raw, state, env(forks.osaka))
    assert.equal(a.hash, b.hash)
    assert.equal(a.status, b.status)
    assert.equal(a.tx.senderHex, key.hex)
    assert.equal(b.tx.senderHex, key.hex)
    assert.equal(a.tx.tx.getSenderAddress().toString(), key.hex)
  }
})
