/**
 * Scenario "receipts": eth_getBlockReceipts on blocks of 512, 1,024 and 2,048 transactions, time per call.
 *
 * Both peers mine only when asked (Flashnode `--sealing manual`, Anvil `--no-mining`). Before each row,
 * on each peer start, `prepare` pools N ERC-20 transfers (one Transfer log each, so receipts carry logs as
 * real blocks' do; 256 senders) and calls evm_mine once; the block must hold exactly N transactions, and
 * the peer's eth_getBlockReceipts must return N receipts with the right hashes, or the row fails. The load is
 * then the existing closed loop at concurrency 1 (one call at a time, from the separate load generator
 * process), the same request repeated for the run's duration: p50 is the time per call. The reply (up to
 * ~2 MB of JSON for 2,048 receipts) is read in full by the client; it is not parsed on the measured path.
 * Gas limit 200M so a block of 2,048 ERC-20 transfers (60,000 gas each at most) fits.
 */

import type { RunningNode } from './nodes.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'
import { NonceBook, sendAll, TxFactory } from './txs.ts'

const SENDERS = 256
const SIZES = [512, 1024, 2048] as const

function cases({ chain }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  const blocks = new WeakMap<RunningNode, Map<number, string>>()

  const row = (n: number): BenchCase => ({
    name: `eth_getBlockReceipts, block of ${n.toLocaleString('en-US')} ERC-20 transfers`,
    concurrency: 1,
    unit: 'calls/s',
    compare: 'p50',
    prepare: async ({ node }: CaseRun) => {
      const txs = factory.batch('erc20', n, nonces, node)
      await sendAll(node.url, txs)
      await rpcCall(node.url, 'evm_mine', [], 120_000)
      const block = await rpcCall<{ number: string; transactions: string[] }>(node.url, 'eth_getBlockByNumber', ['latest', false])
      if (block.transactions.length !== n) {
        throw new Error(`evm_mine with ${n} transactions pooled sealed block ${BigInt(block.number)} with ${block.transactions.length}`)
      }
      const receipts = await rpcCall<{ transactionHash: string; logs: unknown[]; status: string }[]>(
        node.url, 'eth_getBlockReceipts', [block.number], 120_000,
      )
      const want = new Set(txs.map((t) => t.hash.toLowerCase()))
      const bad = receipts.find((r) => !want.has(r.transactionHash.toLowerCase()) || r.status !== '0x1' || r.logs.length !== 1)
      if (receipts.length !== n || bad !== undefined) {
        throw new Error(`eth_getBlockReceipts(${block.number}) returned ${receipts.length} receipts; e.g. ${JSON.stringify(bad ?? receipts[0]).slice(0, 200)}`)
      }
      let m = blocks.get(node)
      if (m === undefined) blocks.set(node, (m = new Map()))
      m.set(n, block.number)
    },
    bodies: ({ node }: CaseRun) => {
      const number = blocks.get(node)?.get(n)
      if (number === undefined) throw new Error(`no block of ${n} was built`)
      return [rpcBody(1, 'eth_getBlockReceipts', [number])]
    },
  })
  return SIZES.map(row)
}

export const receiptsBench: Scenario = {
  name: 'receipts',
  title: 'eth_getBlockReceipts on blocks of 512, 1,024 and 2,048 ERC-20 transfers, one call at a time',
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  anvilArgs: ['--no-mining'],
  flashnodeArgs: ['--sealing', 'manual'],
  mutatesState: true,
  notes: () => ['concurrency 1: p50 = time per call; the ratio column is Anvil p50 / Flashnode p50'],
  cases,
}
