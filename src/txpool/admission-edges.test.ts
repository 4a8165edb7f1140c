/**
 * Admission at the edge of each limit: a value exactly at a limit passes, one past it is refused with geth's
 * text (init code size, the EIP-7825 gas cap, the blob count, the blob fee minimum, the balance, a fee cap equal
 * to the base fee when such fee caps are refused); a replacement must raise each fee strictly, even where
 * integer percentages round to nothing; a blob sidecar's counts and version must fit the fork.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RLP, type Input } from '@ethereumjs/rlp'
import { FlashnodeError } from '../errors/errors.ts'
import type { PoolConfig } from './config.ts'
import { TxPool } from './pool.ts'
import type { PendingEnv } from './validate.ts'
import { CHAIN_ID, FakeState, GWEI, TO, env, forks, keys, signFields, KZG_INFINITY, signedBlobTx, transfer } from './test-kit.ts'


const alice = keys[0]!

function admit(raw: Uint8Array, o: { env?: PendingEnv; config?: Partial<PoolConfig>; state?: FakeState } = {}) {
  return new TxPool({ config: o.config }).add(raw, o.state ?? new FakeState(), o.env ?? env())
}

function refused(raw: Uint8Array, message: string, o: Parameters<typeof admit>[1] = {}) {
  assert.throws(
    () => admit(raw, o),
    (e: unknown) => e instanceof FlashnodeError && e.kind === 'transactionRejected' && e.message === message,
    message,
  )
}

test('init code of exactly the EIP-3860 limit (49152 bytes) is admitted', () => {
  const raw = signFields(2, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 3_000_000n, new Uint8Array(), 0n, new Uint8Array(49_152).fill(1), []], alice)
  assert.equal(admit(raw).status, 'pending')
})

test('gas of exactly the EIP-7825 cap (2^24) is admitted under Osaka; one more is refused', () => {
  const cap = 1n << 24n
  const withGas = (gas: bigint) => signFields(2, [CHAIN_ID, 0n, GWEI, 2n * GWEI, gas, TO, 1n, new Uint8Array(), []], alice)
  assert.equal(admit(withGas(cap)).status, 'pending')
  refused(withGas(cap + 1n), `transaction gas limit too high (cap: ${cap}, tx: ${cap + 1n})`)
})

test('a balance of exactly the cost is enough; a replacement exactly within the balance too', () => {
  const cost = 21_000n * 2n * GWEI + 1n
  const state = new FakeState([alice], cost)
  const pool = new TxPool()
  const first = pool.add(transfer(alice, 0), state, env())
  assert.equal(first.status, 'pending')
  // A replacement raising the fee cap by 10%: the balance must cover the pending cost plus the difference.
  const bumped = transfer(alice, 0, { feeCap: 2_200_000_000n, tip: 1_100_000_000n })
  const bump = 21_000n * 200_000_000n
  state.set(alice, { balance: cost + bump })
  assert.equal(pool.add(bumped, state, env()).replaced, first.hash)
})

test('a fee cap equal to the base fee passes when fee caps below it are refused', () => {
  const config = { rejectFeeCapBelowBaseFee: true }
  const at = env(forks.osaka, { baseFee: 2n * GWEI })
  assert.equal(admit(transfer(alice, 0, { feeCap: 2n * GWEI }), { env: at, config }).status, 'pending')
  refused(
    transfer(alice, 0, { feeCap: 2n * GWEI - 1n }),
    `max fee per gas less than block base fee: address ${alice.hex}, maxFeePerGas: ${2n * GWEI - 1n}, baseFee: ${2n * GWEI}`,
    { env: at, config },
  )
})

test('a replacement must raise the fee cap and the tip strictly, even where 10% of them rounds to nothing', () => {
  for (const [second, accepted] of [
    [{ feeCap: 20n, tip: 5n }, false], // the tip not raised (5 * 110 / 100 is 5)
    [{ feeCap: 9n, tip: 6n }, false], // the fee cap not raised (9 * 110 / 100 is 9)
    [{ feeCap: 10n, tip: 6n }, true],
  ] as const) {
    const pool = new TxPool({ config: { minTip: 1n } })
    const state = new FakeState()
    pool.add(transfer(alice, 0, { feeCap: 9n, tip: 5n }), state, env())
    const attempt = () => pool.add(transfer(alice, 0, second), state, env())
    if (accepted) assert.ok(attempt().replaced !== undefined)
    else assert.throws(attempt, (e: unknown) => e instanceof Error && e.message === 'replacement transaction underpriced', JSON.stringify(second, (_, v) => (typeof v === 'bigint' ? `${v}` : v)))
  }
})

/** A Cancun blob transfer from alice in network form (test-kit's signedBlobTx). */
const blobTx = (o: { feeCap?: bigint; tip?: bigint; blobFeeCap?: bigint } = {}): Uint8Array => signedBlobTx(alice, o)

/** `raw`'s wrapper with its sidecar items replaced (the signature covers the inner transaction only). */
function rewrap(raw: Uint8Array, sidecar: (items: Input[]) => Input[]): Uint8Array {
  const outer = RLP.decode(raw.subarray(1)) as Input[]
  const body = RLP.encode([outer[0]!, ...sidecar(outer.slice(1))])
  const out = new Uint8Array(body.length + 1)
  out[0] = 3
  out.set(body, 1)
  return out
}

const cancun = env(forks.cancun)

test('blob count: exactly the configured limit is admitted', () => {
  assert.equal(admit(blobTx(), { env: cancun, config: { maxBlobsPerTx: 1 } }).status, 'pending')
})

test('blob commitments must match the blob hashes in number', () => {
  const raw = rewrap(blobTx(), ([blobs, commitments, proofs]) => [blobs!, [...(commitments as Input[]), KZG_INFINITY], proofs!])
  refused(raw, 'invalid number of 2 blob commitments compared to 1 blob hashes', { env: cancun })
})

test('a cell-proof (version 1) sidecar before Osaka is the wrong format; under Osaka it needs 128 proofs per blob', () => {
  const v1 = rewrap(blobTx(), (items) => [1n, ...items])
  refused(v1, 'Wrong sidecar format: unexpected sidecar version, want: 0, got: 1', { env: cancun })
  refused(v1, 'KZG verification error: invalid number of 1 blob proofs expected 128', { env: env(forks.osaka) })
})

test('the blob fee cap minimum (1 wei): 1 is admitted, 0 is refused', () => {
  assert.equal(admit(blobTx({ blobFeeCap: 1n }), { env: cancun }).status, 'pending')
  refused(blobTx({ blobFeeCap: 0n }), 'transaction gas price below minimum: blob fee cap 0, minimum needed 1', { env: cancun })
})

test('replacing a blob transaction: the blob fee cap must rise strictly, even where 10% of it rounds to nothing', () => {
  const pool = new TxPool()
  const state = new FakeState()
  pool.add(blobTx({ blobFeeCap: 5n }), state, cancun)
  const higherFees = { feeCap: 20n * GWEI, tip: 2n * GWEI }
  assert.throws(
    () => pool.add(blobTx({ ...higherFees, blobFeeCap: 5n }), state, cancun),
    (e: unknown) => e instanceof Error && e.message === 'replacement transaction underpriced',
  )
  assert.ok(pool.add(blobTx({ ...higherFees, blobFeeCap: 6n }), state, cancun).replaced !== undefined)
})

test('a fee of exactly the tx fee cap (1 ether) is admitted', () => {
  // 100,000 gas at 10^13 wei: exactly 1 ether.
  const raw = signFields(2, [CHAIN_ID, 0n, 1n, 10n ** 13n, 100_000n, TO, 1n, new Uint8Array(), []], alice)
  assert.equal(admit(raw).status, 'pending')
})

test('a transaction of exactly the size limit is admitted; one byte over is refused', () => {
  const raw = transfer(alice, 0)
  assert.equal(admit(raw, { config: { maxTxSize: raw.length } }).status, 'pending')
  refused(raw, `oversized data: transaction size ${raw.length}, limit ${raw.length - 1}`, { config: { maxTxSize: raw.length - 1 } })
})

test('the init code limit applies to creations only: a call may carry more data', () => {
  const data = new Uint8Array(49_153).fill(1)
  const raw = signFields(2, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 2_100_000n, TO, 0n, data, []], alice)
  assert.equal(admit(raw).status, 'pending')
})
