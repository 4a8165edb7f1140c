/**
 * Preparing a transaction for a fork whose rules differ from the everyday ones gives what decoding inline
 * gives (the same sender and gas figures, or a refusal both ways): before Spurious Dragon (no EIP-155), before
 * Berlin (no typed transactions), and with EIP-7976 (other calldata floor) or EIP-2780 (other base gas) active;
 * and, on Osaka too, a gas × fee cap one past what the library allows.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Common } from '@ethereumjs/common'
import { ChainRules, type GethGenesis } from '../execution/chain-config.ts'
import { materialize, parseTx } from './decode.ts'
import { prepareTx } from './prepared.ts'
import { TxPool } from './pool.ts'
import { CHAIN_ID, FakeState, GENESIS, GWEI, TO, forks, keys, sign, signFields, transfer, unprotectedLegacy } from './test-kit.ts'

const config = (GENESIS as unknown as { config: Record<string, unknown> }).config
/** The test chain with every fork from `from` on moved to block 1000. */
function rulesFrom(from: string): ChainRules {
  const order = ['eip155Block', 'eip158Block', 'byzantiumBlock', 'constantinopleBlock', 'petersburgBlock', 'istanbulBlock', 'berlinBlock']
  const moved = Object.fromEntries(order.slice(order.indexOf(from)).map((k) => [k, 1000]))
  return new ChainRules({ ...GENESIS, config: { ...config, ...moved, londonBlock: 1000, mergeNetsplitBlock: 1000 } } as unknown as GethGenesis)
}

function withEips(eips: number[]): Common {
  const c = forks.osaka.copy()
  c.setEIPs(eips)
  return c
}

const commons: Array<[string, Common]> = [
  ['Osaka', forks.osaka],
  ['before Spurious Dragon', rulesFrom('eip155Block').at(1n, 0n)],
  ['before Berlin', rulesFrom('berlinBlock').at(1n, 0n)],
  ['Osaka with EIP-7976', withEips([7976])],
  ['Osaka with EIP-2780', withEips([7708, 2780])],
]

function samples(): Array<[string, Uint8Array]> {
  const [a, b] = [keys[0]!, keys[1]!]
  const data = new Uint8Array([0, 0, 0, 0, 0, 9])
  return [
    ['legacy EIP-155 call', sign({ type: 0, nonce: 1n, gasPrice: 2n * GWEI, gasLimit: 60_000n, to: TO, value: 5n, data }, a, forks.berlin)],
    ['legacy unprotected', unprotectedLegacy(b, 3n)],
    ['access-list type, empty list', sign({ type: 1, nonce: 2n, gasPrice: 2n * GWEI, gasLimit: 60_000n, to: TO, chainId: CHAIN_ID, data }, b, forks.berlin)],
    ['1559 call', transfer(a, 0, { data, gas: 60_000n })],
    // gas × fee cap exactly 2^256: one more than the library allows.
    ['fee overflow by one', signFields(2, [CHAIN_ID, 0n, GWEI, 2n ** 236n, 2n ** 20n, TO, 2n, new Uint8Array(), []], a)],
  ]
}

function inline(raw: Uint8Array, common: Common): string {
  try {
    const p = materialize(parseTx(raw), common, 0)
    return `${p.senderHex} ${p.intrinsicGas} ${p.floorDataGas}`
  } catch (e) {
    return `refused: ${(e as Error).message}`
  }
}

function prepared(raw: Uint8Array, common: Common): string {
  try {
    const p = prepareTx(raw, common)
    return `${p.senderHex} ${p.intrinsicGas} ${p.floorDataGas}`
  } catch (e) {
    return `refused: ${(e as Error).message}`
  }
}

test('prepared and inline agree on forks with other rules', () => {
  let differing = 0
  for (const [forkName, common] of commons) {
    for (const [name, raw] of samples()) {
      const want = inline(raw, common)
      assert.equal(prepared(raw, common), want, `${name} @ ${forkName}`)
      if (want !== inline(raw, forks.osaka)) differing++
    }
  }
  // The forks above do change outcomes (else this test would not test the direct path's refusals).
  assert.ok(differing >= 4, `${differing} outcomes differ from plain Osaka`)
})

test('an access-list transaction before Berlin is refused, naming the fork it waits for', () => {
  const raw = sign({ type: 1, nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 30_000n, to: TO, chainId: CHAIN_ID }, keys[0]!, forks.berlin)
  const common = rulesFrom('berlinBlock').at(1n, 0n)
  assert.throws(
    () => new TxPool().add(raw, new FakeState(), { common, baseFee: 0n, blockGasLimit: 30_000_000n }),
    (e: unknown) => e instanceof Error && e.message === 'transaction type not supported: type 1 rejected, pool not yet in Berlin',
  )
})
