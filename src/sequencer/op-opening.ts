/**
 * The sequencer's OP Stack duties when it opens a block (sequencer/block-opening.ts): the SequencerFeeVault as
 * coinbase, Holocene's extraData from the chain's EIP-1559 parameters (from Jovian its 17-byte form with the
 * minimum base fee: the configured one, else the parent's carried forward, else 0, the system config's
 * default), and the block's leading deposits.
 *
 * The L1-attributes deposit comes first. Its origin is the dev chain's fake L1 (opstack/dev-l1-origin.ts),
 * advanced from what the parent's L1Block holds; its fee values are the configured ones where given, else the
 * parent's L1Block values carried forward (so a chain keeps the values of its genesis, or of its last
 * configuration, across restarts). Then come the user deposits sent through the development method, in the
 * order they were sent, each with a source hash from a fake L1 block named after the L2 block it was sent for
 * and its position among those (the "log index"), so every deposit's hash is unique and known at once.
 * Queued deposits are kept in the node's store (deposit-queue.ts) from before their hash is answered until
 * the write that journals the block opening with them, which deletes them from the queue: a deposit queued at
 * a crash is still queued after it, an included one is in the journal, so a restart resumes the same block.
 * A sequencer group's leader keeps them on the group's brokers instead (`useKeeping`, deposit-keeping.ts):
 * the hash is answered once a quorum holds the deposit, and the keeper forgets it once the opening that
 * includes it is acknowledged by the replicated stream.
 *
 * The first block of Ecotone, Fjord, Isthmus and Jovian after genesis carries the fork's network-upgrade deposits where
 * op-node places them, after the user deposits (opstack/upgrade-deposits.ts); like every deposit they are part
 * of the opening (flashblock index 0), and followers and import execute and check them as any deposit. Such a
 * block takes no pool transaction (op-node's noTxPool) and no queued user deposit (they wait one block), so
 * nothing can take the gas its upgrade needs.
 *
 * Refused, so no block differs from op-geth's silently: a block after a pre-Regolith parent (its
 * L1-attributes deposit is a system transaction, l1-info-deposit.ts).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainRules } from '../execution/chain-config.ts'
import { decodeEip1559ExtraData, encodeHoloceneExtraData, encodeJovianExtraData } from '../opstack/base-fee.ts'
import { opForkActiveAt, type OpChainConfig } from '../opstack/chain-config.ts'
import { depositTransactionHash, encodeDepositTransaction, userDepositSourceHash } from '../opstack/deposit-tx.ts'
import { devDepositL1Hash, nextDevL1Origin } from '../opstack/dev-l1-origin.ts'
import type { OpForkName } from '../opstack/forks.ts'
import { L1_BLOCK_ADDRESS, l1BlockValues } from '../opstack/l1-block-storage.ts'
import { L1_INFO_DEPOSIT_GAS, l1InfoDepositEnvelope, type L1FeeValues } from '../opstack/l1-info-deposit.ts'
import { SEQUENCER_FEE_VAULT_ADDRESS } from '../opstack/predeploy-addresses.ts'
import { upgradeDepositsAt, upgradesAt } from '../opstack/upgrade-deposits.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { readStorageWord } from '../state/state-reader.ts'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import type { BlockOpening, DepositRequest } from './block-opening.ts'
import { DepositQueue } from './deposit-queue.ts'
import { DepositNotKept, type DepositKeeping } from './deposit-keeping.ts'

/**
 * The L1 and system-config values a sequencer's configuration may set (each one absent: the parent's carried
 * forward): the L1Block values of the L1-attributes deposit, and Jovian's minimum base fee (extraData).
 */
export type L1ValueOverrides = Partial<Omit<L1FeeValues, 'batcherHash'> & { readonly minBaseFee: bigint }>

const EMPTY = new Uint8Array(0)

export class OpOpening implements BlockOpening {
  private readonly op: OpChainConfig
  private readonly coinbase = hexToBytes(SEQUENCER_FEE_VAULT_ADDRESS)
  /** Queued user deposits, in the order they were sent (durable: deposit-queue.ts, or replicated). */
  private queued: DepositKeeping
  private offered = 0

  constructor(
    private readonly rules: ChainRules,
    private readonly kv: KvStore,
    private readonly overrides: L1ValueOverrides = {},
  ) {
    if (rules.op === undefined) throw new Error('OpOpening on a chain without an optimism section')
    this.op = rules.op
    this.queued = new DepositQueue(kv)
    if (overrides.minBaseFee !== undefined && (overrides.minBaseFee < 0n || overrides.minBaseFee >= 1n << 64n)) {
      throw new Error(`the minimum base fee ${overrides.minBaseFee} does not fit 8 bytes`)
    }
  }

  /**
   * Keeps the user deposits with `keeping` rather than in the node's store (a sequencer group's leader),
   * before the sequencer starts.
   */
  useKeeping(keeping: DepositKeeping): void {
    this.queued = keeping
  }

  environment(parent: BlockHeader, timestamp: bigint): { coinbase: Uint8Array; extraData: Uint8Array } {
    if (!opForkActiveAt(this.op, 'holocene', timestamp)) return { coinbase: this.coinbase, extraData: EMPTY }
    const { denominatorCanyon, elasticity } = this.op.eip1559
    const denominator = denominatorCanyon ?? this.op.eip1559.denominator
    if (!opForkActiveAt(this.op, 'jovian', timestamp)) return { coinbase: this.coinbase, extraData: encodeHoloceneExtraData(denominator, elasticity) }
    const carried = opForkActiveAt(this.op, 'jovian', parent.timestamp) ? decodeEip1559ExtraData(parent.extraData, true)?.minBaseFee : undefined
    const minBaseFee = this.overrides.minBaseFee ?? carried ?? 0n
    return { coinbase: this.coinbase, extraData: encodeJovianExtraData(denominator, elasticity, minBaseFee) }
  }

  deposits(parent: BlockHeader, timestamp: bigint): Uint8Array[] {
    const parentFork = this.forkAt(parent.number, parent.timestamp)
    const state = new ArchiveReader(this.kv, parent.number)
    const stored = l1BlockValues((slot) => readStorageWord(state, L1_BLOCK_ADDRESS, slot))
    const { origin, sequenceNumber } = nextDevL1Origin(stored.origin, timestamp)
    const { minBaseFee: _systemConfig, ...l1Values } = this.overrides
    const fees: L1FeeValues = { ...stored.fees, ...l1Values }
    const upgrades = upgradeDepositsAt(this.op, parent.timestamp, timestamp)
    // A fork's first block leaves the queued user deposits to the next one: none can crowd out its upgrade.
    const waiting = upgrades.length > 0 ? [] : this.queued.waiting.map((q) => q.envelope)
    this.offered = waiting.length
    const upgradeGas = upgrades.reduce((sum, d) => sum + d.gas, 0n)
    if (upgrades.length > 0 && L1_INFO_DEPOSIT_GAS + upgradeGas > parent.gasLimit) {
      // Never a fork's first block without its whole upgrade: the chain would part from op-node's.
      throw new Error(`block ${parent.number + 1n}'s network-upgrade deposits need ${upgradeGas} gas beside the L1-attributes deposit: more than the gas limit ${parent.gasLimit}`)
    }
    return [l1InfoDepositEnvelope(parentFork, origin, sequenceNumber, fees), ...waiting, ...upgrades.map(encodeDepositTransaction)]
  }

  depositsOnly(parent: BlockHeader, timestamp: bigint): boolean {
    return upgradesAt(this.op, parent.timestamp, timestamp)
  }

  included(batch: WriteBatch, count: number): void {
    // The user deposits sit between the L1-attributes deposit and any upgrade deposits: at most `offered`.
    const users = Math.min(Math.max(0, count - 1), this.offered)
    this.queued.taken(batch, users)
    this.offered = 0
  }

  acknowledged(): void {
    this.queued.acknowledged()
  }

  async queue(request: DepositRequest, openNumber: bigint, gasLimit: bigint): Promise<Uint8Array> {
    if (request.from.length !== 20) throw new Error('deposit from must be 20 bytes')
    if (request.to !== null && request.to.length !== 20) throw new Error('deposit to must be 20 bytes or null')
    if (request.gas + L1_INFO_DEPOSIT_GAS > gasLimit) {
      throw new Error(`deposit gas ${request.gas} does not fit a block beside the L1-attributes deposit (block gas limit ${gasLimit})`)
    }
    const forBlock = openNumber + 1n
    const build = (logIndex: bigint): Uint8Array =>
      encodeDepositTransaction({
        sourceHash: userDepositSourceHash(devDepositL1Hash(forBlock), logIndex),
        from: request.from,
        to: request.to,
        mint: request.mint,
        value: request.value,
        gas: request.gas,
        isSystemTx: false,
        data: request.data,
      })
    let last: Uint8Array | undefined
    try {
      const kept = await this.queued.keep(forBlock, (logIndex) => (last = build(logIndex)))
      return depositTransactionHash(kept.envelope)
    } catch (err) {
      if (last === undefined) throw err
      throw new DepositNotKept(depositTransactionHash(last), { cause: err })
    }
  }

  private forkAt(number: bigint, timestamp: bigint): OpForkName {
    const fork = this.rules.opFork(number, timestamp)
    if (fork === undefined) throw new Error(`block ${number} is before Bedrock: no OP block can follow it here`)
    return fork
  }
}
