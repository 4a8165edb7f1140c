/**
 * The follower against a real sequencing node, in-process: the sequencer (manual sealing) runs a mixed load
 * (a deployment whose constructor writes storage, a contract emitting a log and writing storage, plain
 * transfers); its stream's messages are handed to a follower node one by one. After every message the
 * follower's `pending` answers as the sequencer's did at that point; after every seal both hold the same
 * block (hash, receipts, state). A forged state diff, or a sealed header whose gas used is not its receipts',
 * is caught at the seal and the block refetched; a missed message is reported for resuming; a follower that
 * joins late catches up on sealed blocks; messages of a block it already holds are skipped; its `pending`
 * answers `latest` once its newest flashblock is older than its age limit (on an injected clock).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { RLP } from '@ethereumjs/rlp'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../node/create-node.ts'
import { bigIntToMinimalBytes, bytesToBigInt, bytesToHex, hexToBytes, type Hex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { keys, signFields } from '../txpool/test-kit.ts'
import type { SealedBlockSource } from './follower.ts'
import { manualNode, rpc } from '../../test/support/sequencing-node.ts'
import { ACCOUNTS, signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { initCode, STORE_TWO_CONSTRUCTOR } from '../../test/support/contracts.ts'

/** Emits LOG1(0xaa.., topic 0x77) and writes callvalue+1 to slot 2. */
const LOGGER_RUNTIME = '60aa600052' + '607760206000a1' + '3460010160025500'
const RECEIVER = `0x${'77'.repeat(20)}`
/** A header's gasUsed, in its RLP list (parentHash, ommersHash, coinbase, stateRoot, txRoot, receiptRoot, bloom, difficulty, number, gasLimit, gasUsed, …). */
const HEADER_GAS_USED = 10

/** The sequencer's sealed chain, read from its database (what debug_getRawBlock answers over RPC). */
function sealedOf(sequencer: FlashNode): SealedBlockSource {
  return {
    blocks: async (from, to) => {
      // An empty span is answered empty: a catch-up asking for one would ask again forever (without I/O in
      // between, starving even the test's timeout), so it fails here instead.
      assert.ok(from <= to, `asked for blocks ${from}..${to}, an empty span: the catch-up went past its target`)
      const out: Uint8Array[] = []
      for (let n = from; n <= to; n++) out.push(sequencer.chain.store.blockRlp(n)!)
      return out
    },
  }
}

/** A follower of `sequencer` fed by hand; `workers`: its sender checks and seal roots on worker threads (loaded). */
async function followerOf(t: TestContext, sequencer: FlashNode, workers = false): Promise<FlashNode> {
  const threads = workers ? { recoveryWorkers: 1, sealHashingWorker: true } : {}
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, ...threads, dataDir: tempDir(t), genesis: testGenesis(), follow: { sealed: sealedOf(sequencer), maxAgeMs: 600_000 } })
  t.after(() => node.close())
  if (workers) await node.start()
  return node
}

/** The sequencer's stream messages not handed out yet, as a subscriber parses them. */
function newMessages(sequencer: FlashNode, after: { sequence: number }): unknown[] {
  sequencer.stream!.flush()
  const out = sequencer.stream!.messages().filter((m) => m.sequence > after.sequence)
  if (out.length > 0) after.sequence = out.at(-1)!.sequence
  return out.map((m) => JSON.parse(m.json.toString('utf8')) as unknown)
}

const send = async (node: FlashNode, from: number, nonce: bigint, fields: Parameters<typeof signedTx>[3]): Promise<Hex> =>
  rpc(node, 'eth_sendRawTransaction', [bytesToHex(signedTx(node, from, nonce, fields).serialize())])

/** What `pending` and a block id answer on a node: the figures a client reads. */
async function view(node: FlashNode, id: string, addresses: readonly string[], txs: readonly Hex[]): Promise<unknown> {
  const out: Record<string, unknown> = { block: await rpc(node, 'eth_getBlockByNumber', [id, true]) }
  for (const a of addresses) {
    out[`${a} balance`] = await rpc(node, 'eth_getBalance', [a, id])
    out[`${a} nonce`] = await rpc(node, 'eth_getTransactionCount', [a, id])
    out[`${a} code`] = await rpc(node, 'eth_getCode', [a, id])
    for (const slot of ['0x0', '0x1', '0x2']) out[`${a} ${slot}`] = await rpc(node, 'eth_getStorageAt', [a, slot, id])
  }
  out['receipts'] = await rpc(node, 'eth_getBlockReceipts', [id])
  for (const h of txs) out[`receipt ${h}`] = await rpc(node, 'eth_getTransactionReceipt', [h])
  return out
}

test('a follower fed the stream answers pending and every sealed block as the sequencer does', { timeout: 120_000 }, async (t) => {
  const sequencer = await manualNode(t)
  const follower = await followerOf(t, sequencer)
  const cursor = { sequence: -1 }
  const sent: Hex[] = []
  const addresses: string[] = [RECEIVER]
  const outcomes: unknown[] = []
  const mismatches: string[] = []
  t.after(follower.follower!.observe({ sealMismatch: (e) => mismatches.push(e.field) }))
  /** Hands the new messages over one at a time; after each, pending must match the sequencer's. */
  const relay = async () => {
    for (const m of newMessages(sequencer, cursor)) outcomes.push(await follower.follower!.receive(m))
    assert.deepEqual(await view(follower, 'pending', addresses, sent), await view(sequencer, 'pending', addresses, sent))
    assert.deepEqual(follower.status().open, sequencer.status().open, 'the live view shows the same open block')
  }
  await relay()
  const deploy = await send(sequencer, 0, 0n, { data: initCode(STORE_TWO_CONSTRUCTOR, LOGGER_RUNTIME), gasLimit: 300_000n })
  sent.push(deploy, await send(sequencer, 1, 0n, { to: RECEIVER, value: 7n, gasLimit: 21_000n }))
  await sequencer.sequencer!.flashblock()
  const logger = (await rpc(sequencer, 'eth_getTransactionReceipt', [deploy])).contractAddress as string
  addresses.push(logger, ACCOUNTS[0]!.address)
  await relay()
  for (let i = 0; i < 3; i++) {
    sent.push(await send(sequencer, 2, BigInt(i), { to: logger, value: BigInt(i + 1), gasLimit: 100_000n }))
    sent.push(await send(sequencer, 3, BigInt(i), { to: RECEIVER, value: 1n, gasLimit: 21_000n }))
    await sequencer.sequencer!.flashblock()
    await relay()
    if (i === 1) {
      await sequencer.sequencer!.seal()
      await relay()
    }
  }
  await sequencer.sequencer!.seal()
  await relay()
  assert.ok(outcomes.filter((o) => o === 'sealed').length >= 2, 'blocks sealed on the follower from the stream')
  assert.ok(!outcomes.includes('skipped'), 'nothing skipped')
  assert.deepEqual(mismatches, [], 'every seal checked out (roots computed as the messages came), none refetched')
  const head = sequencer.chain.head()
  assert.equal(follower.chain.head(), head)
  for (let n = 1n; n <= head; n++) {
    const id = `0x${n.toString(16)}`
    assert.deepEqual(await view(follower, id, addresses, []), await view(sequencer, id, addresses, []), `block ${n}`)
  }
})

/** A sequencer that sealed one transfer in block 1, a follower of it fed nothing yet, and the stream's messages so far. */
async function oneSealedTransfer(t: TestContext, workers = false): Promise<{ sequencer: FlashNode; follower: FlashNode; messages: unknown[] }> {
  const sequencer = await manualNode(t)
  const follower = await followerOf(t, sequencer, workers)
  await send(sequencer, 1, 0n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  await sequencer.sequencer!.seal()
  return { sequencer, follower, messages: newMessages(sequencer, { sequence: -1 }) }
}

/** A sequencer with two blocks of transfers sealed and a third open with one flashblock. */
async function busySequencer(t: TestContext): Promise<FlashNode> {
  const sequencer = await manualNode(t)
  for (let b = 0; b < 2; b++) {
    await send(sequencer, 1, BigInt(b), { to: RECEIVER, value: 5n, gasLimit: 21_000n })
    await sequencer.sequencer!.flashblock()
    await sequencer.sequencer!.seal()
  }
  await send(sequencer, 1, 2n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  return sequencer
}

test('a forged state diff is caught at the seal, never served as sealed, and the block is fetched from the sequencer', { timeout: 120_000 }, async (t) => {
  const { sequencer, follower, messages: all } = await oneSealedTransfer(t)
  const messages = all as { diff: { transactions: unknown[] }; metadata: { state_diff: { accounts: Record<string, { balance: string }> } } }[]
  const forged = messages.find((m) => m.diff.transactions.length > 0)!
  forged.metadata.state_diff.accounts[RECEIVER]!.balance = '0xdeadbeef'
  const mismatches: string[] = []
  const restore = follower.follower!.observe({ sealMismatch: (e) => mismatches.push(e.field) })
  t.after(restore)
  for (const m of messages) await follower.follower!.receive(m)
  assert.equal(await rpc(follower, 'eth_getBalance', [RECEIVER, 'pending']), await rpc(sequencer, 'eth_getBalance', [RECEIVER, 'latest']), 'pending fell back to latest')
  assert.deepEqual(mismatches, ['stateRoot'])
  assert.equal(follower.chain.head(), 1n)
  assert.equal(await rpc(follower, 'eth_getBalance', [RECEIVER, '0x1']), '0x5', 'the sealed block as the sequencer sealed it')
  assert.deepEqual(await rpc(follower, 'eth_getBlockByNumber', ['0x1', true]), await rpc(sequencer, 'eth_getBlockByNumber', ['0x1', true]))
})

test('duplicates are ignored, a missed message asks to resume, and a late follower catches up on sealed blocks', { timeout: 120_000 }, async (t) => {
  const sequencer = await busySequencer(t)
  const messages = newMessages(sequencer, { sequence: -1 }) as { index: number; metadata: { sequence: number; block_number: number } }[]
  const late = await followerOf(t, sequencer)
  // The kept messages start at block 1's opening; hand over only block 3's (the open one).
  const open = messages.filter((m) => m.metadata.block_number === 3)
  assert.equal(open[0]!.index, 0)
  assert.equal(await late.follower!.receive(open[0]), 'applied')
  assert.equal(late.chain.head(), 2n, 'blocks 1 and 2 fetched before block 3 opened')
  assert.equal(await late.follower!.receive(open[0]), 'duplicate')
  assert.equal(await late.follower!.receive(open[1]), 'applied')
  assert.deepEqual(await view(late, 'pending', [RECEIVER], []), await view(sequencer, 'pending', [RECEIVER], []))
  await send(sequencer, 1, 3n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  await sequencer.sequencer!.flashblock()
  const more = newMessages(sequencer, { sequence: open[1]!.metadata.sequence })
  assert.equal(more.length, 2)
  assert.deepEqual(await late.follower!.receive(more[1]), { resume: open[1]!.metadata.sequence }, 'one message missed: resume after the last one handled')
  assert.equal(await late.follower!.receive(more[0]), 'applied')
  assert.equal(await late.follower!.receive(more[1]), 'applied')
  assert.deepEqual(await view(late, 'pending', [RECEIVER], []), await view(sequencer, 'pending', [RECEIVER], []))
})

test('eth_syncing tells the truth while a follower catches up', { timeout: 120_000 }, async (t) => {
  const sequencer = await busySequencer(t)
  const open = (newMessages(sequencer, { sequence: -1 }) as { metadata: { block_number: number } }[]).filter((m) => m.metadata.block_number === 3)
  let release: () => void = () => undefined
  const gate = new Promise<void>((r) => (release = r))
  const direct = sealedOf(sequencer)
  const gated: SealedBlockSource = { blocks: async (from, to) => (await gate, direct.blocks(from, to)) }
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis: testGenesis(), follow: { sealed: gated, maxAgeMs: 600_000, maxBlocksBehind: 1n } })
  t.after(() => node.close())
  assert.equal(await rpc(node, 'eth_syncing', []), false)
  const applied = node.follower!.receive(open[0])
  await new Promise((r) => setImmediate(r))
  assert.deepEqual(await rpc(node, 'eth_syncing', []), { startingBlock: '0x0', currentBlock: '0x0', highestBlock: '0x2' })
  assert.deepEqual(node.readiness(), { ready: false, reason: '2 blocks behind the sequencer (limit 1): catching up' })
  release()
  assert.equal(await applied, 'applied')
  assert.equal(await rpc(node, 'eth_syncing', []), false)
  assert.equal(node.readiness().ready, true)
})

test('a hole nobody can fill: after rejoin the next message is taken afresh and its block fetched sealed at the closing', { timeout: 120_000 }, async (t) => {
  const sequencer = await busySequencer(t)
  const follower = await followerOf(t, sequencer)
  const cursor = { sequence: -1 }
  const messages = newMessages(sequencer, cursor) as { metadata: { sequence: number; block_number: number } }[]
  for (const m of messages) await follower.follower!.receive(m)
  const last = messages.at(-1)!.metadata.sequence
  assert.equal(follower.follower!.sequence, last)
  // Two flashblocks and the seal; the first flashblock's message is lost for good.
  await send(sequencer, 1, 3n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  await send(sequencer, 1, 4n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  await sequencer.sequencer!.seal()
  const fresh = newMessages(sequencer, cursor) as { metadata: { block_number: number }; diff: { block_hash: string } }[]
  const [, second, ...more] = fresh
  assert.deepEqual(await follower.follower!.receive(second), { resume: last })
  assert.deepEqual(await follower.follower!.receive(second), { resume: last }, 'still a hole: asked again')
  follower.follower!.rejoin()
  assert.equal(await follower.follower!.receive(second), 'skipped', 'taken afresh: mid-block, not applied')
  const sealedAt = more.findIndex((m) => !/^0x0+$/.test(m.diff.block_hash))
  for (const m of more.slice(0, sealedAt)) assert.equal(await follower.follower!.receive(m), 'skipped')
  assert.equal(await follower.follower!.receive(more[sealedAt]), 'sealed', 'the block fetched sealed at its closing')
  const rest = more.slice(sealedAt + 1)
  assert.ok(rest.length > 0 && rest.every((m) => m.metadata.block_number === fresh[0]!.metadata.block_number + 1))
  assert.equal(follower.chain.head(), sequencer.chain.head())
  assert.deepEqual(await view(follower, 'latest', [RECEIVER], []), await view(sequencer, 'latest', [RECEIVER], []))
  for (const m of rest) assert.equal(await follower.follower!.receive(m), 'applied', 'the next block followed from its opening')
  assert.deepEqual(await view(follower, 'pending', [RECEIVER], []), await view(sequencer, 'pending', [RECEIVER], []))
})

for (const workers of [false, true]) {
  test(`a receipt naming another sender is caught at the seal (the signature is recovered${workers ? ' on a worker thread' : ''}), and the block fetched instead`, { timeout: 120_000 }, async (t) => {
    const { sequencer, follower, messages: all } = await oneSealedTransfer(t, workers)
    const messages = all as { diff: { transactions: unknown[] }; metadata: { receipts: Record<string, { from: string }> } }[]
    const forged = messages.find((m) => m.diff.transactions.length > 0)!
    for (const r of Object.values(forged.metadata.receipts)) r.from = ACCOUNTS[2]!.address
    const mismatches: string[] = []
    t.after(follower.follower!.observe({ sealMismatch: (e) => mismatches.push(e.field) }))
    for (const m of messages) await follower.follower!.receive(m)
    assert.equal(mismatches.length, 1)
    assert.match(mismatches[0]!, /^sender of 0x/)
    assert.deepEqual(await rpc(follower, 'eth_getBlockByNumber', ['0x1', true]), await rpc(sequencer, 'eth_getBlockByNumber', ['0x1', true]))
  })
}

test('a transaction signed for another chain does not fit the block: its flashblock is skipped, the block fetched sealed', { timeout: 120_000 }, async (t) => {
  const { sequencer, follower, messages: all } = await oneSealedTransfer(t)
  const messages = all as { diff: { transactions: string[] }; metadata: { receipts: Record<string, unknown> } }[]
  const forged = messages.find((m) => m.diff.transactions.length > 0)!
  const receipt = Object.values(forged.metadata.receipts)[0]!
  const otherChain = 999n
  const raw = signFields(2, [otherChain, 0n, 10n ** 9n, 10n ** 10n, 21_000n, hexToBytes(RECEIVER as Hex), 5n, new Uint8Array(), []], keys[0]!, otherChain)
  forged.diff.transactions = [bytesToHex(raw)]
  forged.metadata.receipts = { [bytesToHex(keccak256(raw))]: receipt }
  const outcomes = []
  for (const m of messages) outcomes.push(await follower.follower!.receive(m))
  assert.equal(outcomes[messages.indexOf(forged)], 'skipped')
  assert.equal(follower.chain.head(), 1n)
  assert.deepEqual(await rpc(follower, 'eth_getBlockByNumber', ['0x1', true]), await rpc(sequencer, 'eth_getBlockByNumber', ['0x1', true]))
})

test('a sealed header whose gasUsed is not what its receipts add up to is caught at the seal, and the block fetched from the sequencer', { timeout: 120_000 }, async (t) => {
  const { sequencer, follower, messages: all } = await oneSealedTransfer(t)
  const messages = all as { diff: { block_hash: string }; metadata: { block_number: number; sealed_header?: Hex } }[]
  const first = messages.filter((m) => m.metadata.block_number === 1)
  const closing = first.at(-1)!
  assert.ok(closing.metadata.sealed_header !== undefined, "block 1's messages end with its closing")
  // The header with one more gas used, re-hashed: everything else in the message agrees with it.
  const fields = RLP.decode(hexToBytes(closing.metadata.sealed_header!)) as Uint8Array[]
  fields[HEADER_GAS_USED] = bigIntToMinimalBytes(bytesToBigInt(fields[HEADER_GAS_USED]!) + 1n)
  const forged = RLP.encode(fields)
  closing.metadata.sealed_header = bytesToHex(forged)
  closing.diff.block_hash = bytesToHex(keccak256(forged))
  const mismatches: string[] = []
  t.after(follower.follower!.observe({ sealMismatch: (e) => mismatches.push(e.field) }))
  for (const m of first) await follower.follower!.receive(m)
  assert.deepEqual(mismatches, ['gasUsed'], "the header's gas used is checked against the receipts'")
  assert.equal(follower.chain.head(), 1n)
  assert.deepEqual(await rpc(follower, 'eth_getBlockByNumber', ['0x1', true]), await rpc(sequencer, 'eth_getBlockByNumber', ['0x1', true]), 'the block as the sequencer sealed it')
  for (const m of messages.slice(first.length)) assert.equal(await follower.follower!.receive(m), 'applied', 'the next block builds on it')
})

test('messages of the block that is already the head are skipped, its opening included; the next block is followed from its opening', { timeout: 120_000 }, async (t) => {
  const { sequencer, follower, messages: all } = await oneSealedTransfer(t)
  const messages = all as { index: number; metadata: { block_number: number; sealed_header?: string } }[]
  const first = messages.filter((m) => m.metadata.block_number === 1)
  const next = messages.filter((m) => m.metadata.block_number === 2)
  assert.equal(first[0]!.index, 0)
  assert.ok(first.at(-1)!.metadata.sealed_header !== undefined, "block 1's messages end with its closing")
  assert.equal(next[0]?.index, 0, "block 2's opening follows")
  // Joined at block 1's closing: the block is fetched sealed. Then, taken afresh (a rejoin), block 1's messages come again.
  assert.equal(await follower.follower!.receive(first.at(-1)), 'sealed')
  assert.equal(follower.chain.head(), 1n)
  follower.follower!.rejoin()
  const outcomes = []
  for (const m of first) outcomes.push(await follower.follower!.receive(m).catch((e: Error) => `threw ${e.message}`))
  assert.deepEqual(outcomes, first.map(() => 'skipped'), 'block 1 is the head: each of its messages is skipped, its opening (index 0) first')
  assert.equal(follower.chain.head(), 1n)
  for (const m of next) assert.equal(await follower.follower!.receive(m), 'applied')
  assert.deepEqual(await view(follower, 'pending', [RECEIVER], []), await view(sequencer, 'pending', [RECEIVER], []))
})

test('a follower whose stream went quiet answers pending as latest past its age limit, and is not ready, saying so', { timeout: 120_000 }, async (t) => {
  const sequencer = await manualNode(t)
  await send(sequencer, 1, 0n, { to: RECEIVER, value: 5n, gasLimit: 21_000n })
  await sequencer.sequencer!.flashblock()
  const messages = newMessages(sequencer, { sequence: -1 })
  const preconfirmed = await rpc(sequencer, 'eth_getBalance', [RECEIVER, 'pending'])
  const sealed = await rpc(sequencer, 'eth_getBalance', [RECEIVER, 'latest'])
  assert.notEqual(preconfirmed, sealed)
  // The limit: --ready-max-age (maxAgeMs) when given; else five of the default flashblock intervals, at least one second.
  for (const maxAgeMs of [undefined, 2_500]) {
    let now = 1_000_000
    const node = await createNode({
      ...DEFAULT_NODE_SETTINGS,
      dataDir: tempDir(t),
      genesis: testGenesis(),
      follow: { sealed: sealedOf(sequencer), now: () => now, ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) },
    })
    t.after(() => node.close())
    for (const m of messages) await node.follower!.receive(m)
    const limit = maxAgeMs ?? Math.max(1_000, 5 * DEFAULT_SEQUENCER.flashblockIntervalMs)
    const at = `limit ${limit} ms${maxAgeMs === undefined ? ' (the default)' : ''}`
    now += limit
    assert.equal(await rpc(node, 'eth_getBalance', [RECEIVER, 'pending']), preconfirmed, `${limit} ms after the newest flashblock, ${at}: pending is pre-confirmed`)
    assert.equal(node.readiness().ready, true, `${limit} ms, ${at}: ${node.readiness().reason}`)
    now += 1
    assert.equal(await rpc(node, 'eth_getBalance', [RECEIVER, 'pending']), sealed, `${limit + 1} ms after the newest flashblock, ${at}: pending answers latest, not a frozen block`)
    const stale = node.readiness()
    assert.equal(stale.ready, false, `${limit + 1} ms, ${at}: ${stale.reason}`)
    assert.match(stale.reason, new RegExp(`\\b${limit + 1} ms old \\(limit ${limit} ms\\)`), 'the reason names the age and the limit')
  }
})
