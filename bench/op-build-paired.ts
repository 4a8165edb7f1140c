/**
 * Issue 41's OP goal measured in pairs, in one process: the same flashblock of 100 ERC-20 transfers built by a
 * sequencer on the flashblock-build scenario's chain (genesis.ts, 256 senders, 200M gas) and by one on that
 * chain made an OP Stack chain (opStackGenesis), alternately, each node served on loopback and filled over
 * HTTP (untimed), then `sequencer.flashblock()` called directly and timed: this process's CPU (every thread)
 * and wall time, then the block sealed (untimed). Medians over the pairs after 5 warm-up pairs, and the ratio.
 *
 * Why beside the scenario's OP row: on a shared machine the scenario's figures (separate peer starts, round
 * trips) move by 2× from one repetition to the next; a pair in one process shares the JIT's and the
 * machine's state of the moment, so the ratio holds still. It owns nothing the scenario reads.
 *   npx tsx bench/op-build-paired.ts [pairs, default 30]
 */

import { buildBenchGenesis, opStackGenesis } from './genesis.ts'
import { startInProcess, type InProcessNode, type NodeModules } from './in-process-node.ts'
import { NonceBook, quantile, sendAll, TxFactory } from './txs.ts'
import { sequencerSettingsOf } from '../src/cli/node-config.ts'
import { parseCommandLine } from '../src/cli/options.ts'
import { serve } from '../src/cli/serve.ts'
import type { GethGenesis } from '../src/execution/chain-config.ts'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode } from '../src/node/create-node.ts'

const WARMUP_PAIRS = 5
const TRANSFERS = 100

type Started = InProcessNode<FlashNode>

const THIS_CHECKOUT = { createNode, DEFAULT_NODE_SETTINGS, sequencerSettingsOf, parseCommandLine, serve } as unknown as NodeModules

const start = (genesis: GethGenesis): Promise<Started> => startInProcess<FlashNode>(THIS_CHECKOUT, genesis, 'op-paired')

async function main(): Promise<void> {
  const pairs = Number(process.argv[2] ?? 30)
  const chain = buildBenchGenesis({ accounts: 256, gasLimit: 200_000_000n })
  const factory = new TxFactory(chain.chainId, chain.token, 256)
  const nonces = new NonceBook()
  const eth = await start(chain.genesis as unknown as GethGenesis)
  const op = await start(opStackGenesis(chain.genesis) as unknown as GethGenesis)
  const build = async (s: Started): Promise<{ cpuMs: number; wallMs: number }> => {
    await sendAll(s.url, factory.batch('erc20', TRANSFERS, nonces, s.key))
    const sequencer = s.node.sequencer
    if (sequencer === undefined) throw new Error('the node has no sequencer')
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const snapshot = await sequencer.flashblock()
    const wallMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    await sequencer.seal()
    if (snapshot.transactions.length < TRANSFERS) throw new Error(`a flashblock of ${snapshot.transactions.length} transactions, ${TRANSFERS} were pooled`)
    return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs }
  }
  const figures = { eth: { cpu: [] as number[], wall: [] as number[] }, op: { cpu: [] as number[], wall: [] as number[] } }
  try {
    for (let i = 0; i < WARMUP_PAIRS + pairs; i++) {
      const e = await build(eth)
      const o = await build(op)
      if (i < WARMUP_PAIRS) continue
      figures.eth.cpu.push(e.cpuMs)
      figures.eth.wall.push(e.wallMs)
      figures.op.cpu.push(o.cpuMs)
      figures.op.wall.push(o.wallMs)
    }
  } finally {
    await eth.close()
    await op.close()
  }
  const line = (what: string, a: number[], b: number[]): string =>
    `${what} p50: Ethereum ${quantile(a, 0.5).toFixed(2)} ms, OP ${quantile(b, 0.5).toFixed(2)} ms, OP / Ethereum ${(quantile(b, 0.5) / quantile(a, 0.5)).toFixed(2)}×`
  console.log(`flashblock of ${TRANSFERS} ERC-20 transfers, ${pairs} pairs after ${WARMUP_PAIRS} warm-up pairs`)
  console.log(line('CPU', figures.eth.cpu, figures.op.cpu))
  console.log(line('wall', figures.eth.wall, figures.op.wall))
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
