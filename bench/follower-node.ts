/**
 * A follower process (`flashnode start --follow URL`) of a sequencer the runner started, in a fresh data
 * directory with the same genesis, on loopback; for the scenarios that measure one (follower, soak-follower).
 * It owns the follower's directory and removes it on cleanup; it never touches the sequencer.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { until } from '../test/support/follower-kit.ts'
import type { BenchChain } from './genesis.ts'
import { freePort, startFlashnode, type RunningNode } from './nodes.ts'

export interface StartedFollower {
  readonly node: RunningNode
  /** Stops the follower and removes its directory. */
  cleanup(): Promise<void>
}

/** A follower of `sequencer` (same genesis as `chain`); stopped and removed by the caller's `cleanup`. */
export async function startFollower(chain: BenchChain, sequencer: RunningNode, extraArgs: string[] = []): Promise<StartedFollower> {
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-follower-'))
  const genesisPath = join(dir, 'genesis.json')
  writeFileSync(genesisPath, JSON.stringify(chain.genesis))
  const node = await startFlashnode({ genesisPath, port: await freePort(), datadir: join(dir, 'data'), extraArgs: ['--follow', sequencer.url.replace(/\/$/, ''), '--log-level', 'warn', ...extraArgs] })
  return {
    node,
    cleanup: async () => {
      await node.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves once the follower's /readyz answers 200 (it has caught up with its sequencer). */
export async function followerReady(url: string): Promise<void> {
  await until('the follower to be ready', async () => ((await fetch(`${url.replace(/\/$/, '')}/readyz`)).status === 200 ? true : undefined), 120_000)
}
