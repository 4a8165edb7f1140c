/**
 * viem 2.57, unmodified, against a real node: what its users do every day.
 *
 * - deployContract and waitForTransactionReceipt on a receipt observed pre-confirmed (stepped clock), a
 *   writeContract into the pre-confirmed contract right after and a second one right after that (viem
 *   estimates without naming a block and takes the pending nonce), reads at `pending` and `latest`, the
 *   pending block, and the same receipts with their real hash once sealed; a reverted transaction's receipt;
 * - each kind of revert decoded by viem (ContractFunctionRevertedError) from simulateContract and
 *   estimateContractGas, under the contract's -32000 (message exactly `execution reverted`) and geth's 3;
 * - estimateGas (a plain transfer is 21000) and createAccessList, used by a transaction at exactly its gas;
 * - simulateBlocks twice on one base: the same blocks and call results (the second applies the Prague
 *   system calls the first ran: src/evm/system-call-memo.ts);
 * - over WebSocket: watchPendingTransactions, watchContractEvent, and the flashblock streams through the
 *   transport's own subscribe; over HTTP watchPendingTransactions, watchContractEvent and watchBlocks, which
 *   poll filters (eth_newPendingTransactionFilter, eth_newFilter) and blocks;
 * - on the real clock: deploy, write and wait as a script does, with no stepping;
 * - on an endpoint without pre-confirmations: the receipt is the sealed one, `latest` already has it, and
 *   eth_simulateV1 is not served.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  webSocket,
  type Abi,
  type Hex,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../../support/dev-chain.ts'
import { VIEM_DEV_CHAIN as chain } from '../../support/viem-chain.ts'
import { liveNode, probeArtifact, RECEIVER, steppedNode, trackListeners, within, ZERO_HASH, type ClientNode } from '../../support/clients.ts'

const POLL_MS = 20

function clients(node: ClientNode, key: number) {
  const account = privateKeyToAccount(ACCOUNTS[key]!.privateKey as Hex)
  const transport = http(node.url, { retryCount: 0 })
  return {
    account,
    pub: createPublicClient({ chain, transport, pollingInterval: POLL_MS }) as PublicClient,
    wallet: createWalletClient({ account, chain, transport, pollingInterval: POLL_MS }),
  }
}

const abi = (): Abi => probeArtifact().abi as Abi

async function deploy(c: ReturnType<typeof clients>): Promise<Hex> {
  return c.wallet.deployContract({ abi: abi(), bytecode: probeArtifact().bytecode, args: [5n] })
}

test('viem: deploy and wait on a pre-confirmed receipt, write right after (twice), pending and latest reads, then sealed', async (t) => {
  const node = await steppedNode(t)
  const c = clients(node, 0)
  const deployHash = await deploy(c)
  await node.step()
  const deployed = await c.pub.waitForTransactionReceipt({ hash: deployHash, pollingInterval: POLL_MS })
  assert.equal(deployed.status, 'success')
  assert.equal(deployed.blockHash, ZERO_HASH, 'observed pre-confirmed')
  assert.equal(deployed.blockNumber, (await c.pub.getBlockNumber({ cacheTime: 0 })) + 1n)
  const address = deployed.contractAddress!
  assert.equal(await c.pub.getCode({ address, blockTag: 'latest' }), undefined, 'not sealed yet')
  assert.equal(await c.pub.getCode({ address, blockTag: 'pending' }), probeArtifact().deployedBytecode)
  const tx = await c.pub.getTransaction({ hash: deployHash })
  assert.deepEqual([tx.blockHash, tx.blockNumber, tx.transactionIndex], [ZERO_HASH, deployed.blockNumber, 0])

  const first = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
  const second = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
  await node.step()
  for (const hash of [first, second]) {
    const r = await c.pub.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
    assert.equal(r.status, 'success', 'estimated against the pre-confirmed contract')
    assert.equal(r.blockHash, ZERO_HASH)
    assert.deepEqual(r.logs.map((l) => [l.address, l.blockHash, l.blockNumber]), [[address, ZERO_HASH, deployed.blockNumber]])
  }
  assert.equal(await c.pub.readContract({ address, abi: abi(), functionName: 'counter', blockTag: 'pending' }), 7n)
  const pendingBlock = await c.pub.getBlock({ blockTag: 'pending', includeTransactions: true })
  assert.equal(pendingBlock.hash, null)
  assert.equal(pendingBlock.number, deployed.blockNumber)
  assert.deepEqual(pendingBlock.transactions.map((x) => [x.hash, x.blockHash]), [deployHash, first, second].map((h) => [h, ZERO_HASH]))

  await node.seal()
  const sealed = await c.pub.getTransactionReceipt({ hash: first })
  const block = await c.pub.getBlock({ blockNumber: sealed.blockNumber })
  assert.equal(sealed.blockHash, block.hash)
  assert.equal(sealed.logs[0]!.blockHash, block.hash)
  assert.equal(await c.pub.readContract({ address, abi: abi(), functionName: 'counter', blockTag: 'latest' }), 7n)
})

test('viem: a reverted transaction\'s receipt, observed pre-confirmed', async (t) => {
  const node = await steppedNode(t)
  const c = clients(node, 1)
  const deployHash = await deploy(c)
  await node.step()
  const address = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
  const hash = await c.wallet.writeContract({ address, abi: abi(), functionName: 'failWithReason', gas: 100_000n })
  await node.step()
  const r = await c.pub.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
  assert.deepEqual([r.status, r.blockHash], ['reverted', ZERO_HASH])
})

for (const revertCode of [-32000, 3]) {
  test(`viem: reverts decode as ContractFunctionRevertedError (Error(string), Panic(uint256), a custom error) with revert code ${revertCode}`, async (t) => {
    const node = await steppedNode(t, revertCode)
    const c = clients(node, 2)
    const deployHash = await deploy(c)
    await node.step()
    const address = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
    const decoded = async (run: () => Promise<unknown>): Promise<ContractFunctionRevertedError> => {
      try {
        await run()
      } catch (e) {
        const reverted = (e as BaseError).walk((x) => x instanceof ContractFunctionRevertedError)
        assert.ok(reverted instanceof ContractFunctionRevertedError, `not decoded: ${(e as Error).message}`)
        return reverted
      }
      assert.fail('did not revert')
    }
    for (const functionName of ['failWithReason', 'failWithPanic', 'failWithCustom'] as const) {
      const args = functionName === 'failWithPanic' ? [0n] : []
      const call = { address, abi: abi(), functionName, args, account: c.account } as const
      // The contract is pre-confirmed: simulate at pending (eth_call keeps geth's default, latest); the gas
      // estimate names no block, as viem sends it, and runs at pending.
      const simulated = await decoded(() => c.pub.simulateContract({ ...call, blockTag: 'pending' }))
      for (const r of [simulated, await decoded(() => c.pub.estimateContractGas(call))]) {
        if (functionName === 'failWithReason') {
          assert.equal(r.reason, 'probe: refused')
          assert.deepEqual([r.data?.errorName, r.data?.args], ['Error', ['probe: refused']])
        } else if (functionName === 'failWithPanic') {
          assert.deepEqual([r.data?.errorName, r.data?.args], ['Panic', [0x12n]])
        } else {
          assert.deepEqual([r.data?.errorName, r.data?.args], ['Unauthorized', [c.account.address, 42n]])
        }
      }
    }
  })
}

test('viem: estimateGas and createAccessList; the transaction uses exactly the gas the access list reported', async (t) => {
  const node = await steppedNode(t)
  const c = clients(node, 3)
  assert.equal(await c.pub.estimateGas({ account: c.account, to: RECEIVER, value: 1n }), 21_000n)
  const deployHash = await deploy(c)
  await node.step()
  const address = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
  const data = encodeFunctionData({ abi: abi(), functionName: 'increment' })
  const { accessList, gasUsed } = await c.pub.createAccessList({ account: c.account, to: address, data, blockTag: 'pending' })
  assert.deepEqual(accessList, [{ address: address.toLowerCase(), storageKeys: [ZERO_HASH] }])
  const hash = await c.wallet.sendTransaction({ to: address, data, accessList, gas: gasUsed + 10_000n })
  await node.step()
  const r = await c.pub.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
  assert.equal(r.status, 'success')
  assert.equal(r.gasUsed, gasUsed)
})

test('viem: simulateBlocks asked twice on one base answers the same blocks and calls (the second applies the system calls the first ran)', async (t) => {
  const node = await steppedNode(t)
  const c = clients(node, 3)
  const data = encodeFunctionData({ abi: abi(), functionName: 'increment' })
  const deployHash = await deploy(c)
  await node.seal()
  const address = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
  const blocks = [
    { calls: [{ account: c.account.address, to: RECEIVER, value: 1n }, { account: c.account.address, to: address, data }] },
    { calls: [{ account: c.account.address, to: address, data }] },
  ]
  const first = await c.pub.simulateBlocks({ blocks, blockTag: 'latest' })
  const second = await c.pub.simulateBlocks({ blocks, blockTag: 'latest' })
  assert.equal(first.length, 2)
  assert.deepEqual(first.flatMap((b) => b.calls.map((call) => call.status)), ['success', 'success', 'success'])
  assert.deepEqual(second, first)
})

test('viem over WebSocket: watchPendingTransactions, watchContractEvent and the flashblock streams', async (t) => {
  const node = await steppedNode(t)
  const c = clients(node, 0)
  const transport = webSocket(node.ws, { retryCount: 0 })
  const ws = createPublicClient({ chain, transport })
  t.after(async () => (await ws.transport.getRpcClient()).close())
  const deployHash = await deploy(c)
  await node.step()
  const address = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!

  const pending: Hex[] = []
  const events: { args: unknown; blockHash: Hex | null }[] = []
  const flashblocks: { transactions: { hash: Hex }[] }[] = []
  const preconfirmed: { hash: Hex; blockHash: Hex; status: Hex }[] = []
  const pendingLogs: { transactionHash: Hex; blockHash: Hex }[] = []
  const stops = [
    ws.watchPendingTransactions({ onTransactions: (hashes) => pending.push(...hashes) }),
    ws.watchContractEvent({ address, abi: abi(), eventName: 'Incremented', onLogs: (logs) => events.push(...logs.map((l) => ({ args: (l as unknown as { args: unknown }).args, blockHash: l.blockHash }))) }),
  ]
  // The transport's own subscribe, typed for the standard kinds only: the flashblock kinds go through as is.
  const subscribe = <T>(params: unknown[], into: T[]) =>
    ws.transport.subscribe({ params: params as never, onData: (d: { result?: unknown }) => into.push(d.result as T) })
  const subscriptions = await Promise.all([
    subscribe(['newFlashblocks'], flashblocks),
    subscribe(['newFlashblockTransactions', true], preconfirmed),
    subscribe(['pendingLogs', { address }], pendingLogs),
  ])
  // A round trip on the same socket: every notification sent before its answer has arrived.
  const roundTrip = () => ws.request({ method: 'web3_clientVersion' })
  await roundTrip()

  const hash = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
  await roundTrip()
  assert.deepEqual(pending, [hash], 'announced when it entered the pool')
  await node.step()
  await roundTrip()
  assert.deepEqual(preconfirmed.map((x) => [x.hash, x.blockHash, x.status]), [[hash, ZERO_HASH, '0x1']])
  assert.deepEqual(pendingLogs.map((l) => [l.transactionHash, l.blockHash]), [[hash, ZERO_HASH]])
  assert.equal(flashblocks.at(-1)!.transactions.at(-1)!.hash, hash)
  await node.seal()
  await roundTrip()
  const sealed = await c.pub.getTransactionReceipt({ hash })
  assert.deepEqual(events, [{ args: { by: c.account.address, value: 6n }, blockHash: sealed.blockHash }], 'contract events arrive once sealed')
  for (const stop of stops) stop()
  for (const s of subscriptions) assert.equal((await s.unsubscribe()).result, true)
})

test('viem on the real clock: deploy, write and wait as a script does, with no stepping', async (t) => {
  const node = await liveNode(t)
  const c = clients(node, 1)
  const deployed = await c.pub.waitForTransactionReceipt({ hash: await deploy(c), pollingInterval: POLL_MS })
  const address = deployed.contractAddress!
  for (let i = 0; i < 2; i++) {
    const hash = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
    const r = await c.pub.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
    assert.equal(r.status, 'success')
  }
  assert.equal(await c.pub.readContract({ address, abi: abi(), functionName: 'counter', blockTag: 'pending' }), 7n)
})

test('viem over HTTP: watchPendingTransactions, watchContractEvent and watchBlocks, polling', async (t) => {
  const node = await liveNode(t)
  // viem uninstalls its filters when a watcher stops, and keeps polling if that request fails: the test
  // waits for both uninstalls before the server goes.
  const listeners = trackListeners(node)
  const c = clients(node, 2)
  const deployed = await c.pub.waitForTransactionReceipt({ hash: await deploy(c), pollingInterval: POLL_MS })
  const address = deployed.contractAddress!
  const stops: (() => void)[] = []
  const watched = <T>(start: (resolve: (v: T) => void, reject: (e: Error) => void) => () => void) =>
    new Promise<T>((resolve, reject) => void stops.push(start(resolve, reject)))
  const pending = watched<Hex[]>((onTransactions, onError) => c.pub.watchPendingTransactions({ onTransactions, onError, pollingInterval: POLL_MS }))
  const event = watched<unknown>((resolve, onError) =>
    c.pub.watchContractEvent({ address, abi: abi(), eventName: 'Incremented', onLogs: (logs) => resolve((logs[0] as unknown as { args: unknown }).args), onError, pollingInterval: POLL_MS }),
  )
  const block = watched<bigint>((resolve, onError) =>
    c.pub.watchBlocks({ onBlock: (b) => (b.number > deployed.blockNumber ? resolve(b.number) : undefined), onError, pollingInterval: POLL_MS }),
  )
  // viem creates its filters at its first poll: both exist before the transaction is sent.
  await listeners.until('the two filters', () => listeners.open.size === 2)
  const hash = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
  assert.deepEqual(await within(pending, 30_000, 'pending transactions'), [hash])
  assert.deepEqual(await within(event, 30_000, 'Incremented event'), { by: c.account.address, value: 6n })
  assert.ok((await within(block, 30_000, 'a block after the deployment')) > deployed.blockNumber)
  for (const stop of stops) stop()
  await listeners.until('the filters uninstalled', () => listeners.open.size === 0)
})

test('viem on an endpoint without pre-confirmations: waitForTransactionReceipt answers the sealed receipt, and latest has it', async (t) => {
  const node = await liveNode(t, -32000, false)
  const c = clients(node, 3)
  const deployed = await c.pub.waitForTransactionReceipt({ hash: await deploy(c), pollingInterval: POLL_MS })
  assert.equal(deployed.status, 'success')
  assert.equal(deployed.blockHash, (await c.pub.getBlock({ blockNumber: deployed.blockNumber })).hash, 'the sealed block')
  const address = deployed.contractAddress!
  assert.equal(await c.pub.getCode({ address }), probeArtifact().deployedBytecode)
  for (let i = 0; i < 2; i++) {
    const hash = await c.wallet.writeContract({ address, abi: abi(), functionName: 'increment' })
    const r = await c.pub.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
    assert.equal(r.status, 'success')
    assert.equal(r.blockHash, (await c.pub.getBlock({ blockNumber: r.blockNumber })).hash)
  }
  const nonce = (blockTag: 'latest' | 'pending') => c.pub.getTransactionCount({ address: c.account.address, blockTag })
  assert.equal(await nonce('latest'), await nonce('pending'))
  for (const blockTag of ['latest', 'pending'] as const) {
    assert.equal(await c.pub.readContract({ address, abi: abi(), functionName: 'counter', blockTag }), 7n)
  }
  await assert.rejects(c.pub.request({ method: 'eth_simulateV1' as never, params: [{ blockStateCalls: [] }, 'latest'] as never }), /eth_simulateV1 does not exist\/is not available/)
})
