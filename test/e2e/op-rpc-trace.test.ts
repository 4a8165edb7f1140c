/**
 * The read and trace surface on the `--op-stack` dev chain (issue 41): a real node built from the CLI's own
 * options (Jovian, the dev chain's default; an operator fee configured), served on loopback, manual sealing. Block 2 holds the
 * L1-attributes deposit, a user deposit that mints (flashnode_sendDeposit) and signed transactions, read while
 * pre-confirmed and again once sealed.
 *
 * Where each expected value comes from (never from the code under test):
 * - a deposit's trace from the deposit's own fields as sent (from, to, value, gas, mint) and its receipt's gas;
 *   op-geth's state processor tells the tracer of a deposit before its mint (core/state_transition.go credits
 *   the mint inside the message's execution), so prestateTracer's `pre` balance of `from` lacks the mint;
 * - a transaction's prestate diff from its receipt: the sender pays value + gas used × effective price + the
 *   L1 fee + the operator fee (by the block's fork: Isthmus's or Jovian's formula, the receipt's own
 *   operatorFeeScalar and operatorFeeConstant); the base fee vault (the one vault
 *   op-geth's prestateTracer looks up, eth/tracers/native/prestate.go) gains gas used × base fee;
 * - debug_getRawReceipts against the sealed header's receiptsRoot (from Canyon a deposit receipt's
 *   MarshalBinary equals its receipts-trie encoding, op-geth core/types/receipt.go), the raw block against
 *   the block's transaction hashes (viem's keccak256 of each deposit envelope);
 * - eth_feeHistory's next base fee against the open block's own base fee; a deposit's reward is zero (op-geth's
 *   EffectiveGasTip of a deposit);
 * - eth_simulateV1 with validation: the vault balances read by a state-override contract after the call.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { createWalletClient, defineChain, fromRlp, http, keccak256, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { BASE_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import { decodeOpBlock } from '../../src/execution/block-codec.ts'
import { orderedTrieRoot } from '../../src/execution/ordered-trie.ts'
import { bytesToHex, hexToBytes } from '../../src/primitives/hex.ts'
import { opStackCliConfig } from '../support/op-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const L1 = { l1BaseFee: 7_654_321_987n, l1BlobBaseFee: 3_210_987n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 1_500_000n, operatorFeeConstant: 7_000n }
const ALICE = '0x00000000000000000000000000000000000a11ce'
const BOB = '0x0000000000000000000000000000000000000b0b'
const ETHER = 10n ** 18n
const DEPOSIT = { from: ALICE, to: BOB, mint: ETHER, value: 12_345n, gas: 200_000n }
/** PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the balance of the address in the calldata. */
const BALANCE_READER = '0x60003531600052602060' + '00f3'
const READER = '0x00000000000000000000000000000000000beef0'

type Json = Record<string, any>

async function call(url: string, method: string, params: unknown[]): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await response.json()) as { result?: unknown; error?: unknown }
  assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`)
  return body.result
}

const q = (v: bigint): string => '0x' + v.toString(16)
const big = (v: string | undefined): bigint => BigInt(v ?? '0x0')
const lower = (a: string): string => a.toLowerCase()
/**
 * The operator fee of `gasUsed` under a receipt's scalar and constant: Isthmus's formula (specs
 * isthmus/exec-engine.md: gas × scalar / 1e6 + constant) or, on a Jovian block, Jovian's (specs
 * jovian/exec-engine.md: gas × scalar × 100 + constant).
 */
const operatorFee = (gasUsed: bigint, r: Json, jovian: boolean): bigint =>
  (jovian ? gasUsed * big(r.operatorFeeScalar) * 100n : (gasUsed * big(r.operatorFeeScalar)) / 1_000_000n) + big(r.operatorFeeConstant)

test('OP chain: traces, receipts, raw encodings, fee history and simulation follow op-geth, pre-confirmed and sealed', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), L1)
  const running = await startNode(t, join(dir, 'chain'), config.genesis, { sequencer: config.sequencer })
  const node = running.node
  await node.start()
  const url = running.url
  const chain = defineChain({ id: Number(node.rules.chainId), name: 'op', nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
  const account = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const wallet = createWalletClient({ account, chain, transport: http(url) })

  // Block 1 closes; block 2 opens with the L1-attributes deposit and the user deposit.
  const depositHash = (await call(url, 'flashnode_sendDeposit', [{ ...DEPOSIT, mint: q(DEPOSIT.mint), value: q(DEPOSIT.value), gas: q(DEPOSIT.gas) }])) as Hex
  await node.sequencer!.seal()
  const request = { to: BOB as Hex, value: 777n, data: toHex(randomBytes(300)), gas: 150_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000n } as const
  const hash = await wallet.sendTransaction({ ...request, nonce: 0 })
  // The second one through eth_sendRawTransactionSync: its receipt comes with the flashblock that takes it.
  const raw = await wallet.signTransaction({ ...request, nonce: 1 })
  const synced = call(url, 'eth_sendRawTransactionSync', [raw])
  // Wait (by asking, not sleeping) until the pool holds it, then make the flashblock it is answered from.
  while (((await call(url, 'base_transactionStatus', [keccak256(raw)])) as Json).status !== 'Known');
  await node.sequencer!.flashblock()
  const syncReceipt = (await synced) as Json

  // ---- pre-confirmed ----
  const pendingReceipt = (await call(url, 'eth_getTransactionReceipt', [hash])) as Json
  assert.equal(pendingReceipt.blockNumber, '0x2')
  const pendingList = (await call(url, 'eth_getBlockReceipts', ['pending'])) as Json[]
  assert.equal(pendingList.length, 4, 'two deposits, two transactions')
  const pendingCall = await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
  const pendingPrestate = await call(url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])
  const pendingDepositTrace = await call(url, 'debug_traceTransaction', [depositHash, { tracer: 'callTracer' }])
  const pendingBlockTrace = (await call(url, 'debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }])) as Json[]
  const pendingBlock = (await call(url, 'eth_getBlockByNumber', ['pending', false])) as Json

  // ---- sealed ----
  await node.sequencer!.seal()
  const receipt = (await call(url, 'eth_getTransactionReceipt', [hash])) as Json
  const block = (await call(url, 'eth_getBlockByNumber', ['0x2', false])) as Json
  // A Jovian block's extraData is the 17-byte version-1 form (specs jovian/exec-engine.md), a Holocene one's 9 bytes.
  const jovian = hexToBytes(block.extraData).length === 17
  const receipts = (await call(url, 'eth_getBlockReceipts', ['0x2'])) as Json[]

  await t.test('a pre-confirmed receipt carries the OP keys and values of the sealed one', () => {
    for (const key of ['l1Fee', 'l1GasPrice', 'l1GasUsed', 'l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant']) {
      assert.ok(receipt[key] !== undefined, `sealed receipt has ${key}`)
    }
    const unplaced = (r: Json): Json => ({ ...r, blockHash: undefined, logs: r.logs.map((l: Json) => ({ ...l, blockHash: undefined })) })
    assert.deepEqual(unplaced(pendingReceipt), unplaced(receipt))
    assert.deepEqual(pendingList.map(unplaced), receipts.map(unplaced), 'eth_getBlockReceipts(pending) against the sealed block')
    assert.deepEqual(unplaced(syncReceipt), unplaced(receipts[3]!), "eth_sendRawTransactionSync's receipt")
    assert.equal(receipts[1]!.depositNonce, '0x0')
    assert.equal(receipts[1]!.depositReceiptVersion, '0x1')
  })

  await t.test("a deposit traces as op-geth's: its message, its receipt's gas, the mint after the prestate", async () => {
    const trace = (await call(url, 'debug_traceTransaction', [depositHash, { tracer: 'callTracer' }])) as Json
    assert.deepEqual(trace, pendingDepositTrace, 'pre-confirmed and sealed traces agree')
    assert.equal(lower(trace.from), ALICE)
    assert.equal(lower(trace.to), BOB)
    assert.equal(big(trace.value), DEPOSIT.value)
    assert.equal(big(trace.gas), DEPOSIT.gas)
    assert.equal(trace.gasUsed, receipts[1]!.gasUsed)
    const diff = (await call(url, 'debug_traceTransaction', [depositHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as Json
    const before = await call(url, 'eth_getBalance', [ALICE, '0x1'])
    assert.equal(big(diff.pre[ALICE]?.balance), big(before), 'pre: before the mint')
    assert.equal(big(diff.post[ALICE].balance), big(before) + DEPOSIT.mint - DEPOSIT.value)
  })

  await t.test('a transaction traces with its L1 and operator fees and the base fee vault', async () => {
    const trace = await call(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    assert.deepEqual(trace, pendingCall)
    const diff = (await call(url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as Json
    assert.deepEqual(diff, pendingPrestate)
    const sender = lower(account.address)
    const gasUsed = big(receipt.gasUsed)
    const paid = 777n + gasUsed * big(receipt.effectiveGasPrice) + big(receipt.l1Fee) + operatorFee(gasUsed, receipt, jovian)
    assert.ok(big(receipt.l1Fee) > 0n && big(receipt.operatorFeeScalar) > 0n)
    assert.equal(big(diff.pre[sender].balance) - big(diff.post[sender].balance), paid)
    const vault = lower(BASE_FEE_VAULT_ADDRESS)
    assert.equal(big(diff.post[vault].balance) - big(diff.pre[vault].balance), gasUsed * big(block.baseFeePerGas))
    assert.equal(diff.pre[lower(L1_FEE_VAULT_ADDRESS)], undefined, "op-geth's prestateTracer does not look up the L1 fee vault")
  })

  await t.test("a block's trace holds its deposits first, at pending and sealed", async () => {
    const traces = (await call(url, 'debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer' }])) as Json[]
    assert.deepEqual(traces.map((x) => x.txHash), block.transactions)
    assert.deepEqual(traces, pendingBlockTrace)
    const byHash = await call(url, 'debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])
    assert.deepEqual(byHash, traces)
  })

  await t.test('debug_getRawReceipts hashes to the receipts root; the raw block decodes with its deposits', async () => {
    const rawReceipts = (await call(url, 'debug_getRawReceipts', ['0x2'])) as Hex[]
    assert.equal(bytesToHex(orderedTrieRoot(rawReceipts.map(hexToBytes))), block.receiptsRoot)
    const depositFields = fromRlp(`0x${rawReceipts[1]!.slice(4)}`) as Hex[]
    assert.equal(rawReceipts[1]!.slice(0, 4), '0x7e')
    assert.equal(depositFields.length, 6, 'status, gas, bloom, logs, depositNonce, depositReceiptVersion')
    const rawBlock = (await call(url, 'debug_getRawBlock', ['0x2'])) as Hex
    const { block: decoded, deposits } = decodeOpBlock(node.rules, hexToBytes(rawBlock))
    assert.deepEqual([...deposits.map((d) => keccak256(d)), ...decoded.transactions.map((tx) => bytesToHex(tx.hash()))], block.transactions)
  })

  await t.test("eth_feeHistory: the chain's own next base fee, a deposit's zero reward", async () => {
    const history = (await call(url, 'eth_feeHistory', ['0x2', '0x2', [0, 100]])) as Json
    assert.equal(history.baseFeePerGas.at(-1), ((await call(url, 'eth_getBlockByNumber', ['pending', false])) as Json).baseFeePerGas)
    assert.equal(history.baseFeePerGas[1], pendingBlock.baseFeePerGas)
    // Block 1 holds only its L1-attributes deposit.
    assert.deepEqual(history.reward[0], ['0x0', '0x0'])
  })

  await t.test('eth_simulateV1 with validation: operator fee and base fee vaults credited, no L1 fee', async () => {
    // Under validation every call names a fee, the readers too: each call settles its own fees after it ran.
    const fee = { maxFeePerGas: q(request.maxFeePerGas), maxPriorityFeePerGas: '0x0' }
    const readBalance = (address: string) => ({ from: BOB, to: READER, data: '0x' + address.slice(2).padStart(64, '0'), gas: '0x7530', ...fee })
    const vaults = [BASE_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS]
    const transfer = { from: account.address, to: BOB, value: '0x1', gas: '0x5208', ...fee }
    const [result] = (await call(url, 'eth_simulateV1', [
      { validation: true, blockStateCalls: [{ stateOverrides: { [READER]: { code: BALANCE_READER }, [BOB]: { balance: q(ETHER) } }, calls: [...vaults.map(readBalance), transfer, ...vaults.map(readBalance)] }] },
      'latest',
    ])) as Json[]
    const calls = result!.calls as Json[]
    assert.ok(calls.every((c) => c.status === '0x1'))
    const baseFee = big(result!.baseFeePerGas)
    for (const [i, vault] of vaults.entries()) {
      // Between the two reads of vault i: the first read itself, the reads after it, the transfer, the reads before the second.
      const between = calls.slice(i, 4 + i).map((c) => big(c.gasUsed))
      const gained = big(calls[4 + i]!.returnData) - big(calls[i]!.returnData)
      const expected = vault === BASE_FEE_VAULT_ADDRESS ? between.reduce((sum, g) => sum + g * baseFee, 0n) : vault === OPERATOR_FEE_VAULT_ADDRESS ? between.reduce((sum, g) => sum + operatorFee(g, receipt, jovian), 0n) : 0n
      assert.equal(gained, expected, vault === L1_FEE_VAULT_ADDRESS ? 'no L1 fee in a simulation (op-geth: its message has no rollup cost data)' : vault)
    }
  })
})
