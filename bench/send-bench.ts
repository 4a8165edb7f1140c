/**
 * Scenario "send": eth_sendRawTransaction, accepted transactions per second from 256 senders, each peer
 * sequencing as it normally does: Flashnode at its default 200 ms flashblock interval (10 per block), Anvil
 * with 2 s blocks (`--block-time 2`). So the figure includes what a running sequencer costs the intake.
 *
 * Transactions are ETH transfers signed before anything is timed (txs.ts), identical for every peer start
 * (each start is a fresh chain: mutatesState). They are sent once each, in rounds over the 256 senders
 * (round r = every sender's nonce r), by a closed loop of 64 requests in flight from the separate load
 * generator process, so no sender's nonce arrives before its predecessor (64 < 256). 64, not the read
 * scenarios' 8: both peers accept more with more in flight (on this 2-core box Anvil ~3,400 tx/s at 16,
 * ~5,900 at 64; Flashnode ~660 at 16, ~1,200 at 64, ~1,050 at 128), and many clients send at once.
 * The count is bounded (enough for ~10,000 tx/s over the window); the window bounds the time; a peer
 * that runs out of transactions before the window ends is rated on the time it took. Accepted = answered with the transaction's hash; any error
 * (e.g. a full pool) is counted and quoted in the notes.
 * Chain capacity: 400M gas per block (~19,000 transfers; ~9,500 tx/s at 2 s blocks), above either peer's
 * intake, so neither peer's pool fills because blocks are too small within one window. (At 200M, ~4,760 tx/s,
 * Flashnode's intake reached the chain's capacity: its pool, with geth's 5,120 pending slots, then filled
 * during seals and refused further transactions as underpriced, which measured the chain, not the intake.)
 */

import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'
import { TxFactory } from './txs.ts'

const SENDERS = 256
const CONCURRENCY = 64

function cases({ chain, quick }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const rounds = quick ? 48 : 200 // 12,288 or 51,200 transactions
  let bodies: string[] | undefined
  return [
    {
      name: `eth_sendRawTransaction, ETH transfers from ${SENDERS} senders`,
      unit: 'tx/s',
      concurrency: CONCURRENCY,
      once: true,
      warmupMs: 200,
      bodies: () => (bodies ??= factory.batch('eth', SENDERS * rounds, undefined, undefined).map((t, i) => rpcBody(i + 1, 'eth_sendRawTransaction', [t.raw]))),
      check: async ({ node }: CaseRun) => {
        const nonce = await rpcCall(node.url, 'eth_getTransactionCount', [chain.accounts[0]!.address, 'pending'])
        if (nonce !== '0x0') throw new Error(`sender 0 starts at nonce ${String(nonce)}, not 0 (not a fresh chain?)`)
      },
    },
  ]
}

export const sendBench: Scenario = {
  name: 'send',
  title: `eth_sendRawTransaction accepted tx/s, ${SENDERS} senders, Flashnode at 200 ms flashblocks, Anvil with 2 s blocks`,
  genesis: { accounts: SENDERS, gasLimit: 400_000_000n },
  anvilArgs: ['--block-time', '2'],
  mutatesState: true,
  notes: () => [
    'rate = transactions answered with their hash per second (errors excluded); transactions signed before the run, sent once each; warm-up 0.2 s',
  ],
  cases,
}
