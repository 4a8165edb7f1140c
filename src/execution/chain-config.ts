/**
 * Chain rules: a geth-format genesis turned into the EVM library's Common, one per fork, and, for an OP Stack
 * chain (an `optimism` section in the genesis config), its OP configuration and OP fork per block.
 *
 * The library's Common is mutable (setHardforkBy); this module hands out one copy per fork, cached and never switched,
 * so concurrent requests at different blocks never share a mutable object. The geth genesis is kept as
 * given (it is persisted with the chain and is the source of truth on restart).
 *
 * Workaround (library 10.1.3): its blobSchedule parser writes BPO entries under a field its getter does not
 * read, and its built-in BPO values are used instead; the parser breaks on them, so they are removed before
 * parsing. The given values are checked against the built-ins at start-up (checkBlobSchedule).
 *
 * Workaround (library 10.1.3): its fork lookup by timestamp compares the timestamp with itself converted to
 * a float, so a timestamp above 2^53 that the float rounds down (an eth_call block override of time, which
 * geth takes up to 2^64-1) throws "Maximum HF determined by block number is lower than timestamp HF". No
 * fork activates after the last scheduled fork time, so a later timestamp is looked up as that time.
 */

import { Common, createCommonFromGethGenesis, type GethGenesis } from '@ethereumjs/common'
import { paramsBlock } from '@ethereumjs/block'
import { paramsTx } from '@ethereumjs/tx'
import { lazyKzg, nativeEcrecover } from './crypto.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { opForkAt, parseOpChainConfig, type OpChainConfig } from '../opstack/chain-config.ts'
import type { OpForkName } from '../opstack/forks.ts'

export type { GethGenesis }

/**
 * The one parameter the node reads that the block and transaction libraries do not carry: the block reward
 * of a proof-of-work block (eth_simulateV1 on a pre-merge fork), 5 ether, 3 from Byzantium (EIP-649, in
 * its meta-EIP 609), 2 from Constantinople (EIP-1234, in 1013). Importing it from @ethereumjs/vm, with the
 * EVM's parameters beside it, loaded the library's whole VM and EVM at every start and in every thread, for
 * nothing else: our EVM has its own rules (evm/fork.ts).
 */
const paramsBlockReward = {
  1: { minerReward: '5000000000000000000' },
  609: { minerReward: '3000000000000000000' },
  1013: { minerReward: '2000000000000000000' },
}

export class ChainRules {
  private readonly base: Common
  private readonly byFork = new Map<string, Common>()
  private last: { readonly number: bigint; readonly timestamp: bigint; readonly common: Common } | undefined
  /** The latest timestamp at which a fork of this chain activates (0 when none is timed). */
  private readonly lastForkTime: bigint
  readonly chainId: bigint
  /**
   * The OP Stack configuration when the genesis has an `optimism` section (opstack/chain-config.ts), else
   * undefined: an Ethereum chain, on which no OP rule is ever consulted.
   */
  readonly op: OpChainConfig | undefined

  constructor(readonly genesis: GethGenesis) {
    this.op = parseOpChainConfig(genesis.config as unknown as Record<string, unknown>)
    const copy: GethGenesis = JSON.parse(JSON.stringify(genesis))
    const schedule = (copy.config as { blobSchedule?: Record<string, unknown> }).blobSchedule
    if (schedule !== undefined) {
      for (const name of Object.keys(schedule)) if (name.startsWith('bpo')) delete schedule[name]
    }
    this.base = createCommonFromGethGenesis(copy, {
      chain: 'flashnode',
      // The libraries hash (KECCAK256, blooms, transaction and header hashes) through customCrypto.keccak256.
      customCrypto: { ecrecover: nativeEcrecover, kzg: lazyKzg, keccak256 },
    })
    // Each library registers its own parameters on a Common when it first uses it; register them all up front
    // so that any helper (a header's blob gas price, say) works on any cached fork copy.
    for (const params of [paramsBlock, paramsTx, paramsBlockReward]) this.base.updateParams(params)
    // ...and since they are all there, the libraries' own calls (one per transaction and header built, each
    // a JSON deep copy plus a rebuild of the parameter cache: a third of a flashblock's time) have nothing
    // left to add: make them no-ops on this Common and every copy of it.
    Object.assign(this.base, { updateParams: () => undefined })
    this.chainId = this.base.chainId()
    this.lastForkTime = this.base
      .hardforks()
      .reduce((latest, hf) => (hf.timestamp === undefined || hf.timestamp === null || BigInt(hf.timestamp) < latest ? latest : BigInt(hf.timestamp)), 0n)
    this.checkBlobSchedule(genesis)
  }

  /** The removed BPO entries must equal what the library applies for those forks; refuse the chain otherwise. */
  private checkBlobSchedule(genesis: GethGenesis): void {
    const config = genesis.config as unknown as { blobSchedule?: Record<string, { target: number; max: number; baseFeeUpdateFraction: number }> } & Record<string, unknown>
    const GAS_PER_BLOB = 131072n
    for (const [fork, wanted] of Object.entries(config.blobSchedule ?? {})) {
      if (!fork.startsWith('bpo')) continue
      const time = config[`${fork}Time`]
      if (typeof time !== 'number') continue
      const common = this.base.copy()
      common.setHardfork(fork)
      const have = common.getBlobGasSchedule()
      if (
        have.targetBlobGasPerBlock !== BigInt(wanted.target) * GAS_PER_BLOB ||
        have.maxBlobGasPerBlock !== BigInt(wanted.max) * GAS_PER_BLOB ||
        have.blobGasPriceUpdateFraction !== BigInt(wanted.baseFeeUpdateFraction)
      ) {
        throw new Error(`blobSchedule.${fork} differs from the ${fork} rules this node implements`)
      }
    }
  }

  /** The rules in force for a block with this number and timestamp. */
  at(number: bigint, timestamp: bigint): Common {
    // Callers ask for the same block over and over (every submission names the pending block): the library's
    // fork lookup walks the whole schedule, so the last answer is kept.
    const last = this.last
    if (last !== undefined && last.number === number && last.timestamp === timestamp) return last.common
    const fork = this.base.getHardforkBy({ blockNumber: number, timestamp: timestamp > this.lastForkTime ? this.lastForkTime : timestamp })
    let common = this.byFork.get(fork)
    if (common === undefined) {
      common = this.base.copy()
      common.setHardfork(fork)
      memoizeActivation(common)
      this.byFork.set(fork, common)
    }
    this.last = { number, timestamp, common }
    return common
  }

  /** The OP fork of a block with this number and timestamp; undefined on an Ethereum chain and before Bedrock. */
  opFork(number: bigint, timestamp: bigint): OpForkName | undefined {
    return this.op === undefined ? undefined : opForkAt(this.op, number, timestamp)
  }

  /** A private, mutable copy (the VM switches forks on its own Common while importing). */
  mutableCopy(): Common {
    return this.base.copy()
  }
}

/**
 * The library asks `isActivatedEIP` on every opcode and gas computation, and each answer walks the fork
 * list; `gteHardfork` and `getBlobGasSchedule` walk it too (every simulated block asked them 4 times: ~2% of
 * a one-call simulation). Answers are remembered per fork name; copies of this Common (the libraries copy
 * it, and may switch a copy's fork) share the memo safely because it is keyed by the fork they are on.
 * (No code here changes a Common's EIPs or parameters after it is made, which would change the answers.)
 */
function memoizeActivation(common: Common): void {
  const eips = new Map<string, Map<number, boolean>>()
  const forks = new Map<string, Map<string, boolean>>()
  const schedules = new Map<string, ReturnType<Common['getBlobGasSchedule']>>()
  const proto = Common.prototype
  Object.assign(common, {
    isActivatedEIP(this: Common, eip: number): boolean {
      return remembered(eips, this.hardfork(), eip, () => proto.isActivatedEIP.call(this, eip))
    },
    gteHardfork(this: Common, hardfork: string): boolean {
      return remembered(forks, this.hardfork(), hardfork, () => proto.gteHardfork.call(this, hardfork))
    },
    getBlobGasSchedule(this: Common): ReturnType<Common['getBlobGasSchedule']> {
      const fork = this.hardfork()
      let schedule = schedules.get(fork)
      if (schedule === undefined) schedules.set(fork, (schedule = Object.freeze(proto.getBlobGasSchedule.call(this))))
      return schedule
    },
  })
}

/** The answer for `key` under `fork`, computed once. */
function remembered<K>(memo: Map<string, Map<K, boolean>>, fork: string, key: K, compute: () => boolean): boolean {
  let known = memo.get(fork)
  if (known === undefined) memo.set(fork, (known = new Map()))
  let v = known.get(key)
  if (v === undefined) known.set(key, (v = compute()))
  return v
}
