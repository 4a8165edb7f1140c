/**
 * The EVM's gas per second in GET /metrics of a real node (issue 20): eth_call, eth_estimateGas,
 * eth_createAccessList and eth_simulateV1 against loop contracts whose gas is known in closed form (21,003 +
 * 26 per turn; each request a different turn count, so no sum can match by accident), on the inline executor
 * and on an execution worker. `flashnode_execution_gas_total{method}` grows by exactly the gas the answers
 * report (simulate's per-call gasUsed, the access list's gasUsed, the estimate itself when it can only run
 * once) and the formula gives; an estimate that searches adds every run; a reverted call's run counts too.
 * `flashnode_execution_seconds_total` grows, and the gas-per-second histogram counts each job once with its
 * gas / seconds (its sum is the counters' ratio). A flashblock with a transaction moves
 * `flashnode_flashblock_gas_per_second` by its gas / its build time; an empty one does not. A follower's
 * catch-up observes `flashnode_follower_block_gas_per_second` once per re-executed block with gas. Manual
 * sealing.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '@ethereumjs/util'
import { parseExposition, samplesOf, type Family } from '../support/prometheus-text.ts'
import { inProcessFollower, servedManualNode } from '../support/sequencing-node.ts'
import { deployCode, signedTx } from '../support/dev-chain.ts'
import { rpc } from '../support/node-process.ts'

type Families = Map<string, Family>

const scrape = async (url: string): Promise<Families> => parseExposition(await (await fetch(`${url}/metrics`)).text())

/** The value of the one sample `sample` of `family` with `labels` (0 when there is none yet). */
function value(families: Families, family: string, labels: Record<string, string> = {}, sample = family): number {
  const f = families.get(family)
  assert.ok(f !== undefined, `${family} is exposed`)
  const found = samplesOf(f, labels, sample).filter((s) => s.labels.le === labels.le)
  assert.ok(found.length <= 1, `one ${sample} with ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

/** Loop code: PUSH2 turns; JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 3 JUMPI (26 gas a turn); STOP. */
const loopCode = (turns: number): string => `0x61${turns.toString(16).padStart(4, '0')}5b600190038060035700`
/** Its gas as a call: 21,000 intrinsic + PUSH2 + 26 a turn (no calldata, no refund, no memory). */
const loopGas = (turns: number): number => 21_000 + 3 + 26 * turns
/** PUSH1 0 PUSH1 0 REVERT: 21,006 gas. */
const REVERT_CODE = '0x60006000fd'
const REVERT_GAS = 21_006

const address = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const hex = (n: number | bigint): string => `0x${n.toString(16)}`
const METHODS = ['eth_call', 'eth_estimateGas', 'eth_createAccessList', 'eth_simulateV1'] as const

for (const executionWorkers of [0, 1]) {
  test(`each execution's gas and EVM time are counted, per method (${executionWorkers === 0 ? 'inline' : 'on a worker'})`, { timeout: 60_000 }, async (t) => {
    const { node, url } = await servedManualNode(t, {}, { executionWorkers })
    // A deployed loop for eth_createAccessList (it takes no state overrides); its block's transaction also
    // makes the flashblock below one with transactions.
    const listTurns = 4_321
    const deployment = signedTx(node, 0, 0n, { data: deployCode(loopCode(listTurns).slice(2)), gasLimit: 200_000n })
    await rpc(url, 'eth_sendRawTransaction', [bytesToHex(deployment.serialize())])
    const start = await scrape(url)
    await rpc(url, 'flashnode_flashblock')
    const built = await scrape(url)
    await rpc(url, 'flashnode_flashblock') // empty: no gas, no ratio
    const before = await scrape(url)

    const flashDelta = (name: string, sample: string) => value(built, name, {}, sample) - value(start, name, {}, sample)
    assert.equal(flashDelta('flashnode_flashblock_gas_per_second', 'flashnode_flashblock_gas_per_second_count'), 1, 'the flashblock with a transaction')
    const gas = flashDelta('flashnode_flashblock_gas', 'flashnode_flashblock_gas_sum')
    const buildSeconds = flashDelta('flashnode_flashblock_build_duration_seconds', 'flashnode_flashblock_build_duration_seconds_sum')
    assert.ok(gas > 53_000 && buildSeconds > 0, `a creation's gas (${gas}) and a build time (${buildSeconds})`)
    const rate = flashDelta('flashnode_flashblock_gas_per_second', 'flashnode_flashblock_gas_per_second_sum')
    assert.ok(Math.abs(rate - gas / buildSeconds) <= 1e-6 * rate, `its gas / its build time: ${rate} vs ${gas / buildSeconds}`)
    assert.equal(value(before, 'flashnode_flashblock_gas_per_second', {}, 'flashnode_flashblock_gas_per_second_count'), value(built, 'flashnode_flashblock_gas_per_second', {}, 'flashnode_flashblock_gas_per_second_count'), 'an empty flashblock is left out')
    assert.equal(value(before, 'flashnode_flashblock_build_duration_seconds', {}, 'flashnode_flashblock_build_duration_seconds_count') - value(built, 'flashnode_flashblock_build_duration_seconds', {}, 'flashnode_flashblock_build_duration_seconds_count'), 1, 'though it was built')

    const started = performance.now()
    // eth_call: a loop, and a call that reverts (it ran: its gas counts).
    const [a, b, c, d, r] = [address(0xa1), address(0xb1), address(0xc1), address(0xd1), address(0xe1)]
    const callTurns = 5_000
    assert.equal(await rpc(url, 'eth_call', [{ to: a }, 'latest', { [a]: { code: loopCode(callTurns) } }]), '0x')
    await assert.rejects(rpc(url, 'eth_call', [{ to: r }, 'latest', { [r]: { code: REVERT_CODE } }]), /execution reverted/)
    // eth_simulateV1: two calls, each answered with its gasUsed.
    const simTurns = [7_000, 9_001]
    const [sim] = await rpc<{ calls: { gasUsed: string; status: string }[] }[]>(url, 'eth_simulateV1', [
      { blockStateCalls: [{ stateOverrides: { [b]: { code: loopCode(simTurns[0]!) }, [c]: { code: loopCode(simTurns[1]!) } }, calls: [{ to: b }, { to: c }] }] },
      'latest',
    ])
    const simGas = sim!.calls.map((call) => Number(call.gasUsed))
    assert.deepEqual(simGas, simTurns.map(loopGas), 'the simulation\'s gas is the formula\'s')
    // eth_estimateGas with exactly the gas the loop needs: the run at that bound succeeds and leaves no room
    // to search (geth's algorithm), so it runs once.
    const estimateTurns = 3_000
    const exact = loopGas(estimateTurns)
    assert.equal(await rpc(url, 'eth_estimateGas', [{ to: d, gas: hex(exact) }, 'latest', { [d]: { code: loopCode(estimateTurns) } }]), hex(exact))
    // eth_createAccessList on the deployed loop: it touches nothing, so one round.
    const receipt = await rpc<{ contractAddress: string }>(url, 'eth_getTransactionReceipt', [bytesToHex(deployment.hash())])
    const list = await rpc<{ accessList: unknown[]; gasUsed: string }>(url, 'eth_createAccessList', [{ to: receipt.contractAddress }, 'pending'])
    assert.deepEqual(list.accessList, [])
    assert.equal(Number(list.gasUsed), loopGas(listTurns))
    const wall = (performance.now() - started) / 1000
    const after = await scrape(url)

    const delta = (name: string, method: string, sample = name) => value(after, name, { method }, sample) - value(before, name, { method }, sample)
    const expected: Record<(typeof METHODS)[number], number> = {
      eth_call: loopGas(callTurns) + REVERT_GAS,
      eth_simulateV1: simGas[0]! + simGas[1]!,
      eth_estimateGas: exact,
      eth_createAccessList: Number(list.gasUsed),
    }
    const jobs = { eth_call: 2, eth_simulateV1: 1, eth_estimateGas: 1, eth_createAccessList: 1 }
    let seconds = 0
    for (const method of METHODS) {
      assert.equal(delta('flashnode_execution_gas_total', method), expected[method], `${method}: the gas its answers report`)
      const s = delta('flashnode_execution_seconds_total', method)
      assert.ok(s > 0, `${method}: EVM seconds counted`)
      seconds += s
      const count = delta('flashnode_execution_gas_per_second', method, 'flashnode_execution_gas_per_second_count')
      assert.equal(count, jobs[method], `${method}: one histogram observation per job`)
      assert.equal(value(after, 'flashnode_execution_gas_per_second', { method, le: '+Inf' }, 'flashnode_execution_gas_per_second_bucket'), value(after, 'flashnode_execution_gas_per_second', { method }, 'flashnode_execution_gas_per_second_count'))
      if (count === 1) {
        const ratio = delta('flashnode_execution_gas_per_second', method, 'flashnode_execution_gas_per_second_sum')
        const fromCounters = expected[method] / s
        assert.ok(Math.abs(ratio - fromCounters) <= 1e-6 * ratio, `${method}: the job's gas / its EVM seconds (${ratio} vs ${fromCounters})`)
      }
    }
    assert.ok(seconds < wall, `EVM seconds (${seconds}) within the requests' wall time (${wall})`)
    assert.equal(family(after, 'flashnode_execution_gas_total').type, 'counter')
    assert.equal(family(after, 'flashnode_execution_seconds_total').type, 'counter')
    assert.equal(family(after, 'flashnode_execution_gas_per_second').type, 'histogram')
    assert.deepEqual(new Set(family(after, 'flashnode_execution_gas_total').samples.map((s) => s.labels.method)), new Set(METHODS), 'the four methods, no other')
  })
}

function family(families: Families, name: string): Family {
  const f = families.get(name)
  assert.ok(f !== undefined, `${name} is exposed`)
  return f
}

test('an estimate that searches counts every run it makes', async (t) => {
  const { url } = await servedManualNode(t)
  const loop = address(0xf1)
  const turns = 2_345
  const gas = loopGas(turns)
  const before = await scrape(url)
  const estimate = await rpc<string>(url, 'eth_estimateGas', [{ to: loop }, 'latest', { [loop]: { code: loopCode(turns) } }])
  assert.ok(BigInt(estimate) >= BigInt(gas))
  const after = await scrape(url)
  const added = value(after, 'flashnode_execution_gas_total', { method: 'eth_estimateGas' }) - value(before, 'flashnode_execution_gas_total', { method: 'eth_estimateGas' })
  // Every run has at least the loop's gas (the search never goes below it), and uses exactly that.
  assert.equal(added % gas, 0, `runs of ${gas} gas each: ${added}`)
  assert.ok(added / gas >= 2, `the run at the upper bound and the optimistic one at least: ${added / gas} runs`)
  assert.equal(value(after, 'flashnode_execution_gas_per_second', { method: 'eth_estimateGas' }, 'flashnode_execution_gas_per_second_count'), 1, 'one job, one observation')
})

test('a follower\'s catch-up observes each re-executed block\'s gas per second; an empty block is left out', async (t) => {
  const { node, url } = await servedManualNode(t)
  const transfer = (from: number, nonce: bigint) =>
    rpc(url, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, from, nonce, { to: address(0xaa), value: 1n, gasLimit: 21_000n }).serialize())])
  await transfer(0, 0n)
  await transfer(1, 0n)
  await rpc(url, 'evm_mine') // block 1: two transfers
  await rpc(url, 'evm_mine') // block 2: empty
  await transfer(0, 1n)
  await rpc(url, 'evm_mine') // block 3: one transfer
  const follower = await inProcessFollower(t, node)
  assert.equal(await follower.follower!.catchUp(3n), 3)
  const metrics = parseExposition((await follower.metrics!.exposition()).body)
  assert.equal(value(metrics, 'flashnode_follower_fetched_blocks_total'), 3)
  const name = 'flashnode_follower_block_gas_per_second'
  assert.equal(family(metrics, name).type, 'histogram')
  assert.equal(value(metrics, name, {}, `${name}_count`), 2, 'the two blocks with gas')
  assert.ok(value(metrics, name, {}, `${name}_sum`) > 0)
})
