/**
 * Extends the canonical chain: writes genesis, imports blocks, and (for the sequencer) commits sealed ones.
 *
 * Each block lands in one batch: block bytes, receipts, indexes, state history, trie nodes, then the head,
 * safe and finalized pointers (a single sequencer has instant finality; an imported chain is taken as
 * final). Import stops at the first block that does not check out and leaves the database at the last
 * good block.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import type { ChainStore } from '../chain/chain-store.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { decodeBlock, decodeHeader, decodeOpBlock, splitRlpStream } from '../execution/block-codec.ts'
import { executeBlock, type ExecutedBlock } from '../execution/block-runner.ts'
import { buildGenesis } from '../execution/genesis.ts'
import { InvalidBlockError } from '../execution/header-validation.ts'
import { writeStateHistory } from '../state/state-history.ts'
import { bytesToHex } from '../primitives/hex.ts'

export interface ImportProgress {
  readonly imported: number
  readonly skipped: number
  readonly head: bigint
  /** Blocks in the input, imported or not. */
  readonly total: number
}

export class ChainWriter {
  constructor(
    private readonly kv: KvStore,
    private readonly chain: ChainStore,
    private readonly rules: ChainRules,
  ) {}

  /** Writes a block and moves the pointers, in one batch; `extra` adds to the same batch. */
  commit(executed: ExecutedBlock, extra?: (batch: WriteBatch) => void): void {
    const batch = this.kv.batch()
    extra?.(batch)
    this.chain.writeBlock(batch, executed.stored)
    writeStateHistory(batch, executed.stored.number, executed.diff, executed.root)
    for (const p of ['head', 'safe', 'finalized'] as const) this.chain.setPointer(batch, p, executed.stored.number)
    this.kv.commit(batch)
    this.chain.pointersCommitted()
  }

  /**
   * Writes block 0 if the database is empty; returns its hash. A database that holds block 0 and the genesis
   * it was made from (written in the same batch as that block, and compared with a given genesis by the
   * caller) is not built again: building the genesis state costs seconds and hundreds of MB on a large
   * genesis, at every start. Only a block 0 without its genesis beside it is checked by rebuilding it.
   */
  async initGenesis(build: typeof buildGenesis = buildGenesis): Promise<Uint8Array> {
    const existing = this.chain.headerRlp(0n)
    if (existing !== undefined && this.chain.getMeta('genesis') !== undefined) return decodeHeader(this.rules, existing).hash()
    const genesis = await build(this.rules, this.kv)
    if (existing !== undefined) {
      const stored = decodeHeader(this.rules, existing).hash()
      if (bytesToHex(stored) !== bytesToHex(genesis.stored.hash)) {
        throw new Error(`database holds another chain (genesis ${bytesToHex(stored)}, not ${bytesToHex(genesis.stored.hash)})`)
      }
      return stored
    }
    this.commit(genesis, (batch) => this.chain.putMeta(batch, 'genesis', JSON.stringify(this.rules.genesis)))
    return genesis.stored.hash
  }

  private headHeader(): BlockHeader {
    const head = this.chain.pointer('head')
    if (head === undefined) throw new Error('no genesis: run init first')
    return decodeHeader(this.rules, this.chain.headerRlp(head)!)
  }

  /**
   * Imports concatenated RLP blocks. Blocks already in the chain (same hash) are skipped; a block that does
   * not extend the head or fails a check throws InvalidBlockError after earlier blocks were committed.
   * `onProgress` hears each block once it is imported or skipped; `onExecuted` hears each imported block's
   * gas used and the seconds its execution took (transactions, roots and checks; not the write).
   */
  async importRlp(bytes: Uint8Array, onProgress?: (p: ImportProgress) => void, onExecuted?: (gas: number, seconds: number) => void): Promise<ImportProgress> {
    let imported = 0
    let skipped = 0
    let parent = this.headHeader()
    const blocks = [...splitRlpStream(bytes)]
    const total = blocks.length
    for (const rlp of blocks) {
      // An OP Stack block's deposits (type 0x7e) are not the library's: they come apart, with the block's bytes.
      const opBlock = this.rules.op === undefined ? undefined : decodeOpBlock(this.rules, rlp)
      const block = opBlock?.block ?? decodeBlock(this.rules, rlp)
      const n = block.header.number
      const known = this.chain.numberOfHash(block.hash())
      if (known !== undefined) {
        skipped++
        onProgress?.({ imported, skipped, head: parent.number, total })
        continue
      }
      if (n !== parent.number + 1n) {
        throw new InvalidBlockError(n, `does not extend the head (block ${parent.number})`)
      }
      const started = onExecuted === undefined ? 0 : performance.now()
      const executed = await executeBlock(this.rules, this.kv, this.chain, block, parent, opBlock === undefined ? undefined : { deposits: opBlock.deposits, blockRlp: rlp })
      onExecuted?.(Number(block.header.gasUsed), (performance.now() - started) / 1000)
      this.commit(executed)
      parent = block.header
      imported++
      onProgress?.({ imported, skipped, head: n, total })
    }
    return { imported, skipped, head: parent.number, total }
  }
}
