/**
 * The simulator through the node facade on a sequencing dev chain (manual sealing): what a simulated block
 * is made of, checked against blocks the sequencer really sealed, and the contract's defaults.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { BlockHeader } from '@ethereumjs/block'
import type { FlashNode } from '../node/create-node.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { bloomMayContain } from '../primitives/bloom.ts'
import { LATEST, PENDING, type BlockId } from '../primitives/block-id.ts'
import { signedTx } from '../../test/support/dev-chain.ts'
import type { SimBlockInput, SimulatePayload } from './types.ts'
import { replayOf, sequencingNode } from './test-kit.ts'

const addr = (n: number): Uint8Array => hexToBytes(`0xc${n}${'0'.repeat(38)}`)
const RECEIVER = hexToBytes('0x00000000000000000000000000000000000000aa')
/** Returns BALANCE(calldata word 0). */
const BALANCE_OF = hexToBytes('0x6000353160005260206000f3')

const payload = (blocks: SimBlockInput[], o: Partial<SimulatePayload> = {}): SimulatePayload => ({
  blockStateCalls: blocks,
  traceTransfers: false,
  validation: false,
  returnFullTransactions: false,
  ...o,
})

async function failure(p: Promise<unknown>): Promise<FlashnodeError> {
  try {
    await p
  } catch (e) {
    if (e instanceof FlashnodeError) return e
    throw e
  }
  throw new Error('expected a failure')
}

async function sealTransfer(node: FlashNode, nonce: bigint, value: bigint): Promise<BlockHeader> {
  await node.api.sendRawTransaction(signedTx(node, 0, nonce, { to: bytesToHex(RECEIVER), value, gasLimit: 21_000n }).serialize())
  await node.api.mine()
  return node.chain.header(node.chain.head())!
}

test('replaying sealed blocks with validation and real roots gives their headers, state, receipts and gas', async (t) => {
  const node = await sequencingNode(t, { computeStateRoot: true })
  await node.api.mine() // an empty block 1: with no unsigned transaction in it, its simulation is exact
  await sealTransfer(node, 0n, 1_000n)
  const blocks = await node.api.simulateV1(payload([replayOf(node, 1n), replayOf(node, 2n)], { validation: true }), { kind: 'number', number: 0n })
  assert.equal(blocks.length, 2)
  assert.equal(bytesToHex(blocks[0]!.block.header.hash), bytesToHex(node.chain.header(1n)!.hash()), 'the empty block is the sealed one')
  for (const [i, sim] of blocks.entries()) {
    const sealed = node.chain.header(BigInt(i + 1))!
    const h = sim.block.header
    assert.equal(bytesToHex(h.stateRoot), bytesToHex(sealed.stateRoot), `state root of block ${i + 1}`)
    assert.equal(bytesToHex(h.receiptTrie), bytesToHex(sealed.receiptTrie))
    assert.equal(bytesToHex(h.logsBloom), bytesToHex(sealed.logsBloom))
    assert.equal(h.gasUsed, sealed.gasUsed)
    assert.equal(h.baseFeePerGas, sealed.baseFeePerGas, 'validation computes the base fee from the parent')
  }
  assert.equal(blocks[1]!.calls[0]!.status, 1)
  // Unsigned, the transaction hashes differently: only the transaction root may differ.
  assert.notEqual(bytesToHex(blocks[1]!.block.header.transactionsTrie), bytesToHex(node.chain.header(2n)!.transactionsTrie))
})

test('by default the state root is 32 zero bytes and a revert carries the contract\'s -32000 with its data', async (t) => {
  const node = await sequencingNode(t)
  const reverter = addr(1)
  const [sim] = await node.api.simulateV1(
    payload([{ stateOverrides: new Map([[bytesToHex(reverter), { code: hexToBytes('0x60aa6000526001601ffd') }]]), calls: [{ to: reverter }] }]),
    LATEST,
  )
  assert.equal(bytesToHex(sim!.block.header.stateRoot), `0x${'00'.repeat(32)}`)
  assert.equal(sim!.block.header.baseFeePerGas, 0n, 'without validation the base fee is 0')
  const call = sim!.calls[0]!
  assert.equal(call.status, 0)
  assert.equal(bytesToHex(call.returnData), '0x')
  assert.deepEqual({ code: call.error?.code, data: bytesToHex(call.error!.data!) }, { code: -32000, data: '0xaa' })
})

test('pending: the simulation starts after the pre-confirmed block and sees its state', async (t) => {
  const node = await sequencingNode(t)
  await node.api.sendRawTransaction(signedTx(node, 0, 0n, { to: bytesToHex(RECEIVER), value: 4_321n, gasLimit: 21_000n }).serialize())
  await node.api.flashblock()
  const pending = (await node.api.getBlock(PENDING))!
  const query = (block: BlockId) =>
    node.api.simulateV1(
      payload([{ stateOverrides: new Map([[bytesToHex(addr(2)), { code: BALANCE_OF }]]), calls: [{ to: addr(2), data: new Uint8Array([...new Uint8Array(12), ...RECEIVER]) }] }]),
      block,
    )
  const [atPending] = await query(PENDING)
  const [atLatest] = await query(LATEST)
  assert.equal(atPending!.block.header.number, pending.header.number + 1n)
  assert.equal(atPending!.block.header.timestamp, pending.header.timestamp + 12n)
  assert.equal(BigInt(bytesToHex(atPending!.calls[0]!.returnData)), 4_321n)
  assert.equal(BigInt(bytesToHex(atLatest!.calls[0]!.returnData)), 0n)
  assert.equal(atLatest!.block.header.number, pending.header.number, 'latest is the sealed parent')
})

test('traceTransfers: transfers and logs in execution order; a reverted frame drops its logs but not their indexes', async (t) => {
  const node = await sequencingNode(t)
  const [c0, c1, c2, c3, c4] = [addr(0), addr(1), addr(2), addr(3), addr(4)]
  const log = (topic: number) => `600${topic}60006000a1`
  // c1: LOG1(1); CALL c2 with 1 wei; LOG1(2)
  const c1Code = `0x${log(1)}60006000600060006001 73${bytesToHex(c2).slice(2)} 5af150${log(2)}00`.replaceAll(' ', '')
  // c3: LOG1(9); REVERT.   c4: CALL c3; LOG1(3)
  const c3Code = `0x${log(9)}60006000fd`
  const c4Code = `0x600060006000600060007 3${bytesToHex(c3).slice(2)}5af150${log(3)}00`.replaceAll(' ', '')
  const overrides = new Map([
    [bytesToHex(c0), { balance: 10n }],
    [bytesToHex(c1), { code: hexToBytes(c1Code) }],
    [bytesToHex(c3), { code: hexToBytes(c3Code) }],
    [bytesToHex(c4), { code: hexToBytes(c4Code) }],
  ])
  const [sim] = await node.api.simulateV1(
    payload([{ stateOverrides: overrides, calls: [{ from: c0, to: c1, value: 5n }, { from: c0, to: c4 }] }], { traceTransfers: true }),
    LATEST,
  )
  const shown = (i: number) =>
    sim!.calls[i]!.logs.map((l) => `${l.logIndex}:${bytesToHex(l.log.address) === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' ? `T${l.log.data.at(-1)}` : `L${l.log.topics[0]!.at(-1)}`}`)
  assert.deepEqual(shown(0), ['0:T5', '1:L1', '2:T1', '3:L2'])
  assert.deepEqual(shown(1), ['5:L3'], 'index 4 went to the reverted frame\'s log')
  const bloom = sim!.block.header.logsBloom
  assert.ok(bloomMayContain(bloom, c1), 'contract logs are in the bloom')
  assert.ok(!bloomMayContain(bloom, hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')), 'transfer logs are not')
})

test('limits and the time limit answer -38026; without pre-confirmations the method does not exist', async (t) => {
  const node = await sequencingNode(t, { maxBlocks: 2, maxCallsPerBlock: 1, timeoutMs: 200 })
  const call = { to: RECEIVER }
  assert.equal((await failure(node.api.simulateV1(payload([{ calls: [] }, { calls: [] }, { calls: [] }]), LATEST))).code, -38026)
  assert.equal((await failure(node.api.simulateV1(payload([{ calls: [call, call] }]), LATEST))).code, -38026)
  // Seconds of work in little gas (our EVM spends the whole gas budget on a state-reading loop in well under
  // the limit): BLAKE2F calls of 2^15 rounds each; the simulator checks its time limit between calls.
  const timed = await sequencingNode(t, { timeoutMs: 200 })
  const blake2f = { to: hexToBytes('0x0000000000000000000000000000000000000009'), data: hexToBytes(`0x00008000${'00'.repeat(208)}01`) }
  const slow = payload([{ calls: Array.from({ length: 250 }, () => blake2f) }])
  const timeout = await failure(timed.api.simulateV1(slow, LATEST))
  assert.equal(timeout.code, -38026)
  assert.match(timeout.message, /execution aborted \(timeout = 200ms\)/)

  const readOnly = await sequencingNode(t, {}, false)
  assert.equal((await failure(readOnly.api.simulateV1(payload([{ calls: [] }]), LATEST))).kind, 'methodNotFound')
})

test('an unknown block is geth\'s header not found; a contract may send, keeping its code', async (t) => {
  const node = await sequencingNode(t)
  const err = await failure(node.api.simulateV1(payload([{ calls: [] }]), { kind: 'number', number: 99n }))
  assert.equal(err.kind, 'notFound')
  // The sender is a contract that, called by itself, returns its own code size.
  const self = addr(6)
  const code = hexToBytes('0x383360005260206000f3') // CODESIZE CALLER MSTORE(0) ... returns CALLER word
  const [sim] = await node.api.simulateV1(
    payload([{ stateOverrides: new Map([[bytesToHex(self), { code, balance: 1n }]]), calls: [{ from: self, to: self }, { from: self, to: self }] }]),
    LATEST,
  )
  assert.deepEqual(sim!.calls.map((c) => c.status), [1, 1])
  assert.equal(bytesToHex(sim!.calls[1]!.returnData.slice(12)), bytesToHex(self), 'its code still runs in the second call')
})
