/**
 * Tracing through the public interface: a real node (manual sealing: a flashblock or a block when the test
 * says), tracing inline and on an execution worker, and viem's `request` as the client. A transaction is traced while only pre-confirmed (at `pending`) and
 * again once sealed, and the two traces are the same; what each tracer says is checked against what the
 * chain says (the receipt's gas and logs, the counter's storage before and after), never against text
 * written here. Calls are traced at `pending` with state overrides; blocks with every transaction; errors
 * are geth's.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, encodeFunctionData, http, pad, toHex, type Abi, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../support/dev-chain.ts'
import { probeArtifact } from '../support/clients.ts'
import { testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'

const abi = (): Abi => probeArtifact().abi as Abi

interface CallFrame {
  type: string
  from: string
  to: string
  input: string
  gas: string
  gasUsed: string
  output?: string
  error?: string
  logs?: { address: string; topics: string[]; data: string }[]
}

/** A node sealing by hand (a flashblock or a block when the test asks), tracing inline or on an execution worker. */
async function setup(t: TestContext, executionWorkers = 0) {
  const running = await startNode(t, tempDir(t), testGenesis(), {
    executionWorkers,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  await running.node.start()
  const account = privateKeyToAccount(ACCOUNTS[2]!.privateKey as Hex)
  const wallet = createWalletClient({ account, chain: VIEM_DEV_CHAIN, transport: http(running.url, { retryCount: 0 }) })
  const pub = createPublicClient({ chain: VIEM_DEV_CHAIN, transport: http(running.url, { retryCount: 0 }) })
  const rpc = <T>(method: string, params: unknown[]): Promise<T> => pub.request({ method, params } as never) as Promise<T>
  const node = { step: () => rpc('flashnode_flashblock', []), seal: () => rpc('evm_mine', []) }
  const deployHash = await wallet.deployContract({ abi: abi(), bytecode: probeArtifact().bytecode, args: [5n] })
  await node.seal()
  const probe = (await pub.getTransactionReceipt({ hash: deployHash })).contractAddress! as Address
  return { node, account, wallet, pub, rpc, probe }
}

for (const executionWorkers of [0, 1]) {
  test(`debug_traceTransaction: a pre-confirmed transaction traced at pending, and the same trace once sealed (${executionWorkers === 0 ? 'inline' : 'on an execution worker'})`, async (t) => {
    const { node, account, wallet, pub, rpc, probe } = await setup(t, executionWorkers)
    const hash = await wallet.writeContract({ address: probe, abi: abi(), functionName: 'increment' })
    await node.step()
    const receipt = await pub.getTransactionReceipt({ hash })
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } }
    const pending = await rpc<CallFrame>('debug_traceTransaction', [hash, config])
    assert.equal(pending.type, 'CALL')
    assert.equal(pending.from, account.address.toLowerCase())
    assert.equal(pending.to, probe.toLowerCase())
    assert.equal(pending.input, encodeFunctionData({ abi: abi(), functionName: 'increment' }))
    assert.equal(BigInt(pending.gasUsed), receipt.gasUsed, "the top frame's gas is the receipt's")
    assert.deepEqual(
      pending.logs!.map((l) => [l.address, l.topics, l.data]),
      receipt.logs.map((l) => [l.address.toLowerCase(), l.topics, l.data]),
    )
    await node.seal()
    const sealed = await rpc<CallFrame>('debug_traceTransaction', [hash, config])
    assert.deepEqual(sealed, pending)

    // prestateTracer in diff mode: the counter's slot before and after, as the chain holds it.
    const diff = await rpc<{ pre: Record<string, { storage?: Record<string, string> }>; post: Record<string, { storage?: Record<string, string> }> }>(
      'debug_traceTransaction',
      [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }],
    )
    const slot = pad('0x0', { size: 32 })
    const block = receipt.blockNumber
    const before = await pub.getStorageAt({ address: probe, slot, blockNumber: block - 1n })
    const after = await pub.getStorageAt({ address: probe, slot, blockNumber: block })
    assert.equal(diff.pre[probe.toLowerCase()]!.storage![slot], before)
    assert.equal(diff.post[probe.toLowerCase()]!.storage![slot], after)

    // No tracer named: geth's struct logger; its gas is the receipt's, its steps start at the contract's code.
    const logged = await rpc<{ gas: number; failed: boolean; structLogs: { pc: number; op: string; depth: number }[] }>('debug_traceTransaction', [hash])
    assert.equal(BigInt(logged.gas), receipt.gasUsed)
    assert.equal(logged.failed, false)
    assert.deepEqual([logged.structLogs[0]!.pc, logged.structLogs[0]!.depth], [0, 1])
    assert.ok(logged.structLogs.some((s) => s.op === 'SSTORE') && logged.structLogs.some((s) => s.op === 'LOG2'), 'the counter is written and the event logged')
    const limited = await rpc<{ structLogs: { stack?: string[] }[] }>('debug_traceTransaction', [hash, { disableStack: true }])
    assert.ok(limited.structLogs.every((s) => s.stack === undefined))

    // The Parity flat form explorers read: one entry, this transaction at its place.
    const flat = await rpc<{ transactionHash: string; blockNumber: number; transactionPosition: number; type: string }[]>('trace_transaction', [hash])
    assert.deepEqual(flat.map((e) => [e.transactionHash, BigInt(e.blockNumber), e.transactionPosition, e.type]), [[hash, block, receipt.transactionIndex, 'call']])
  })
}

test('debug_traceCall at pending with state overrides; debug_traceBlockByNumber; geth\'s errors', async (t) => {
  const { node, account, wallet, rpc, probe } = await setup(t)
  const data = encodeFunctionData({ abi: abi(), functionName: 'failWithReason' })
  const call = { from: account.address, to: probe, data }
  const reverted = await rpc<CallFrame>('debug_traceCall', [call, 'pending', { tracer: 'callTracer' }])
  assert.equal(reverted.error, 'execution reverted')
  assert.equal(reverted.to, probe.toLowerCase())
  // The counter read back through a traced call sees an override of its slot.
  const read = { from: account.address, to: probe, data: encodeFunctionData({ abi: abi(), functionName: 'counter' }) }
  const value = pad(toHex(12345n), { size: 32 })
  const overridden = await rpc<CallFrame>('debug_traceCall', [read, 'pending', { tracer: 'callTracer', stateOverrides: { [probe]: { stateDiff: { [pad('0x0', { size: 32 })]: value } } } }])
  assert.equal(overridden.output, value)

  const first = await wallet.writeContract({ address: probe, abi: abi(), functionName: 'increment' })
  const second = await wallet.writeContract({ address: probe, abi: abi(), functionName: 'increment' })
  await node.step()
  const traced = await rpc<{ txHash: string; result: CallFrame }[]>('debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }])
  assert.deepEqual(traced.map((e) => e.txHash), [first, second])
  assert.ok(traced.every((e) => e.result.to === probe.toLowerCase()))

  // erc7562Tracer (ERC-4337 bundlers) on a block's transaction: the opcodes the frame used, among them SSTORE.
  const validation = await rpc<{ type: string; usedOpcodes: Record<string, number> }>('debug_traceTransaction', [first, { tracer: 'erc7562Tracer' }])
  assert.equal(validation.type, 'CALL')
  assert.ok(Object.keys(validation.usedOpcodes).length > 0)

  await assert.rejects(rpc('debug_traceTransaction', [first, { tracer: 'noSuchTracer' }]), (e: { code?: number; cause?: { code?: number } }) => (e.cause?.code ?? e.code) === -32602)
  await assert.rejects(rpc('debug_traceTransaction', [pad('0x1234', { size: 32 }), { tracer: 'callTracer' }]), /transaction not found/)
  await assert.rejects(rpc('debug_traceTransaction', [first, { tracer: 'callTracer', timeout: 'soon' }]), /invalid duration/)
})
