import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TxPool } from '../../txpool/pool.ts'
import { prepareTx } from '../../txpool/prepared.ts'
import type { PendingEnv } from '../../txpool/validate.ts'
import { env, GENESIS, GWEI, keys, sign, transfer, forks, FakeState } from '../../txpool/test-kit.ts'
import { SenderRecovery } from './recovery-pool.ts'

const OSAKA = { number: 20n, timestamp: 450n }
const OSAKA_BLOCK = { ...OSAKA, fork: forks.osaka }

/** A recovery pool of `workers` threads, started and ready, closed when the test ends. */
async function startedRecovery(t: { after(fn: () => unknown): void }, workers: number): Promise<SenderRecovery> {
  const recovery = new SenderRecovery(GENESIS, workers)
  t.after(() => recovery.close())
  recovery.start()
  await recovery.whenReady()
  return recovery
}

test('a burst is prepared on the worker: each record equals the inline one, legacy, typed and creations, in order', async (t) => {
  const recovery = await startedRecovery(t, 2)
  const raws = keys.flatMap((key, i) => [
    transfer(key, i, { data: new Uint8Array([0, 7, 0]), gas: 30_000n }),
    sign({ type: 0, nonce: 1n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: `0x${'22'.repeat(20)}` }, key, forks.osaka),
    transfer(key, i + 1, { to: '', data: new Uint8Array(40).fill(0x60), gas: 100_000n }), // a creation: no recipient
  ])
  const prepared = await Promise.all(raws.map((raw) => recovery.prepare(raw, OSAKA.number, OSAKA.timestamp)))
  assert.deepEqual(
    prepared.map((p) => p?.senderHex ?? 'none'),
    keys.flatMap((key) => [key.hex, key.hex, key.hex]),
  )
  assert.equal(prepared[2]!.to, undefined)
  assert.deepEqual(prepared[0]!.to, new Uint8Array(20).fill(0x11))
  prepared.forEach((p, i) => assert.deepEqual({ ...p! }, prepareTx(raws[i]!, forks.osaka)))
})

test('what the worker cannot prepare answers undefined (the caller decodes inline and rejects)', async (t) => {
  const recovery = await startedRecovery(t, 1)
  const good = transfer(keys[0]!, 0)
  const badSignature = good.slice()
  badSignature[badSignature.length - 5]! ^= 0xff // inside s
  const [garbage, blob, tampered] = await Promise.all([
    recovery.prepare(new Uint8Array([0x02, 0xc0, 0x01]), OSAKA.number, OSAKA.timestamp),
    recovery.prepare(new Uint8Array([0x03, 0xc0]), OSAKA.number, OSAKA.timestamp),
    recovery.prepare(badSignature, OSAKA.number, OSAKA.timestamp),
  ])
  assert.equal(garbage, undefined)
  assert.equal(blob, undefined)
  // A tampered signature may still recover some key: it must then not be the signer's.
  if (tampered !== undefined) assert.notEqual(tampered.senderHex, keys[0]!.hex)
})

test('no worker starts before the first submission; it answers inline and starts them, and later ones use them', async (t) => {
  const recovery = new SenderRecovery(GENESIS, 1)
  t.after(() => recovery.close())
  await recovery.whenReady() // nothing started: nothing to wait for
  assert.equal(recovery.running, false)
  assert.equal(await recovery.prepare(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp), undefined)
  assert.equal(recovery.running, true)
  await recovery.whenReady()
  assert.ok((await recovery.prepare(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp)) !== undefined)
})

test('after close, prepare answers undefined at once and starts nothing', async () => {
  const recovery = new SenderRecovery(GENESIS, 1)
  await recovery.close()
  assert.equal(await recovery.prepare(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp), undefined)
  assert.equal(recovery.running, false)
})

test('the pool admits with a worker-prepared record exactly as it does inline', async (t) => {
  const recovery = await startedRecovery(t, 1)
  const state = new FakeState()
  const viaWorker = new TxPool({ config: {} })
  const inline = new TxPool({ config: {} })
  for (const [i, key] of keys.entries()) {
    const raw = transfer(key, 0, { value: BigInt(i + 1) })
    const prepared = await recovery.prepare(raw, OSAKA.number, OSAKA.timestamp)
    assert.ok(prepared !== undefined)
    const a = viaWorker.add(raw, state, env(forks.osaka, { prepared }))
    const b = inline.add(raw, state, env(forks.osaka))
    assert.equal(a.hash, b.hash)
    assert.equal(a.status, b.status)
    assert.equal(a.tx.senderHex, key.hex)
    assert.equal(b.tx.senderHex, key.hex)
    assert.equal(a.tx.tx.getSenderAddress().toString(), key.hex)
    assert.deepEqual(a.tx.tx.serialize(), b.tx.tx.serialize())
  }
})

test('a refused transaction gets the same error through the worker as inline', async (t) => {
  const recovery = await startedRecovery(t, 1)
  const raw = transfer(keys[0]!, 0, { gas: 20_000n })
  const prepared = await recovery.prepare(raw, OSAKA.number, OSAKA.timestamp)
  assert.ok(prepared !== undefined) // decodable: the pool, not the worker, refuses it
  const refusal = (e: PendingEnv): unknown => {
    try {
      new TxPool({ config: {} }).add(raw, new FakeState(), e)
    } catch (err) {
      return err
    }
    return undefined
  }
  const viaWorker = refusal(env(forks.osaka, { prepared }))
  assert.deepEqual(viaWorker, refusal(env(forks.osaka)))
  assert.equal((viaWorker as Error).message, 'intrinsic gas too low: gas 20000, minimum needed 21000')
})

test('the submissions of one turn go to a worker as one message, and each caller gets the record of its own transaction', async (t) => {
  const recovery = await startedRecovery(t, 1)
  // Every key's nonces 0..2, interleaved: neighbours in the batch differ in sender, nonce and value.
  const raws = [0, 1, 2].flatMap((nonce) => keys.map((key, i) => transfer(key, nonce, { value: BigInt(100 * nonce + i + 1) })))
  const before = recovery.posted
  const prepared = await Promise.all(raws.map((raw) => recovery.prepare(raw, OSAKA.number, OSAKA.timestamp)))
  assert.deepEqual(recovery.posted, { messages: before.messages + 1, transactions: before.transactions + raws.length })
  assert.deepEqual(
    prepared.map((p) => [p?.senderHex, p?.nonce, p?.value]),
    [0, 1, 2].flatMap((nonce) => keys.map((key, i) => [key.hex, BigInt(nonce), BigInt(100 * nonce + i + 1)])),
  )
  prepared.forEach((p, i) => assert.deepEqual({ ...p! }, prepareTx(raws[i]!, forks.osaka)))
})

test('a transaction the worker cannot prepare fails alone: the others of its batch get their records', async (t) => {
  const recovery = await startedRecovery(t, 1)
  const good = keys.map((key) => transfer(key, 0))
  const highS = good[1]!.slice()
  assert.equal(highS[highS.length - 33], 0xa0) // s is the last field, 32 bytes long
  highS[highS.length - 32] = 0xff // s's top byte: above half the curve order, refused since Homestead (EIP-2)
  const batch = [good[0]!, new Uint8Array([0x02, 0xc0, 0x01]), good[1]!, highS, good[2]!, new Uint8Array([0x03, 0xc0])]
  const before = recovery.posted
  const prepared = await Promise.all(batch.map((raw) => recovery.prepare(raw, OSAKA.number, OSAKA.timestamp)))
  assert.equal(recovery.posted.messages, before.messages + 1)
  assert.deepEqual(
    prepared.map((p) => p?.senderHex),
    [keys[0]!.hex, undefined, keys[1]!.hex, undefined, keys[2]!.hex, undefined],
  )
  for (const i of [0, 2, 4]) assert.deepEqual({ ...prepared[i]! }, prepareTx(batch[i]!, forks.osaka))
})

test('a lone submission is posted in the turn it came, alone (no waiting for company)', async (t) => {
  const recovery = await startedRecovery(t, 2)
  const before = recovery.posted
  const pending = recovery.prepare(transfer(keys[0]!, 0), OSAKA.number, OSAKA.timestamp)
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(recovery.posted, { messages: before.messages + 1, transactions: before.transactions + 1 })
  assert.equal((await pending)?.senderHex, keys[0]!.hex)
})

test('one burst naming different pending blocks: each item is prepared for its own block\'s fork', async (t) => {
  const recovery = await startedRecovery(t, 1)
  const blocks = [
    { number: 20n, timestamp: 250n, fork: forks.cancun },
    OSAKA_BLOCK,
    { number: 20n, timestamp: 350n, fork: forks.prague },
    { number: (1n << 63n) + 5n, timestamp: (1n << 64n) - 1n, fork: forks.osaka },
  ]
  const raws = blocks.map((_, i) => transfer(keys[i % keys.length]!, i, { data: new Uint8Array(i * 7).fill(1), gas: 60_000n }))
  const prepared = await Promise.all(raws.map((raw, i) => recovery.prepare(raw, blocks[i]!.number, blocks[i]!.timestamp)))
  assert.equal(recovery.posted.messages, 1)
  prepared.forEach((p, i) => {
    assert.equal(p?.fork, blocks[i]!.fork.hardfork())
    assert.deepEqual({ ...p! }, prepareTx(raws[i]!, blocks[i]!.fork))
  })
})
