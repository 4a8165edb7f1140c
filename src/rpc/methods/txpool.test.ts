/**
 * The txpool methods over a real pool (txpool/test-kit's signed transactions): geth's shapes with the
 * expectations drawn from what was submitted (checksummed sender keys computed by viem, decimal nonce keys,
 * the submitted fields in each summary line), and the empty pool of a node that has none.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getAddress, keccak256, type Hex } from 'viem'
import { TxPool } from '../../txpool/index.ts'
import { FakeState, GWEI, TO, env, makeKey, transfer } from '../../txpool/test-kit.ts'
import { EMPTY_POOL, poolApi } from '../../node/pool-api.ts'
import { invoke } from './fake-node.ts'
import { txpoolMethods } from './txpool.ts'

const [alice, bob] = [makeKey(0), makeKey(1)]

function setup() {
  const pool = new TxPool({ now: () => 0 })
  const state = new FakeState([alice, bob])
  const raws: Record<string, Uint8Array> = {
    a0: transfer(alice, 0, { value: 7n, gas: 30_000n, feeCap: 3n * GWEI }),
    a1: transfer(alice, 1),
    a3: transfer(alice, 3),
    b0: transfer(bob, 0, { to: '', data: Uint8Array.of(0x60, 0x00), gas: 60_000n, value: 0n }),
  }
  for (const raw of Object.values(raws)) pool.add(raw, state, env())
  const hash = (name: string) => keccak256(raws[name]!)
  return { group: txpoolMethods(poolApi(pool)), hash }
}

const A = () => getAddress(alice.hex as Hex)
const B = () => getAddress(bob.hex as Hex)

test('txpool_status counts executable and gapped transactions as quantities', async () => {
  const { group } = setup()
  assert.deepEqual(await invoke(group, 'txpool_status', []), { pending: '0x3', queued: '0x1' })
})

test('txpool_content: checksummed senders, decimal nonces, pool transactions without a block', async () => {
  const { group, hash } = setup()
  const content = (await invoke(group, 'txpool_content', [])) as Record<string, Record<string, Record<string, Record<string, unknown>>>>
  assert.deepEqual(Object.keys(content.pending!).sort(), [A(), B()].sort())
  assert.deepEqual(Object.keys(content.pending![A()]!), ['0', '1'])
  assert.deepEqual(Object.keys(content.queued!), [A()])
  assert.deepEqual(Object.keys(content.queued![A()]!), ['3'])
  const a0 = content.pending![A()]!['0']!
  assert.equal(a0.hash, hash('a0'))
  assert.equal(a0.from, alice.hex.toLowerCase())
  assert.equal(a0.value, '0x7')
  for (const field of ['blockHash', 'blockNumber', 'transactionIndex']) assert.equal(a0[field], null, field)
  assert.equal(a0.gasPrice, `0x${(3n * GWEI).toString(16)}`, 'a pool transaction prints its fee cap')
  assert.equal(content.pending![B()]!['0']!.to, null)
})

test('txpool_contentFrom: one sender, both lists always present; an unknown sender has empty ones', async () => {
  const { group, hash } = setup()
  const mine = (await invoke(group, 'txpool_contentFrom', [alice.hex])) as Record<string, Record<string, { hash: string }>>
  assert.deepEqual(Object.keys(mine.pending!), ['0', '1'])
  assert.equal(mine.queued!['3']!.hash, hash('a3'))
  assert.deepEqual(await invoke(group, 'txpool_contentFrom', [`0x${'00'.repeat(20)}`]), { pending: {}, queued: {} })
  await assert.rejects(invoke(group, 'txpool_contentFrom', []), /missing value for required argument 0/)
})

test('txpool_inspect: geth\'s summary line, and contract creation without a recipient', async () => {
  const { group } = setup()
  const inspect = (await invoke(group, 'txpool_inspect', [])) as Record<string, Record<string, Record<string, string>>>
  assert.equal(inspect.pending![A()]!['0'], `${getAddress(TO)}: 7 wei + 30000 gas × ${3n * GWEI} wei`)
  assert.equal(inspect.queued![A()]!['3'], `${getAddress(TO)}: 1 wei + 21000 gas × ${2n * GWEI} wei`)
  assert.equal(inspect.pending![B()]!['0'], `contract creation: 0 wei + 60000 gas × ${2n * GWEI} wei`)
})

test('a node without a pool answers an empty one', async () => {
  const group = txpoolMethods(EMPTY_POOL)
  assert.deepEqual(await invoke(group, 'txpool_status', []), { pending: '0x0', queued: '0x0' })
  assert.deepEqual(await invoke(group, 'txpool_content', []), { pending: {}, queued: {} })
  assert.deepEqual(await invoke(group, 'txpool_inspect', []), { pending: {}, queued: {} })
})
