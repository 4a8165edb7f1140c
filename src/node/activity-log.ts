/**
 * What the node tells its log as it works: every sealed block at info (number, transactions, gas, the time
 * its flashblocks took to build and the seal's own time), every flashblock at debug, a skipped tick and a
 * transaction dropped from the pool (with why) at warn. A reader of the feed and the pool's events, and a
 * SequencerObserver for the timings; nothing on a request's path.
 */

import { bytesToHex } from '../primitives/hex.ts'
import type { Logger } from '../primitives/logger.ts'
import type { PreconfirmedFeed, SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { SequencerObserver } from '../sequencer/sequencer.ts'
import type { TxPool } from '../txpool/pool.ts'

const ms = (seconds: number): number => Math.round(seconds * 10_000) / 10

export class ActivityLog implements SequencerObserver {
  private buildSeconds = 0
  private lastBuildSeconds = 0
  private sealSeconds = 0

  constructor(
    private readonly log: Logger,
    feed: PreconfirmedFeed,
    pool: TxPool | undefined,
  ) {
    feed.on('flashblock', (snapshot) => this.flashblock(snapshot))
    feed.on('sealed', (block) => this.sealedBlock(block))
    pool?.events.on('dropped', (hash, reason) => {
      if (reason !== 'included' && reason !== 'replaced') this.log.warn({ hash, reason }, 'transaction dropped from the pool')
    })
  }

  flashblockBuilt(seconds: number): void {
    this.buildSeconds += seconds
    this.lastBuildSeconds = seconds
  }

  journalWritten(): void {}

  sealed(seconds: number): void {
    this.sealSeconds = seconds
  }

  tickSkipped(): void {
    this.log.warn({ lastBuildMs: ms(this.lastBuildSeconds) }, 'flashblock tick skipped: the previous flashblock was still being built')
  }

  private flashblock(snapshot: PreconfirmedSnapshot): void {
    this.log.debug(
      {
        block: Number(snapshot.header.number),
        index: snapshot.index,
        transactions: snapshot.transactions.length - snapshot.firstNew,
        gasUsed: Number(snapshot.gasUsed),
        buildMs: ms(this.lastBuildSeconds),
      },
      'flashblock',
    )
  }

  private sealedBlock(block: SealedBlock): void {
    const header = block.header
    this.log.info(
      {
        block: Number(header.number),
        hash: bytesToHex(header.hash()),
        transactions: block.last.transactions.length,
        gasUsed: Number(header.gasUsed),
        flashblocks: block.last.index,
        buildMs: ms(this.buildSeconds),
        sealMs: ms(this.sealSeconds),
      },
      'block sealed',
    )
    this.buildSeconds = 0
  }
}

/** One observer that tells each of `observers`. */
export function allObservers(...observers: SequencerObserver[]): SequencerObserver {
  return {
    flashblockBuilt: (s, gas) => observers.forEach((o) => o.flashblockBuilt(s, gas)),
    journalWritten: (s) => observers.forEach((o) => o.journalWritten(s)),
    sealed: (s) => observers.forEach((o) => o.sealed(s)),
    tickSkipped: () => observers.forEach((o) => o.tickSkipped()),
  }
}
