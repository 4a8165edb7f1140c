/**
 * Our EVM against the library (@ethereumjs/vm through test/evm/library-oracle.ts) on random programs: each
 * scenario (random contracts, pre-state, block, fork, transaction) runs through both, and validity, status,
 * output, gas, refund, logs, created address and the whole post-state must agree.
 *
 *   EVM_FUZZ_SEED=<n>   the seed (printed; random when unset)
 *   EVM_FUZZ_COUNT=<n>  how many scenarios (default below, "thousands per run" as the gate asks: ~30 s on a 2-core machine)
 *
 * On a difference the first one is shrunk and printed (programs in hex and disassembled) with the command
 * that reruns it; `npx tsx test/evm/run-differential.ts --seed S --count N` shows every difference grouped.
 * The statistics check keeps the run honest: if generated programs stopped doing real work (gas, storage,
 * logs, sub-calls, creates), agreeing would mean little.
 */

import test from 'node:test'
import assert from 'node:assert/strict'
import { firstDifference, formatDifference, shrink, type Outcome } from './differential.ts'
import { Status, type TxResult } from '../../src/evm/types.ts'
import type { AccountState } from '../state-tests/world.ts'
import { formatStats, groupDifferences, runBatch } from './differential-batch.ts'

const DEFAULT_COUNT = 2000

function envNumber(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw.trim())
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`)
  return n
}

const seed = (envNumber('EVM_FUZZ_SEED') ?? Math.floor(Math.random() * 0x1_0000_0000)) >>> 0
const count = envNumber('EVM_FUZZ_COUNT') ?? DEFAULT_COUNT

test(`differential: our EVM and the library agree on ${count} random programs (seed ${seed})`, { timeout: 600_000 }, async () => {
  const result = await runBatch({ seed, count })
  const { stats, differences } = result
  const rerun = `EVM_FUZZ_SEED=${seed} EVM_FUZZ_COUNT=${count} node --import tsx --test test/evm/differential.test.ts`
  if (differences.length === 0) {
    console.log(`differential: ${stats.scenarios} programs, seed ${seed}, all equal (${(result.millis / 1000).toFixed(1)} s)`)
  } else {
    console.log(`differential: ${stats.scenarios} programs, seed ${seed}, ${differences.length} differ`)
  }
  console.log(formatStats(stats))

  if (differences.length > 0) {
    const summary = groupDifferences(differences)
      .map(([field, list]) => `  ${field}: ${list.length} (${list.slice(0, 8).map((c) => c.scenario.id).join(' ')})`)
      .join('\n')
    const shrunk = await shrink(differences[0]!, 150)
    assert.fail(
      `${differences.length} of ${stats.scenarios} scenarios differ (seed ${seed}):\n${summary}\n\n` +
        `first, shrunk:\n${formatDifference(shrunk)}\n\n` +
        `rerun: ${rerun}\nall of them: npx tsx test/evm/run-differential.ts --seed ${seed} --count ${count}\n` +
        `this one: npx tsx test/evm/run-differential.ts --seed ${seed} --index ${differences[0]!.scenario.id.split(':')[1]}`,
    )
  }

  if (stats.scenarios >= 100) {
    // the programs did real work (measured on the library's runs)
    const share = (n: number): number => n / stats.scenarios
    assert.ok(share(stats.ran) >= 0.6, `only ${stats.ran} of ${stats.scenarios} transactions ran`)
    assert.ok(share(stats.gasOver60k) >= 0.3, `only ${stats.gasOver60k} used more than 60,000 gas`)
    assert.ok(share(stats.storageChanged) >= 0.05, `only ${stats.storageChanged} changed storage`)
    assert.ok(share(stats.withLogs) >= 0.03, `only ${stats.withLogs} logged`)
    assert.ok(stats.accountsCreated >= 2, `only ${stats.accountsCreated} created accounts`)
    assert.ok(stats.otherAccountChanged >= 2, `only ${stats.otherAccountChanged} changed accounts through sub-calls`)
    assert.ok(stats.success >= 20 && stats.halt >= 10, `status mix: ${stats.success} success, ${stats.revert} revert, ${stats.halt} halt`)
  }
})

test('the comparison names the first field that differs', () => {
  const result: TxResult = {
    status: Status.Success, gasUsed: 50_000n, gasUsedBeforeRefund: 60_000n, refund: 10_000n, output: Uint8Array.of(1, 2),
    logs: [{ address: 5n, topics: [1n], data: Uint8Array.of(9) }], blobGasUsed: 0n,
  }
  const account: AccountState = { nonce: 1n, balance: 10n, code: Uint8Array.of(0x00), storage: new Map([[1n, 2n]]) }
  const ran = (r: Partial<TxResult>, a: Partial<AccountState> = {}, extra?: [bigint, AccountState]): Outcome => ({
    kind: 'ran',
    result: { ...result, ...r },
    post: new Map([[7n, { ...account, ...a }], ...(extra ? [extra] : [])]),
  })
  const base = ran({})
  assert.equal(firstDifference(base, ran({})), undefined)
  const cases: [Outcome, string][] = [
    [{ kind: 'invalid', reason: 'nonce too low' }, 'validity'],
    [ran({ status: Status.Revert }), 'status'],
    [ran({ output: Uint8Array.of(1) }), 'output'],
    [ran({ gasUsed: 50_001n }), 'gasUsed'],
    [ran({ gasUsedBeforeRefund: 60_001n }), 'gasUsedBeforeRefund'],
    [ran({ refund: 9_999n }), 'refund'],
    [ran({ logs: [] }), 'logs'],
    [ran({ logs: [{ address: 5n, topics: [2n], data: Uint8Array.of(9) }] }), 'logs'],
    [ran({ createdAddress: 3n }), 'createdAddress'],
    [ran({}, { balance: 11n }), 'state.balance'],
    [ran({}, { nonce: 2n }), 'state.nonce'],
    [ran({}, { code: Uint8Array.of(0x01) }), 'state.code'],
    [ran({}, { storage: new Map([[1n, 3n]]) }), 'state.storage'],
    [ran({}, { storage: new Map() }), 'state.storage'],
    [ran({}, {}, [8n, account]), 'state.existence'],
    [{ kind: 'crash', error: 'boom' }, 'crash'],
  ]
  for (const [ours, field] of cases) assert.equal(firstDifference(ours, base)?.field, field, `expected ${field}`)
  assert.equal(firstDifference(base, { kind: 'crash', error: 'boom' })?.field, 'oracle-crash')
  assert.equal(firstDifference({ kind: 'invalid', reason: 'a' }, { kind: 'invalid', reason: 'b' }), undefined)
})
