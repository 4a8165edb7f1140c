/**
 * ethers 6.17, unmodified, against a real node: what its users do every day.
 *
 * - deploy and `wait()`, with the receipt observed pre-confirmed (stepped clock: one flashblock, then wait):
 *   ethers accepts it (it rejected the former null blockHash with BAD_DATA) and it carries the pre-confirmed
 *   block's number; after the seal the same receipt has the real hash;
 * - a call into the contract right after its pre-confirmed deploy (the gas estimate ethers asks without a
 *   block), a second send right after the first, reads at `pending` and `latest`, eth_getBlockReceipts
 *   (pending) wrapped by ethers, a reverted transaction's CALL_EXCEPTION;
 * - each kind of revert decoded from eth_call under the contract's -32000 and geth's 3;
 * - estimate (a plain transfer is 21000), an access list that a transaction then uses at exactly its gas;
 * - over WebSocket: provider.on('pending'), contract events, and the flashblock streams; over HTTP the same
 *   watchers through polling filters (eth_newPendingTransactionFilter, eth_newFilter);
 * - on the real clock: send and wait() as a script does, with no stepping;
 * - on an endpoint without pre-confirmations: wait() answers the sealed receipt, and `latest` already has it.
 *
 * ethers caches identical requests for 250 ms (cacheTimeout), the pending nonce included, so two sends from
 * one Wallet within 250 ms reuse a nonce (against any node; pre-confirmed wait() makes it easy to hit). The
 * tests use ethers' NonceManager for back-to-back sends, as the README advises.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import {
  ContractFactory,
  JsonRpcProvider,
  NonceManager,
  SocketSubscriber,
  Wallet,
  WebSocketProvider,
  type BaseContract,
  type Contract,
  type TransactionReceipt,
  type ContractTransactionResponse,
} from 'ethers'
import { ACCOUNTS } from '../../support/dev-chain.ts'
import { liveNode, probeArtifact, RECEIVER, steppedNode, trackListeners, within, ZERO_HASH, type ClientNode } from '../../support/clients.ts'

const POLL_MS = 20

/** ethers as users create it (its 250 ms request cache on), polling fast; `uncached` for the test's own checks. */
function provider(t: TestContext, node: ClientNode, uncached = false): JsonRpcProvider {
  const p = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: POLL_MS, ...(uncached ? { cacheTimeout: -1 } : {}) })
  t.after(() => p.destroy())
  return p
}

type Probe = BaseContract & Contract

async function deployProbe(signer: NonceManager | Wallet, start = 5n): Promise<Probe> {
  const { abi, bytecode } = probeArtifact()
  return (await new ContractFactory(abi as never, bytecode, signer).deploy(start)) as Probe
}

test('ethers: deploy, wait() on a pre-confirmed receipt, call right after, a second send right after, pending and latest reads', async (t) => {
  const node = await steppedNode(t)
  const p = provider(t, node)
  const signer = new NonceManager(new Wallet(ACCOUNTS[0]!.privateKey, p))

  const probe = await deployProbe(signer)
  await node.step()
  const deployed = (await probe.deploymentTransaction()!.wait())!
  assert.equal(deployed.status, 1)
  assert.equal(deployed.blockHash, ZERO_HASH, 'observed pre-confirmed')
  assert.equal(deployed.blockNumber, (await p.getBlockNumber()) + 1, 'in the block after latest')
  await probe.waitForDeployment()
  const address = await probe.getAddress()
  assert.equal(deployed.contractAddress, address)
  assert.equal(await p.getCode(address, 'latest'), '0x', 'not sealed yet')
  assert.notEqual(await p.getCode(address, 'pending'), '0x')

  // Straight into the pre-confirmed contract (ethers estimates without naming a block), twice in a row.
  const first = (await probe.getFunction('increment')()) as ContractTransactionResponse
  const second = (await probe.getFunction('increment')()) as ContractTransactionResponse
  assert.equal(second.nonce, first.nonce + 1)
  await node.step()
  const receipts = await Promise.all([first.wait(), second.wait()])
  for (const r of receipts) {
    assert.equal(r!.status, 1, 'neither ran out of gas')
    assert.equal(r!.blockHash, ZERO_HASH)
    assert.equal(r!.logs.length, 1)
    assert.equal(r!.logs[0]!.blockHash, ZERO_HASH)
    assert.equal(r!.logs[0]!.blockNumber, r!.blockNumber)
  }
  assert.equal(await probe.getFunction('counter')({ blockTag: 'pending' }), 7n)
  assert.equal(await p.getCode(address, 'latest'), '0x', 'latest has no contract yet')

  // eth_getBlockReceipts(pending) through provider.send, wrapped by ethers itself.
  const network = await p.getNetwork()
  const raw = (await p.send('eth_getBlockReceipts', ['pending'])) as Parameters<JsonRpcProvider['_wrapTransactionReceipt']>[0][]
  const wrapped: TransactionReceipt[] = raw.map((r) => p._wrapTransactionReceipt(r, network))
  const inBlock = [deployed.hash, first.hash, second.hash]
  assert.deepEqual(wrapped.map((r) => r.hash), inBlock, 'the deployment and both calls share the open block')
  assert.ok(wrapped.every((r) => r.blockHash === ZERO_HASH && r.blockNumber === deployed.blockNumber))
  const pendingBlock = (await p.getBlock('pending', true))!
  assert.equal(pendingBlock.hash, null, 'the pending block has no hash yet')
  assert.equal(pendingBlock.number, deployed.blockNumber)
  assert.deepEqual(pendingBlock.prefetchedTransactions.map((x) => x.hash), inBlock)

  await node.seal()
  // A second provider without ethers' 250 ms cache, which would still hold the pre-confirmed receipt.
  const check = provider(t, node, true)
  const sealed = (await check.getTransactionReceipt(first.hash))!
  assert.notEqual(sealed.blockHash, ZERO_HASH)
  assert.equal(sealed.blockNumber, receipts[0]!.blockNumber)
  assert.equal(sealed.blockHash, (await check.getBlock(sealed.blockNumber))!.hash)
  assert.equal(await probe.getFunction('counter')({ blockTag: 'latest' }), 7n)
})

test('ethers: a reverted transaction\'s wait() is CALL_EXCEPTION with its pre-confirmed receipt', async (t) => {
  const node = await steppedNode(t)
  const p = provider(t, node)
  const signer = new NonceManager(new Wallet(ACCOUNTS[1]!.privateKey, p))
  const probe = await deployProbe(signer)
  await node.step()
  const tx = (await probe.getFunction('failWithReason')({ gasLimit: 100_000n })) as ContractTransactionResponse
  await node.step()
  await assert.rejects(tx.wait(), (e: { code?: string; receipt?: TransactionReceipt }) => {
    assert.equal(e.code, 'CALL_EXCEPTION')
    assert.equal(e.receipt?.status, 0)
    assert.equal(e.receipt?.blockHash, ZERO_HASH)
    return true
  })
})

for (const revertCode of [-32000, 3]) {
  test(`ethers: eth_call reverts decode (Error(string), Panic(uint256), a custom error) with revert code ${revertCode}`, async (t) => {
    const node = await steppedNode(t, revertCode)
    const p = provider(t, node)
    const wallet = new Wallet(ACCOUNTS[2]!.privateKey, p)
    const probe = await deployProbe(new NonceManager(wallet))
    await node.step()
    const reverts = async (fn: string, args: unknown[]) => {
      try {
        await probe.getFunction(fn).staticCall(...args, { blockTag: 'pending' })
      } catch (e) {
        return e as { code: string; reason: string | null; revert: { name: string; args: unknown[] } | null }
      }
      assert.fail(`${fn} did not revert`)
    }
    const reason = await reverts('failWithReason', [])
    assert.equal(reason.code, 'CALL_EXCEPTION')
    assert.equal(reason.reason, 'probe: refused')
    assert.deepEqual([reason.revert?.name, [...(reason.revert?.args ?? [])]], ['Error', ['probe: refused']])
    const panic = await reverts('failWithPanic', [0n])
    assert.deepEqual([panic.revert?.name, [...(panic.revert?.args ?? [])].map(Number)], ['Panic', [0x12]])
    const custom = await reverts('failWithCustom', [])
    assert.deepEqual([custom.revert?.name, [...(custom.revert?.args ?? [])]], ['Unauthorized', [wallet.address, 42n]])
  })
}

test('ethers: estimates and an access list that the transaction then uses at exactly the gas it reported', async (t) => {
  const node = await steppedNode(t)
  const p = provider(t, node)
  const wallet = new Wallet(ACCOUNTS[3]!.privateKey, p)
  const signer = new NonceManager(wallet)
  assert.equal(await p.estimateGas({ from: wallet.address, to: RECEIVER, value: 1n }), 21_000n)
  const probe = await deployProbe(signer)
  await node.step()
  const address = await probe.getAddress()
  const data = probe.interface.encodeFunctionData('increment')
  const estimate = await p.estimateGas({ from: wallet.address, to: address, data })
  const listed = (await p.send('eth_createAccessList', [{ from: wallet.address, to: address, data }, 'pending'])) as {
    accessList: { address: string; storageKeys: string[] }[]
    gasUsed: string
  }
  assert.deepEqual(listed.accessList, [{ address: address.toLowerCase(), storageKeys: [ZERO_HASH] }])
  const sent = await signer.sendTransaction({ to: address, data, accessList: listed.accessList, gasLimit: estimate + 10_000n })
  await node.step()
  const receipt = (await sent.wait())!
  assert.equal(receipt.status, 1)
  assert.equal(receipt.gasUsed, BigInt(listed.gasUsed), 'the access list\'s gasUsed is what the transaction used')
  assert.ok(estimate >= receipt.gasUsed - 2_400n - 1_900n, 'the estimate (without the list) covers the call')
})

test('ethers over WebSocket: pending transactions, contract events, and the flashblock streams', async (t) => {
  const node = await steppedNode(t)
  const ws = new WebSocketProvider(node.ws, undefined, { staticNetwork: true })
  t.after(() => ws.destroy())
  const signer = new NonceManager(new Wallet(ACCOUNTS[0]!.privateKey, ws))
  const probe = await deployProbe(signer)
  await node.step()
  await probe.waitForDeployment()

  const pending: string[] = []
  const events: { value: bigint; blockHash: string }[] = []
  const flashblocks: { number: string; transactions: { hash: string }[] }[] = []
  const preconfirmed: { hash: string; blockHash: string; status: string }[] = []
  await ws.on('pending', (hash: string) => pending.push(hash))
  await probe.on('Incremented', (_by: string, value: bigint, event: { log: { blockHash: string } }) => events.push({ value, blockHash: event.log.blockHash }))
  class Collect extends SocketSubscriber {
    constructor(filter: unknown[], private readonly into: unknown[]) {
      super(ws, filter)
    }
    override async _emit(_provider: unknown, message: unknown): Promise<void> {
      this.into.push(message)
    }
  }
  const blocksSub = new Collect(['newFlashblocks'], flashblocks)
  const txSub = new Collect(['newFlashblockTransactions', true], preconfirmed)
  blocksSub.start()
  txSub.start()
  t.after(() => {
    blocksSub.stop()
    txSub.stop()
  })
  // A round trip (not cached by ethers, unlike getBlockNumber): every notification sent before its answer is in.
  const roundTrip = () => ws.send('web3_clientVersion', [])
  await roundTrip()

  const tx = (await probe.getFunction('increment')()) as ContractTransactionResponse
  await roundTrip()
  assert.deepEqual(pending, [tx.hash], 'announced when it entered the pool')
  await node.step()
  await roundTrip()
  assert.deepEqual(preconfirmed.map((x) => [x.hash, x.blockHash, x.status]), [[tx.hash, ZERO_HASH, '0x1']])
  assert.equal(flashblocks.at(-1)!.transactions.at(-1)!.hash, tx.hash, 'the accumulated pending block ends with it')
  await node.seal()
  await roundTrip()
  const sealed = (await ws.getTransactionReceipt(tx.hash))!
  assert.deepEqual(events, [{ value: 6n, blockHash: sealed.blockHash }], 'contract events arrive once sealed')
})

test('ethers on the real clock: send and wait() as a script does, twice, with no stepping', async (t) => {
  const node = await liveNode(t)
  const p = provider(t, node)
  const signer = new NonceManager(new Wallet(ACCOUNTS[1]!.privateKey, p))
  const probe = await deployProbe(signer)
  await probe.waitForDeployment()
  for (let i = 0; i < 2; i++) {
    const tx = (await probe.getFunction('increment')()) as ContractTransactionResponse
    const receipt = (await tx.wait())!
    assert.equal(receipt.status, 1)
    assert.match(receipt.blockHash, /^0x[0-9a-f]{64}$/)
  }
  assert.equal(await probe.getFunction('counter')({ blockTag: 'pending' }), 7n)
})

test('ethers over HTTP: provider.on(\'pending\') and contract events through polling filters', async (t) => {
  const node = await liveNode(t)
  const p = provider(t, node)
  const signer = new NonceManager(new Wallet(ACCOUNTS[2]!.privateKey, p))
  const probe = await deployProbe(signer)
  await probe.waitForDeployment()
  const listeners = trackListeners(node)
  const pending = new Promise<string>((resolve) => void p.on('pending', resolve))
  const event = new Promise<bigint>((resolve) => void probe.on('Incremented', (_by: string, value: bigint) => resolve(value)))
  // ethers creates both filters when it starts watching, and polls them at each new block it sees.
  await listeners.until('the two filters', () => listeners.open.size === 2)
  const tx = (await probe.getFunction('increment')()) as ContractTransactionResponse
  assert.equal(await within(pending, 30_000, 'pending transaction'), tx.hash)
  assert.equal(await within(event, 30_000, 'Incremented event'), 6n)
})

test('ethers on an endpoint without pre-confirmations: wait() answers the sealed receipt, and latest has it', async (t) => {
  const node = await liveNode(t, -32000, false)
  const p = provider(t, node)
  const check = provider(t, node, true)
  const wallet = new Wallet(ACCOUNTS[3]!.privateKey, p)
  const signer = new NonceManager(wallet)
  const probe = await deployProbe(signer)
  const deployed = (await probe.deploymentTransaction()!.wait())!
  assert.equal(deployed.status, 1)
  assert.equal(deployed.blockHash, (await check.getBlock(deployed.blockNumber))!.hash, 'the sealed block')
  const address = await probe.getAddress()
  assert.equal(await check.getCode(address, 'latest'), probeArtifact().deployedBytecode)
  for (let i = 0; i < 2; i++) {
    const r = (await ((await probe.getFunction('increment')()) as ContractTransactionResponse).wait())!
    assert.equal(r.status, 1)
    assert.equal(r.blockHash, (await check.getBlock(r.blockNumber))!.hash)
  }
  assert.equal(await check.getTransactionCount(wallet.address, 'latest'), await check.getTransactionCount(wallet.address, 'pending'))
  assert.equal(await probe.getFunction('counter')({ blockTag: 'latest' }), 7n)
  assert.equal(await probe.getFunction('counter')({ blockTag: 'pending' }), 7n)
})
