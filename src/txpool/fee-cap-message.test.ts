/**
 * The tx fee cap refusal as a client reads it: the fee in ether with two decimals as Go's %.2f prints it,
 * for fees that are not ties (1.27 ether) and that are exactly representable (1.25 ether).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import { TxPool } from './pool.ts'
import { CHAIN_ID, ETHER, FakeState, TO, env, keys, signFields } from './test-kit.ts'

/** A transfer whose gas limit times fee cap is `fee` wei (100,000 gas). */
const withFee = (fee: bigint) => signFields(2, [CHAIN_ID, 0n, 1n, fee / 100_000n, 100_000n, TO, 1n, new Uint8Array(), []], keys[0]!)

test('the fee is printed with two decimals, not rounded to its neighbour', () => {
  for (const [fee, printed] of [
    [(127n * ETHER) / 100n, '1.27'],
    [(125n * ETHER) / 100n, '1.25'],
    [(3n * ETHER) / 2n, '1.50'],
  ] as const) {
    assert.throws(
      () => new TxPool().add(withFee(fee), new FakeState(), env()),
      (e: unknown) => e instanceof FlashnodeError && e.message === `tx fee (${printed} ether) exceeds the configured cap (1.00 ether)`,
      printed,
    )
  }
})
