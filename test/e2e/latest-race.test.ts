/**
 * Reads while blocks seal, on execution workers: eth_call and eth_simulateV1 at `latest` (and eth_call at
 * `pending`) hammered through viem while the sequencer seals block after block, each with one 1-wei transfer
 * to RECEIVER. Every answer must be a result (never -32603 for a block the node announced), and the state
 * of the block it ran at: the probe contract returns NUMBER and RECEIVER's balance, and at block k RECEIVER
 * holds k wei (a simulation's block is latest + 1 on latest's state, so k - 1; `pending` is the open block
 * k + 1 on block k's state, or, while a seal computes its roots, block k + 1 with its transfer pre-confirmed).
 *
 * Two clients keep the workers busy with spins (a fresh sender's account read, then milliseconds of work that
 * read nothing), so jobs naming a just-sealed block reach a worker that began reading before the seal: a
 * worker that reads through an older view of the database than the block it was given fails either check.
 *
 * Bounded: SEALS blocks; after each seal the sealer waits (for answers, not for time) until READS_PER_BLOCK
 * reads were answered, so every block is read whatever the machine's speed; CLIENTS requests in flight.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createPublicClient, http, hexToBigInt, pad, slice, type Hex } from 'viem'
import { testGenesis, signedTx } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const PROBE = '0x0000000000000000000000000000000000000b0b' as const
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
/** NUMBER at memory 0, BALANCE(calldata word 0) at memory 32, returns both (extra calldata is ignored). */
const PROBE_CODE = '0x436000526000353160205260406000f3'
/** The BLAKE2F precompile with 2^15 rounds: tens of milliseconds of work that read no state (never yields). */
const BLAKE2F = '0x0000000000000000000000000000000000000009' as const
const SPIN_INPUT = `0x${(2 ** 15).toString(16).padStart(8, '0')}${'00'.repeat(208)}01` as Hex
const SEALS = 40
const READS_PER_BLOCK = 3
const CLIENTS = 8
const SPINNERS = 2

const KINDS = ['eth_call', 'eth_simulateV1', 'eth_call (pending)'] as const
type Kind = (typeof KINDS)[number]

test('eth_call and eth_simulateV1 at latest on execution workers while blocks seal: every answer is the announced block', { timeout: 300_000 }, async (t) => {
  const genesis = testGenesis() as unknown as { alloc: Record<string, unknown> }
  genesis.alloc[PROBE] = { balance: '0x0', code: PROBE_CODE }
  const running = await startNode(t, tempDir(t), genesis as unknown as GethGenesis, {
    executionWorkers: 2,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  const { node } = running
  await node.start()
  const client = createPublicClient({ chain: VIEM_DEV_CHAIN, transport: http(running.url, { retryCount: 0, timeout: 120_000 }) })

  const failures: string[] = []
  const wrong: string[] = []
  const answered = new Map<Kind | 'spin', number>()
  let sealing = true
  let n = 0
  const calldata = (): Hex => `${pad(RECEIVER)}${(n++).toString(16).padStart(8, '0')}` as Hex

  // Reads answered since the last seal, and the sealer's wait for enough of them.
  let readsSinceSeal = 0
  let enoughReads: (() => void) | undefined
  const counted = (kind: Kind | 'spin'): void => {
    answered.set(kind, (answered.get(kind) ?? 0) + 1)
    if (kind !== 'spin' && ++readsSinceSeal >= READS_PER_BLOCK) enoughReads?.()
  }

  /** NUMBER and balance from the probe; the balance must be NUMBER minus one of `offsets`. */
  const check = (result: Hex, offsets: readonly bigint[], kind: Kind): void => {
    const number = hexToBigInt(slice(result, 0, 32))
    const balance = hexToBigInt(slice(result, 32, 64))
    if (!offsets.some((o) => balance === number - o)) wrong.push(`${kind}: NUMBER ${number} with RECEIVER balance ${balance}`)
  }

  const failed = (kind: string, e: unknown): void => {
    const err = e as { code?: number; details?: string; message: string }
    failures.push(`${kind}: ${err.code} ${err.details ?? err.message}`)
  }

  const spin = async (): Promise<void> => {
    while (sealing) {
      const from = `0x${randomBytes(20).toString('hex')}` as Hex
      try {
        await client.request({ method: 'eth_call', params: [{ from, to: BLAKE2F, data: SPIN_INPUT }, 'latest'] })
        counted('spin')
      } catch (e) {
        failed('eth_call (spin)', e)
      }
    }
  }

  /** Each client goes round the three kinds of read. */
  const hammer = async (i: number): Promise<void> => {
    for (let round = i; sealing; round++) {
      const kind = KINDS[round % KINDS.length]!
      try {
        if (kind === 'eth_simulateV1') {
          const blocks = (await client.request({
            method: 'eth_simulateV1' as never,
            params: [{ blockStateCalls: [{ calls: [{ to: PROBE, data: calldata() }] }] }, 'latest'] as never,
          })) as { calls: { returnData: Hex }[] }[]
          check(blocks[0]!.calls[0]!.returnData, [1n], kind)
        } else if (kind === 'eth_call') {
          check(await client.request({ method: 'eth_call', params: [{ to: PROBE, data: calldata() }, 'latest'] }), [0n], kind)
        } else {
          check(await client.request({ method: 'eth_call', params: [{ to: PROBE, data: calldata() }, 'pending'] }), [0n, 1n], kind)
        }
        counted(kind)
      } catch (e) {
        failed(kind, e)
        counted(kind)
      }
    }
  }

  const sealer = async (): Promise<void> => {
    try {
      for (let k = 1n; k <= BigInt(SEALS); k++) {
        await node.api.sendRawTransaction(signedTx(node, 0, k - 1n, { to: RECEIVER, value: 1n, gasLimit: 21_000n }).serialize())
        await node.api.mine()
        assert.equal(node.chain.head(), k)
        readsSinceSeal = 0
        await new Promise<void>((resolve) => (enoughReads = resolve))
      }
    } finally {
      sealing = false
    }
  }

  await Promise.all([sealer(), ...Array.from({ length: SPINNERS }, spin), ...Array.from({ length: CLIENTS - SPINNERS }, (_, i) => hammer(i))])
  console.log(`${SEALS} seals; answered ${JSON.stringify(Object.fromEntries(answered))}; ${failures.length} errors, ${wrong.length} wrong states`)
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} requests failed`)
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} answers read another block's state`)
  for (const kind of KINDS) assert.ok((answered.get(kind) ?? 0) >= SEALS / 2, `${kind} was read while blocks sealed`)
})
