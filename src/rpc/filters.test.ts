/**
 * Polling filters' bookkeeping against a node double whose events the test emits: what each kind buffers and
 * answers once, geth's range checks and errors, the 5-minute timeout (an injected clock), eviction of the
 * filter polled least recently, and the buffer bound.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { LocatedLog, NodeListener, PendingTransactionEvent, SealedBlockEvent } from '../node/api.ts'
import type { HeaderView, TransactionView } from '../chain/types.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { fakeNode } from './methods/fake-node.ts'
import { filterMethods, type FilterOptions } from './filters.ts'

const ctx = { signal: new AbortController().signal, endpoint: 'test' }
const h32 = (b: number) => new Uint8Array(32).fill(b)
const ADDR = new Uint8Array(20).fill(0xab)

function harness(opts: FilterOptions = {}) {
  const listeners = new Set<NodeListener>()
  const { node, calls } = fakeNode({
    subscribe: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  })
  let time = 1_000_000
  const m = filterMethods(node, { now: () => time, ...opts })
  const call = (method: string, params: unknown[] = []) => m[method]!(params, ctx)
  const pendingTx = (b: number): PendingTransactionEvent => ({
    hash: h32(b),
    transaction: () => ({ hash: h32(b), type: 0, from: ADDR, to: null, nonce: BigInt(b), gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), gasPrice: 7n, v: 27n, r: 1n, s: 2n, serialized: new Uint8Array(0) }) as TransactionView,
  })
  const log = (block: bigint, address = ADDR): LocatedLog => ({
    log: { address, topics: [h32(9)], data: new Uint8Array(0) },
    context: { blockHash: h32(Number(block)), preconfirmed: false, blockNumber: block, blockTimestamp: 1n },
    transactionHash: h32(0x77),
    transactionIndex: 0,
    logIndex: 0,
  })
  const sealed = (n: bigint, logs: LocatedLog[] = []): SealedBlockEvent => ({ header: { hash: h32(Number(n)) } as unknown as HeaderView, logs })
  return {
    call,
    calls,
    listeners,
    advance: (ms: number) => (time += ms),
    announce: (b: number) => listeners.forEach((l) => l.pendingTransaction?.(pendingTx(b))),
    seal: (n: bigint, logs: LocatedLog[] = []) => listeners.forEach((l) => l.block?.(sealed(n, logs))),
    log,
  }
}

const rejectsWith = (p: Promise<unknown>, message: string) =>
  assert.rejects(p, (e: unknown) => e instanceof FlashnodeError && e.message === message)

test('each kind answers what arrived since the last poll, once', async () => {
  const f = harness()
  const pending = (await f.call('eth_newPendingTransactionFilter')) as string
  const full = (await f.call('eth_newPendingTransactionFilter', [true])) as string
  const blocks = (await f.call('eth_newBlockFilter')) as string
  const logs = (await f.call('eth_newFilter', [{ address: bytesToHex(ADDR), fromBlock: '0x2' }])) as string
  f.announce(1)
  f.announce(2)
  f.seal(1n, [f.log(1n)])
  f.seal(2n, [f.log(2n), f.log(2n, new Uint8Array(20))])
  assert.deepEqual(await f.call('eth_getFilterChanges', [pending]), [bytesToHex(h32(1)), bytesToHex(h32(2))])
  assert.deepEqual(await f.call('eth_getFilterChanges', [pending]), [], 'each entry once')
  const txs = (await f.call('eth_getFilterChanges', [full])) as Record<string, unknown>[]
  assert.deepEqual(txs.map((x) => [x.hash, x.nonce, x.blockHash]), [[bytesToHex(h32(1)), '0x1', null], [bytesToHex(h32(2)), '0x2', null]])
  assert.deepEqual(await f.call('eth_getFilterChanges', [blocks]), [bytesToHex(h32(1)), bytesToHex(h32(2))])
  const got = (await f.call('eth_getFilterChanges', [logs])) as Record<string, unknown>[]
  assert.deepEqual(got.map((l) => [l.blockNumber, l.address]), [['0x2', bytesToHex(ADDR)]], 'the range and the address hold')
  assert.equal(await f.call('eth_uninstallFilter', [logs]), true)
  assert.equal(await f.call('eth_uninstallFilter', [logs]), false)
  await rejectsWith(f.call('eth_getFilterChanges', [logs]), 'filter not found')
  await rejectsWith(f.call('eth_getFilterLogs', [blocks]), 'filter not found')
})

test('a log filter\'s range is checked as geth checks it; eth_getFilterLogs runs its criteria', async () => {
  const f = harness()
  await rejectsWith(f.call('eth_newFilter', [{ toBlock: 'pending' }]), 'pending logs are not supported')
  await rejectsWith(f.call('eth_newFilter', [{ fromBlock: 'latest', toBlock: '0x5' }]), 'invalid block range params')
  await rejectsWith(f.call('eth_newFilter', [{ fromBlock: 'safe' }]), 'invalid block range params')
  for (const ok of [{}, { fromBlock: '0x1' }, { fromBlock: '0x1', toBlock: '0x1' }, { fromBlock: 'earliest' }]) {
    assert.match((await f.call('eth_newFilter', [ok])) as string, /^0x[0-9a-f]{32}$/)
  }
  const id = (await f.call('eth_newFilter', [{ fromBlock: '0x3', address: bytesToHex(ADDR) }])) as string
  await f.call('eth_getFilterLogs', [id])
  const last = f.calls.at(-1)!
  assert.equal(last.method, 'getLogs')
  assert.deepEqual((last.args[0] as { fromBlock: unknown }).fromBlock, { kind: 'number', number: 3n })
})

test('a filter not polled for 5 minutes is gone, and stops listening', async () => {
  const f = harness()
  const id = (await f.call('eth_newBlockFilter')) as string
  f.advance(4 * 60_000)
  await f.call('eth_getFilterChanges', [id])
  f.advance(4 * 60_000)
  assert.deepEqual(await f.call('eth_getFilterChanges', [id]), [], 'each poll keeps it alive')
  f.advance(5 * 60_000)
  f.seal(1n)
  assert.equal(f.listeners.size, 0, 'an event reaching an expired filter removes it')
  await rejectsWith(f.call('eth_getFilterChanges', [id]), 'filter not found')
})

test('beyond the filter limit the least recently polled goes; a buffer keeps its newest entries', async () => {
  const f = harness({ maxFilters: 2, maxBuffered: 3 })
  const a = (await f.call('eth_newPendingTransactionFilter')) as string
  f.advance(1)
  const b = (await f.call('eth_newPendingTransactionFilter')) as string
  f.advance(1)
  await f.call('eth_getFilterChanges', [a])
  const c = (await f.call('eth_newPendingTransactionFilter')) as string
  assert.equal(f.listeners.size, 2)
  await rejectsWith(f.call('eth_getFilterChanges', [b]), 'filter not found')
  for (let i = 1; i <= 5; i++) f.announce(i)
  assert.deepEqual(await f.call('eth_getFilterChanges', [c]), [3, 4, 5].map((i) => bytesToHex(h32(i))))
})
