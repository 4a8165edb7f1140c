/**
 * Scenario "pending-reads": the four state reads of the read scenario (eth_call balanceOf, eth_getStorageAt,
 * eth_getCode, eth_getTransactionCount) at `pending`,
 *   1. with the pool idle;
 *   2. with 1,000 ERC-20 transfers waiting in the pool (250 senders × 4, holders 0–63 among them), not yet
 *      pre-confirmed on Flashnode (`--sealing manual`, nothing is built until asked) and not mined on Anvil
 *      (`--no-mining`, they wait in its pool);
 *   3. Flashnode only: the same 1,000 transactions after one `flashnode_flashblock` pre-confirmed them, and
 *      eth_getProof of 10 balance slots at that pending state (proved against the open block's own root).
 * What each peer must answer differs, and is checked: Anvil's `pending` is its pool executed on top of
 * `latest` (re-executed per request: this is where it slows down), so in (2) holder 0 reads 4 tokens less;
 * Flashnode's `pending` is the newest pre-confirmed snapshot, so in (2) balances are unchanged and only the
 * pending nonce counts the pool (max(pre-confirmed nonce, highest consecutive pool nonce + 1) = 4), while
 * in (3) Flashnode answers what Anvil answers in (2). Row (3) is the like-for-like answer; row (2) is the
 * brief's "1,000 transactions pending" (the pool holds them, nothing has been pre-confirmed yet).
 * Pool states are prepared once per peer start (idempotent), rows run in order: idle, pool, pre-confirmed.
 */

import type { BenchChain } from './genesis.ts'
import { proofCase, readCases, type ReadExpectation } from './read-bench.ts'
import { rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'
import { NonceBook, sendAll, TxFactory } from './txs.ts'
import type { RunningNode } from './nodes.ts'

export const POOLED = 1000
/** Accounts 0..SENDERS-1 send POOLED / SENDERS transfers each (the chain needs that many keyed accounts). */
export const SENDERS = 250

/**
 * A `prepare` hook that puts POOLED ERC-20 transfers into a fresh peer start's pool once (idempotent per
 * start), and checks where they are: in Anvil's pending block (`--no-mining`), not yet in Flashnode's
 * (`--sealing manual`: nothing is pre-confirmed until asked).
 */
export function poolFiller(chain: BenchChain): (run: CaseRun) => Promise<void> {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  const filled = new WeakSet<RunningNode>()
  return async ({ node }: CaseRun): Promise<void> => {
    if (filled.has(node)) return
    filled.add(node)
    await sendAll(node.url, factory.batch('erc20', POOLED, nonces, node))
    const pending = await rpcCall<{ transactions: unknown[] }>(node.url, 'eth_getBlockByNumber', ['pending', false])
    const want = node.peer === 'anvil' ? POOLED : 0
    if (pending.transactions.length !== want) {
      throw new Error(`after sending ${POOLED} transactions, the pending block holds ${pending.transactions.length} (expected ${want})`)
    }
  }
}

function cases({ chain, quick }: ScenarioContext): BenchCase[] {
  const preconfirmed = new WeakSet<RunningNode>()
  const perSender = BigInt(POOLED / SENDERS)
  const fill = poolFiller(chain)
  const preconfirm = async (run: CaseRun): Promise<void> => {
    await fill(run)
    if (preconfirmed.has(run.node)) return
    preconfirmed.add(run.node)
    await rpcCall(run.node.url, 'flashnode_flashblock', [], 120_000)
    const pending = await rpcCall<{ transactions: unknown[] }>(run.node.url, 'eth_getBlockByNumber', ['pending', false])
    if (pending.transactions.length !== POOLED) {
      throw new Error(`flashnode_flashblock with ${POOLED} transactions pooled pre-confirmed ${pending.transactions.length}`)
    }
  }

  const idle: ReadExpectation = { tokenBalance: chain.tokenBalance, nonce: 0n }
  const spent: ReadExpectation = { tokenBalance: chain.tokenBalance - perSender, nonce: perSender }
  const rows = [
    ...readCases(chain, 'pending', ', pool idle', () => idle),
    ...readCases(
      chain,
      'pending',
      `, ${POOLED.toLocaleString('en-US')} txs in the pool`,
      (run) => (run.node.peer === 'anvil' ? spent : { tokenBalance: chain.tokenBalance, nonce: perSender }),
      { prepare: fill },
    ),
    ...readCases(chain, 'pending', `, ${POOLED.toLocaleString('en-US')} txs pre-confirmed`, () => spent, {
      prepare: preconfirm,
      peers: ['flashnode'],
    }),
    // Proved against the open block's own root: its first proof computes that root (as the seal will), the
    // others walk it; the rate is the steady state of one flashblock.
    proofCase(chain, 'pending', `, ${POOLED.toLocaleString('en-US')} txs pre-confirmed`, () => spent.tokenBalance, { prepare: preconfirm, peers: ['flashnode'] }),
  ]
  // --quick stays near 30 s: every read with the pool full; idle keeps eth_call and the nonce, pre-confirmed eth_call
  const inQuick = (c: BenchCase): boolean =>
    c.name.includes('in the pool') ||
    c.name.startsWith('eth_call') ||
    (c.name.includes('pool idle') && c.name.startsWith('eth_getTransactionCount'))
  return quick ? rows.filter(inQuick) : rows
}

export const pendingReadsBench: Scenario = {
  name: 'pending-reads',
  title: `state reads at pending, pool idle and with ${POOLED.toLocaleString('en-US')} ERC-20 transfers waiting`,
  genesis: { accounts: 256, gasLimit: 200_000_000n },
  anvilArgs: ['--no-mining'],
  flashnodeArgs: ['--sealing', 'manual'],
  mutatesState: true,
  notes: () => [
    `pool rows: Anvil's pending executes its pool (holder 0 reads 4 tokens less); Flashnode's pending is the newest ` +
      `pre-confirmed snapshot, which in manual sealing does not hold them yet (only the pending nonce counts the pool)`,
    `pre-confirmed rows: after one flashnode_flashblock, Flashnode's pending answers what Anvil's answers in the pool rows ` +
      `(n/a for Anvil: it has no pre-confirmation; its like-for-like figure is its pool row)`,
  ],
  cases,
}
