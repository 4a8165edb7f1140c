/**
 * The pre-confirmation journal: what makes a pre-confirmation a promise.
 *
 * Before a flashblock becomes visible, its new transactions (as raw bytes) are written durably under the
 * open block's number and the flashblock index; the block's environment goes in the same batch as its
 * first such flashblock. A flashblock without transactions is not written: it carries nothing to replay,
 * and an idle node would otherwise wait on a disk sync five times a second. Reading back, indices missing
 * between journaled flashblocks are those empty ones, so replay keeps the numbering.
 * The batch that seals the block deletes its journal, atomically; a deposed group leader discards its open
 * block's journal (sequencer.ts). After a crash the node reads the journal
 * back and re-executes the same transactions in the same order on the same environment, which reproduces
 * the same receipts; then it carries on.
 *
 * On an OP Stack chain the block's leading deposits (its opening: the L1-attributes deposit and user deposits)
 * are pre-confirmed with the opening itself, so the environment is written at once, with them as an eighth
 * item (an Ethereum chain's entry keeps its seven); replay runs them before the flashblocks.
 *
 * Key layout (storage/keys.ts 'j'): j | blockNumber(8) | index(4). Index 0 holds the environment.
 */

import { RLP } from '@ethereumjs/rlp'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys, readU32, u32, u64 } from '../storage/keys.ts'
import type { BlockEnvironment } from '../execution/block-builder.ts'
import { bytesToBigInt } from '../primitives/hex.ts'

export interface JournaledBlock {
  readonly number: bigint
  readonly parentHash: Uint8Array
  readonly env: BlockEnvironment
  /** Raw transactions of flashblocks 1..n, in order (empty for a flashblock that had none). */
  readonly flashblocks: Uint8Array[][]
  /** The deposits' envelopes that open the block (OP Stack; undefined on an Ethereum chain). */
  readonly deposits?: Uint8Array[] | undefined
}

const big = (n: bigint): Uint8Array => {
  if (n === 0n) return new Uint8Array(0)
  let hex = n.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

export class FlashblockJournal {
  constructor(private readonly kv: KvStore) {}

  private key(number: bigint, index: number): Uint8Array {
    return keys.journal(u64(number), u32(index))
  }

  /** `deposits`: an OP Stack block's leading deposits (absent on an Ethereum chain). */
  writeOpen(batch: WriteBatch, number: bigint, parentHash: Uint8Array, env: BlockEnvironment, deposits?: readonly Uint8Array[]): void {
    const fields: (Uint8Array | Uint8Array[])[] = [parentHash, big(env.timestamp), env.coinbase, big(env.gasLimit), env.extraData, env.prevRandao, env.parentBeaconBlockRoot]
    if (deposits !== undefined) fields.push([...deposits])
    batch.put(this.key(number, 0), RLP.encode(fields))
  }

  writeFlashblock(batch: WriteBatch, number: bigint, index: number, rawTxs: readonly Uint8Array[]): void {
    // One exact-size buffer: the library's encoder copies each of a busy flashblock's ~1,000 transactions twice.
    batch.put(this.key(number, index), encodeRlp(rawTxs))
  }

  /** Deletes the journal of `number` (in the sealing batch). */
  clear(batch: WriteBatch, number: bigint, flashblocks: number): void {
    for (let i = 0; i <= flashblocks; i++) batch.del(this.key(number, i))
  }

  /**
   * Deletes whatever is journaled of `number` (environment and every flashblock), when the number of
   * flashblocks is not known: a deposed leader's open block, or a journal about to be rebuilt from the
   * replicated stream at a takeover.
   */
  discard(batch: WriteBatch, number: bigint): void {
    for (const entry of this.kv.range(this.key(number, 0), this.key(number + 1n, 0))) batch.del(entry.key)
  }

  read(number: bigint): JournaledBlock | undefined {
    const open = this.kv.get(this.key(number, 0))
    if (open === undefined) return undefined
    const f = RLP.decode(open) as (Uint8Array | Uint8Array[])[] as Uint8Array[]
    const env: BlockEnvironment = {
      timestamp: bytesToBigInt(f[1]!),
      coinbase: f[2]!,
      gasLimit: bytesToBigInt(f[3]!),
      extraData: f[4]!,
      prevRandao: f[5]!,
      parentBeaconBlockRoot: f[6]!,
    }
    const flashblocks: Uint8Array[][] = []
    for (const entry of this.kv.range(this.key(number, 1), this.key(number + 1n, 0))) {
      const index = readU32(entry.key, entry.key.length - 4)
      while (flashblocks.length + 1 < index) flashblocks.push([])
      flashblocks.push(RLP.decode(entry.value) as Uint8Array[])
    }
    const deposits = (f as unknown[])[7] as Uint8Array[] | undefined
    return { number, parentHash: f[0]!, env, flashblocks, ...(deposits !== undefined ? { deposits } : {}) }
  }
}
