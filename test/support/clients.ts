/**
 * Nodes for the client tests (test/e2e/clients): a real server on 127.0.0.1 with an ephemeral port, in one
 * of two clocks, and the Probe contract those tests deploy.
 *
 * - `steppedNode`: the sequencer runs in auto mode on an injected clock; `step()` produces one flashblock,
 *   `seal()` the rest of the block. Where a test says what a client sees between a flashblock and the seal
 *   (a receipt observed pre-confirmed), it steps explicitly: nothing waits for time to pass.
 * - `liveNode`: the real clock with short intervals (a flashblock every 20 ms, a block every 200 ms), for
 *   clients that poll on their own schedule (cast's receipt wait, ethers' wait() after a miss): they just
 *   work, with their polling intervals set low, and no test sleeps.
 * Both take the revert code (the contract's -32000, or geth's 3). `ws` is the WebSocket URL of the server.
 * `liveNode` also serves, when asked, an endpoint without pre-confirmations (sealed state only).
 */

import type { TestContext } from 'node:test'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import type { NodeApi, NodeListener } from '../../src/node/api.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { testGenesis } from './dev-chain.ts'
import { startNode, type RunningNode } from './server.ts'
import { tempDir } from './temp-dir.ts'

export { probeArtifact } from '../fixtures/probe/index.ts'

export const ZERO_HASH = `0x${'00'.repeat(32)}` as const
export const RECEIVER = '0x00000000000000000000000000000000000000aa' as const

export interface ClientNode {
  readonly running: RunningNode
  /** The facade the endpoint serves: with pre-confirmations, or sealed state only. */
  readonly api: NodeApi
  readonly url: string
  readonly ws: string
}

export interface SteppedNode extends ClientNode {
  /** One flashblock: what the pool holds is pre-confirmed. */
  step(): Promise<void>
  /** The rest of the open block's flashblocks: it is sealed. */
  seal(): Promise<void>
}

const wsOf = (url: string): string => url.replace(/^http/, 'ws')

export async function steppedNode(t: TestContext, revertCode = -32000): Promise<SteppedNode> {
  const clock = new ManualScheduler(Date.now())
  const perBlock = DEFAULT_SEQUENCER.flashblocksPerBlock
  const running = await startNode(t, tempDir(t), testGenesis(), { sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock } }, revertCode)
  await running.node.start()
  const sequencer = running.node.sequencer!
  let index = 0
  const tick = async () => {
    clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs)
    await sequencer.idle()
    index = (index + 1) % perBlock
  }
  return {
    running,
    api: running.node.api,
    url: running.url,
    ws: wsOf(running.url),
    step: tick,
    seal: async () => {
      do await tick()
      while (index !== 0)
    },
  }
}

/** On the real clock; `preconfirmations: false` serves the endpoint without them (sealed state only). */
export async function liveNode(t: TestContext, revertCode = -32000, preconfirmations = true): Promise<ClientNode> {
  const running = await startNode(
    t,
    tempDir(t),
    testGenesis(),
    { sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', flashblockIntervalMs: 20, flashblocksPerBlock: 10 } },
    revertCode,
    preconfirmations,
  )
  await running.node.start()
  const api = preconfirmations ? running.node.api : running.node.sealedApi
  return { running, api, url: running.url, ws: wsOf(running.url) }
}

/** Resolves as `promise` does, or fails after `ms` naming `what` (a client callback that never came). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

/**
 * The node's event listeners, seen through its facade (NodeApi.subscribe): a subscription or filter adds one
 * when it is created and stops it when it ends. `until` waits (bounded) for a condition on the open ones,
 * re-checked at each change: so a test knows a client's watcher is in place before it sends, and that its
 * filters are uninstalled before the server stops, without sleeping.
 */
export function trackListeners(node: ClientNode): { readonly open: ReadonlySet<NodeListener>; until(what: string, done: () => boolean): Promise<void> } {
  const api = node.api
  const subscribe = api.subscribe.bind(api)
  const open = new Set<NodeListener>()
  let changed: () => void = () => {}
  api.subscribe = (listener) => {
    const stop = subscribe(listener)
    open.add(listener)
    changed()
    return () => {
      open.delete(listener)
      stop()
      changed()
    }
  }
  return {
    open,
    async until(what, done) {
      while (!done()) await within(new Promise<void>((resolve) => (changed = resolve)), 30_000, what)
    },
  }
}
