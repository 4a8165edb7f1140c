/**
 * The stream message's JSON text, written directly (message-text.ts through MessageBuilder), is byte for byte
 * what JSON.stringify made of the object tree the builder built before (test/support/reference-message-builder.ts,
 * the old code kept as the reference): for every feed event of real sequencing nodes (Ethereum and OP Stack),
 * replayed through both builders in step, for a takeover's continueAfter/adopt at every point of an open
 * block, and for snapshots made up to reach what the chains here do not produce (deleted accounts, cleared
 * storage, short slot values, blob and deposit receipt fields, quantities past 2^53).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { MessageBuilder, type StreamMessage } from './message-builder.ts'
import { JsonWriter } from './json-writer.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { SealedBlock } from '../preconf/feed.ts'
import type { IncludedTransaction } from '../execution/block-builder.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import type { FlashNode } from '../node/create-node.ts'
import { ReferenceMessageBuilder, type ReferenceMessage } from '../../test/support/reference-message-builder.ts'
import { rpc, unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { signedTx } from '../../test/support/dev-chain.ts'
import { initCode, MARKER_INIT, STORE_TWO_CONSTRUCTOR } from '../../test/support/contracts.ts'
import { opStackCliConfig } from '../../test/support/op-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'

/** Runtime: MSTORE 0xaa · LOG3(1,2,3) of that word · LOG0 of nothing · LOG2(4,5) of the word · STOP. */
const MULTI_LOG_RUNTIME = '60aa600052' + '60036002600160206000a3' + '60006000a0' + '6005600460206000a2' + '00'
/** Runtime: MSTORE · LOG1 · then REVERT (its log is undone). */
const REVERTING_RUNTIME = '60aa600052' + '607760206000a1' + '60006000fd'

type Event = { kind: 'flashblock'; snapshot: PreconfirmedSnapshot } | { kind: 'sealed'; block: SealedBlock }

function record(node: FlashNode): Event[] {
  const events: Event[] = []
  node.feed!.on('flashblock', (snapshot) => events.push({ kind: 'flashblock', snapshot }))
  node.feed!.on('sealed', (block) => events.push({ kind: 'sealed', block }))
  return events
}

/** The new builder and the reference, numbered alike. */
function pair(firstSequence = 7): { built: MessageBuilder; reference: ReferenceMessageBuilder } {
  let a = firstSequence
  let b = firstSequence
  return { built: new MessageBuilder(() => a++), reference: new ReferenceMessageBuilder(() => b++) }
}

function same(message: StreamMessage, expected: ReferenceMessage, what: string): void {
  const text = JSON.stringify(expected.payload)
  assert.equal(message.json.toString('utf8'), text, what)
  assert.ok(message.json.equals(Buffer.from(text, 'utf8')), `${what}: bytes`)
  assert.equal(message.sequence, expected.sequence)
  assert.equal(message.blockNumber, expected.blockNumber)
  assert.equal(message.closing, expected.closing)
}

/** Replays `events` through both builders; returns how many messages were compared. */
function replay(events: readonly Event[], p = pair(), label = ''): number {
  let n = 0
  for (const e of events) {
    if (e.kind === 'flashblock') same(p.built.flashblock(e.snapshot), p.reference.flashblock(e.snapshot), `${label}flashblock ${e.snapshot.header.number}.${e.snapshot.index}`)
    else same(p.built.sealed(e.block), p.reference.sealed(e.block), `${label}closing of ${e.block.header.number}`)
    n++
  }
  return n
}

/**
 * A takeover at every point: builders of a first leader take events[0..cut); a second pair continues after
 * the last sequence with the open block's payload id, adopts that block's snapshots so far, then builds the rest.
 */
function takeovers(events: readonly Event[]): number {
  let compared = 0
  for (let cut = 1; cut < events.length; cut++) {
    const first = pair()
    let lastSequence = 0
    let payloadId: `0x${string}` | undefined
    const open: PreconfirmedSnapshot[] = []
    for (const e of events.slice(0, cut)) {
      const built = e.kind === 'flashblock' ? first.built.flashblock(e.snapshot) : first.built.sealed(e.block)
      const reference = e.kind === 'flashblock' ? first.reference.flashblock(e.snapshot) : first.reference.sealed(e.block)
      same(built, reference, `before the takeover at ${cut}`)
      lastSequence = built.sequence
      payloadId = built.payload.payload_id as `0x${string}`
      if (e.kind === 'sealed') open.length = 0
      else {
        if (e.snapshot.index === 0) open.length = 0
        open.push(e.snapshot)
      }
    }
    const second = pair(lastSequence + 1)
    second.built.continueAfter(lastSequence, open.length > 0 ? payloadId : undefined)
    second.reference.continueAfter(lastSequence, open.length > 0 ? payloadId : undefined)
    for (const s of open) {
      second.built.adopt(s)
      second.reference.adopt(s)
    }
    compared += replay(events.slice(cut), second, `after the takeover at ${cut}: `)
  }
  return compared
}

async function ethereumEvents(t: TestContext): Promise<Event[]> {
  const node = await unstartedManualNode(t)
  const events = record(node)
  await node.start()
  const send = async (from: number, nonce: number, f: Parameters<typeof signedTx>[3] = {}) => {
    await node.api.sendRawTransaction(signedTx(node, from, BigInt(nonce), f).serialize())
  }
  const created = async (i: number): Promise<string> =>
    (await rpc(node, 'eth_getTransactionReceipt', [(await rpc(node, 'eth_getBlockByNumber', ['pending', false])).transactions[i]])).contractAddress
  // Block 1: creations (constructor storage; a constructor that self-destructs), transfers, an empty flashblock.
  await send(0, 0, { data: initCode(STORE_TWO_CONSTRUCTOR, MULTI_LOG_RUNTIME), gasLimit: 300_000n })
  await send(1, 0, { data: initCode('', REVERTING_RUNTIME), gasLimit: 300_000n })
  await send(2, 0, { data: MARKER_INIT, gasLimit: 300_000n })
  await node.sequencer!.flashblock()
  const logger = await created(0)
  const reverter = await created(1)
  await send(3, 0, { to: '0x00000000000000000000000000000000000000aa', value: 5n, gasLimit: 21_000n })
  await node.sequencer!.flashblock()
  await node.sequencer!.flashblock()
  // Calls with several logs and topics, a reverted call, a call out of gas, transfers: two flashblocks.
  await send(0, 1, { to: logger, value: 3n })
  await send(1, 1, { to: reverter })
  await send(2, 1, { to: logger, gasLimit: 22_000n })
  await node.sequencer!.flashblock()
  for (let i = 0; i < 4; i++) await send(3, 1 + i, { to: logger, value: BigInt(i) })
  await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  // Block 2: transactions only in the flashblock the seal makes; block 3: empty.
  await send(0, 2, { to: logger, value: 2n ** 60n })
  await node.sequencer!.seal()
  await node.sequencer!.seal()
  return events
}

async function opEvents(t: TestContext): Promise<Event[]> {
  const op = opStackCliConfig(tempDir(t), { operatorFeeScalar: 1000n, operatorFeeConstant: 7000n })
  const node = await unstartedManualNode(t, { ...(op.sequencer.opL1 !== undefined ? { opL1: op.sequencer.opL1 } : {}) }, tempDir(t), { genesis: op.genesis })
  const events = record(node)
  await node.start()
  await node.api.sendRawTransaction(signedTx(node, 0, 0n, { data: initCode('', MULTI_LOG_RUNTIME), gasLimit: 300_000n }).serialize())
  await node.sequencer!.flashblock()
  const receipt = await rpc(node, 'eth_getTransactionReceipt', [(await rpc(node, 'eth_getBlockByNumber', ['pending', false])).transactions.at(-1)])
  const logger = receipt.contractAddress as string
  // Deposits for block 2: one that logs, one creation, one out of gas.
  const depositor = '0x00000000000000000000000000000000000d0d0d'
  await rpc(node, 'flashnode_sendDeposit', [{ from: depositor, to: logger, mint: '0xde0b6b3a7640000', value: '0x5', gas: '0x30000' }])
  await rpc(node, 'flashnode_sendDeposit', [{ from: depositor, isCreation: true, gas: '0x30000', data: '0x600160005260206000f3' }])
  await rpc(node, 'flashnode_sendDeposit', [{ from: depositor, to: logger, gas: '0x5300' }])
  await node.sequencer!.seal()
  await node.api.sendRawTransaction(signedTx(node, 1, 0n, { to: logger, value: 1n }).serialize())
  await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  return events
}

test('the written text equals JSON.stringify of the reference object for every message of an Ethereum chain, and after a takeover at every point', async (t) => {
  const events = await ethereumEvents(t)
  const messages = events.filter((e) => e.kind === 'flashblock')
  assert.ok(messages.some((e) => e.kind === 'flashblock' && e.snapshot.transactions.slice(e.snapshot.firstNew).some((x) => x.receipt.logs.length >= 3)), 'a receipt with several logs')
  assert.ok(messages.some((e) => e.kind === 'flashblock' && e.snapshot.transactions.slice(e.snapshot.firstNew).some((x) => x.receipt.status === 0)), 'a failed receipt')
  assert.ok(messages.some((e) => e.kind === 'flashblock' && e.snapshot.index > 0 && e.snapshot.firstNew === e.snapshot.transactions.length), 'an empty flashblock')
  // The builder's own receipt blooms are what the new builder ORs in (the reference hashes the logs again).
  assert.ok(messages.some((e) => e.kind === 'flashblock' && e.snapshot.transactions.some((x) => x.receipt.logs.length > 0 && x.logsBloom !== undefined)), 'receipt blooms carried')
  assert.equal(replay(events), events.length)
  assert.ok(takeovers(events) > events.length)
})

test('the same on an OP Stack chain: deposits (logging, creating, out of gas) and their receipts\' deposit fields', async (t) => {
  const events = await opEvents(t)
  const deposits = events.flatMap((e) => (e.kind === 'flashblock' ? e.snapshot.transactions.slice(e.snapshot.firstNew) : [])).filter((x) => x.deposit !== undefined)
  assert.ok(deposits.length >= 5, `deposits streamed (${deposits.length})`)
  assert.ok(deposits.some((d) => d.receipt.depositNonce !== undefined && d.receipt.logs.length > 0 && d.logsBloom !== undefined), 'a deposit with logs and its bloom')
  assert.equal(replay(events), events.length)
  takeovers(events)
})

/** An account of the made-up snapshots. */
const account = (balance: bigint, nonce: bigint): Account => new Account(nonce, balance)

test('made-up snapshots: deleted accounts, cleared storage, short and empty slot values, new code, blob and deposit receipt fields, large quantities', async (t) => {
  const events = await ethereumEvents(t)
  const base = events.find((e): e is Extract<Event, { kind: 'flashblock' }> => e.kind === 'flashblock' && e.snapshot.firstNew < e.snapshot.transactions.length)!.snapshot
  const entry = base.transactions[base.firstNew]!
  // Each its own transaction hash: a block never holds one twice (an object keyed by it would merge them).
  let made = 0
  const receipt = (fields: Partial<ReceiptRecord>): IncludedTransaction => ({
    ...entry,
    tx: entry.tx,
    receipt: { ...entry.receipt, transactionHash: new Uint8Array(32).fill(++made), ...fields },
    logsBloom: undefined,
  })
  const transactions = [
    receipt({ blobGasUsed: 131072n, blobGasPrice: 1n, contractAddress: new Uint8Array(20).fill(0xc0) }),
    receipt({ type: 0x7e, depositNonce: 2n ** 70n, depositReceiptVersion: 1n, status: 0, gasUsed: 0n, effectiveGasPrice: 0n, cumulativeGasUsed: 2n ** 64n - 1n }),
    receipt({ logs: [{ address: new Uint8Array(20), topics: [], data: new Uint8Array(0) }, { address: new Uint8Array(20).fill(1), topics: [new Uint8Array(32), new Uint8Array(32).fill(0xff)], data: new Uint8Array([0, 1, 0x0f, 0x10]) }] }),
  ]
  const diff = {
    accounts: new Map<string, Account | null>([
      ['0x00000000000000000000000000000000000000aa', null],
      ['0x00000000000000000000000000000000000000bb', account(2n ** 200n + 15n, 0n)],
      ['0x00000000000000000000000000000000000000cc', account(0n, 2n ** 53n)],
    ]),
    storage: new Map([
      ['0x00000000000000000000000000000000000000bb', new Map([[`0x${'00'.repeat(31)}01`, new Uint8Array([1])], [`0x${'00'.repeat(32)}`, new Uint8Array(0)], [`0x${'ab'.repeat(32)}`, new Uint8Array(32).fill(0x0a)]])],
      ['0x00000000000000000000000000000000000000dd', new Map()],
    ]),
    wiped: new Set(['0x00000000000000000000000000000000000000bb', '0x00000000000000000000000000000000000000ee']),
    codes: new Map([[`0x${'12'.repeat(32)}`, new Uint8Array([0x60, 0x00, 0x00])]]),
  }
  const opening: PreconfirmedSnapshot = { ...base, index: 0, transactions, firstNew: 0, diff, gasUsed: 2n ** 60n, blobGasUsed: 0n }
  const next: PreconfirmedSnapshot = { ...opening, index: 1, firstNew: transactions.length, diff: { ...diff, accounts: new Map([...diff.accounts, ['0x00000000000000000000000000000000000000ff', account(1n, 1n)]]) } }
  const empty: PreconfirmedSnapshot = { ...opening, index: 0, transactions: [], diff: { accounts: new Map(), storage: new Map(), wiped: new Set(), codes: new Map() } }
  assert.equal(replay([{ kind: 'flashblock', snapshot: opening }, { kind: 'flashblock', snapshot: next }, { kind: 'flashblock', snapshot: empty }]), 3)
})

test('the writer\'s value forms are JSON.stringify\'s of the hex and quantity helpers\' strings', () => {
  const w = new JsonWriter(4)
  const cases: [string, (w: JsonWriter) => void][] = [
    ['"0x0"', (w) => w.quantity(0)],
    ['"0x0"', (w) => w.quantity(0n)],
    ['"0xf"', (w) => w.quantity(15n)],
    ['"0x10"', (w) => w.quantity(16)],
    ['"0x1fffffffffffff"', (w) => w.quantity(2n ** 53n - 1n)],
    ['"0x20000000000000"', (w) => w.quantity(2n ** 53n)],
    [JSON.stringify(`0x${'f'.repeat(64)}`), (w) => w.quantity(2n ** 256n - 1n)],
    ['"0x"', (w) => w.hex(new Uint8Array(0))],
    ['"0x000f10ff"', (w) => w.hex(new Uint8Array([0, 15, 16, 255]))],
    [JSON.stringify(`0x${'00'.repeat(31)}07`), (w) => w.paddedHex(new Uint8Array([7]), 32)],
    ['null', (w) => w.integerOrNull(null)],
    ['12345', (w) => w.integerOrNull(12345)],
  ]
  for (const [expected, write] of cases) {
    write(w.reset())
    assert.equal(w.bytes().toString('latin1'), expected)
  }
  // Growing past the initial size keeps what was written.
  w.reset().hex(new Uint8Array(1000).fill(0xab))
  assert.equal(w.bytes().toString('latin1'), JSON.stringify(`0x${'ab'.repeat(1000)}`))
  assert.throws(() => w.quantity(-1n), RangeError)
  assert.throws(() => w.quantity(2 ** 53), RangeError)
})
