/**
 * The setup send-threads.ts and send-alloc.ts share: a chain of ETH-transfer senders, the send bodies signed
 * ahead (one eth_sendRawTransaction each), and the production build of the checkout started on it, manual
 * sealing for `--intake` (the intake alone). Its sizes are the two tools' (`intake` or not). It owns the work
 * directory it makes (removed by `remove`).
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeBenchGenesis } from './genesis.ts'
import { freePort, initFlashnode, splitArgs, startFlashnode, type RunningNode } from './nodes.ts'
import { rpcBody } from './rpc.ts'
import { TxFactory } from './txs.ts'

export interface SendFixture {
  readonly senders: number
  /** Sent untimed first when warming. */
  readonly warmTxs: number
  readonly bodies: readonly string[]
  readonly node: RunningNode
  remove(): void
}

export async function startSendFixture(name: string, intake: boolean, checkout: string, args: string): Promise<SendFixture> {
  const senders = intake ? 1024 : 256
  const warmTxs = intake ? 2048 : senders * 20
  const total = intake ? warmTxs + 4000 : senders * 200
  const work = mkdtempSync(join(tmpdir(), `flashnode-${name}-`))
  const remove = (): void => rmSync(work, { recursive: true, force: true })
  try {
    const genesis = join(work, 'genesis.json')
    const chain = writeBenchGenesis(genesis, { accounts: senders, gasLimit: 400_000_000n })
    const bodies = new TxFactory(chain.chainId, chain.token, senders).batch('eth', total, undefined, undefined).map((t, i) => rpcBody(i + 1, 'eth_sendRawTransaction', [t.raw]))
    initFlashnode(genesis, join(work, 'data'))
    const node = await startFlashnode({ checkout, genesisPath: genesis, datadir: join(work, 'data'), port: await freePort(), extraArgs: ['--log-level', 'warn', ...(intake ? ['--sealing', 'manual'] : []), ...splitArgs(args)] })
    return { senders, warmTxs, bodies, node, remove }
  } catch (e) {
    remove()
    throw e
  }
}
