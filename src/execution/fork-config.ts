/**
 * EIP-7910 (eth_config): the configuration of the fork in force at a time, as geth assembles it. Owns the
 * fork schedule's reading for that purpose: which timed forks the genesis schedules (current: the latest
 * active at the head's timestamp; next: the first scheduled after it; last: the latest scheduled, given only
 * when a next exists), each fork's activation time (0 when active at genesis), blob schedule (the rules' own
 * target, max and update fraction; none before Cancun), chain id, EIP-2124 fork id (CRC32 of the genesis
 * hash and every block fork, then every timed fork after genesis up to that time), the active precompiles by
 * geth's names, and the system contracts by their EIP constant names.
 *
 * On an OP Stack chain, as Base's node answers it (base/base crates/execution/rpc/src/config.rs, its
 * BaseEthConfigHandler over reth's): the timed forks are the Ethereum and OP ones alike (every `…Time` key,
 * as above), the precompiles the OP fork's set (P256VERIFY from Fjord), the blob schedule zeroed in every fork
 * (target, max and update fraction 0: the chain takes no blob transactions), and the system contracts only
 * those the OP chain has: the beacon roots contract from Ecotone and the history storage contract from
 * Isthmus, never the deposit contract nor the EIP-7002/7251 request queues (the OP chain processes no
 * requests).
 *
 * A chain with no timed fork active has no `current` (geth's answer would be empty there too). Never: state
 * or chain reads (the caller gives the genesis hash and the head), JSON (rpc/ formats it).
 */

import type { ChainRules } from './chain-config.ts'
import { rulesOf } from './evm-env.ts'
import { precompileAddresses } from '../evm/precompiles/registry.ts'
import { SYSTEM_CONTRACTS } from '../evm/system-contracts.ts'
import { opForkActiveAt } from '../opstack/chain-config.ts'

export interface BlobScheduleEntry {
  readonly target: number
  readonly max: number
  readonly baseFeeUpdateFraction: number
}

export interface ForkConfig {
  /** Seconds; 0 for a fork active at genesis. */
  readonly activationTime: bigint
  readonly blobSchedule: BlobScheduleEntry | null
  readonly chainId: bigint
  /** 4 bytes (EIP-2124 FORK_HASH). */
  readonly forkId: Uint8Array
  /** geth's precompile name -> address (20 bytes, lower-case hex). */
  readonly precompiles: Readonly<Record<string, string>>
  readonly systemContracts: Readonly<Record<string, string>>
}

export interface EthConfig {
  readonly current: ForkConfig | null
  readonly next: ForkConfig | null
  readonly last: ForkConfig | null
}

/** geth's precompile names (PrecompiledContract.Name()), by address. */
const PRECOMPILE_NAMES: Readonly<Record<string, string>> = {
  '1': 'ECREC',
  '2': 'SHA256',
  '3': 'RIPEMD160',
  '4': 'ID',
  '5': 'MODEXP',
  '6': 'BN254_ADD',
  '7': 'BN254_MUL',
  '8': 'BN254_PAIRING',
  '9': 'BLAKE2F',
  '10': 'KZG_POINT_EVALUATION',
  '11': 'BLS12_G1ADD',
  '12': 'BLS12_G1MSM',
  '13': 'BLS12_G2ADD',
  '14': 'BLS12_G2MSM',
  '15': 'BLS12_PAIRING_CHECK',
  '16': 'BLS12_MAP_FP_TO_G1',
  '17': 'BLS12_MAP_FP2_TO_G2',
  '256': 'P256VERIFY',
}

const address = (n: bigint): string => `0x${n.toString(16).padStart(40, '0')}`
const systemAddress = (eip: string): string => SYSTEM_CONTRACTS.find((c) => c.name.startsWith(`EIP-${eip} `))!.address
const GAS_PER_BLOB = 131_072n
/** Base's blob schedule on an OP chain: no blob capacity. */
const NO_BLOBS: BlobScheduleEntry = { target: 0, max: 0, baseFeeUpdateFraction: 0 }

/** The timed forks of a genesis config, in activation order (geth reads every `…Time` field). */
function timedForks(config: Record<string, unknown>): { name: string; time: bigint }[] {
  const out: { name: string; time: bigint }[] = []
  for (const [key, value] of Object.entries(config)) {
    if (key.endsWith('Time') && typeof value === 'number') out.push({ name: key.slice(0, -4), time: BigInt(value) })
  }
  return out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
}

/** The block-numbered forks (every `…Block` field), non-zero, distinct, ascending: EIP-2124's first list. */
function blockForks(config: Record<string, unknown>): bigint[] {
  const set = new Set<bigint>()
  for (const [key, value] of Object.entries(config)) if (key.endsWith('Block') && typeof value === 'number' && value > 0) set.add(BigInt(value))
  return [...set].sort((a, b) => (a < b ? -1 : 1))
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC32 (IEEE) continued from `crc` over `bytes`, as Go's crc32.Update. */
function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return ~c >>> 0
}

const uint64 = (n: bigint): Uint8Array => {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, n)
  return out
}

/** EIP-2124's FORK_HASH of a chain at `time`, every block fork passed (geth's eth_config asks at head = 2^64-1). */
export function forkHash(genesisHash: Uint8Array, blockForkNumbers: readonly bigint[], timedForkTimes: readonly bigint[], genesisTime: bigint, time: bigint): Uint8Array {
  let crc = crc32(0, genesisHash)
  for (const n of blockForkNumbers) crc = crc32(crc, uint64(n))
  const seen = new Set<bigint>()
  for (const t of timedForkTimes) {
    if (t <= genesisTime || t > time || seen.has(t)) continue
    seen.add(t)
    crc = crc32(crc, uint64(t))
  }
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, crc)
  return out
}

export interface ChainPoint {
  readonly genesisHash: Uint8Array
  readonly genesisTime: bigint
  readonly headNumber: bigint
  readonly headTime: bigint
}

export function ethConfig(rules: ChainRules, at: ChainPoint): EthConfig {
  const config = rules.genesis.config as unknown as Record<string, unknown>
  const timed = timedForks(config)
  const blocks = blockForks(config)
  const times = timed.map((f) => f.time)
  const assemble = (time: bigint | undefined): ForkConfig | null => {
    if (time === undefined) return null
    const common = rules.at(at.headNumber, time)
    const evm = rulesOf(common, rules.opFork(at.headNumber, time))
    const precompiles: Record<string, string> = {}
    for (const a of precompileAddresses(evm)) precompiles[PRECOMPILE_NAMES[a.toString(10)]!] = address(a)
    const systemContracts: Record<string, string> = {}
    const op = rules.op
    if (op !== undefined) {
      if (opForkActiveAt(op, 'ecotone', time)) systemContracts.BEACON_ROOTS_ADDRESS = systemAddress('4788')
      if (opForkActiveAt(op, 'isthmus', time)) systemContracts.HISTORY_STORAGE_ADDRESS = systemAddress('2935')
    } else if (evm.cancun) systemContracts.BEACON_ROOTS_ADDRESS = systemAddress('4788')
    if (op === undefined && evm.prague) {
      systemContracts.CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS = systemAddress('7251')
      const deposit = config.depositContractAddress
      systemContracts.DEPOSIT_CONTRACT_ADDRESS = typeof deposit === 'string' ? deposit.toLowerCase() : address(0n)
      systemContracts.HISTORY_STORAGE_ADDRESS = systemAddress('2935')
      systemContracts.WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS = systemAddress('7002')
    }
    let blobSchedule: BlobScheduleEntry | null = op !== undefined ? NO_BLOBS : null
    if (op === undefined && evm.cancun) {
      const s = common.getBlobGasSchedule()
      blobSchedule = {
        target: Number(s.targetBlobGasPerBlock / GAS_PER_BLOB),
        max: Number(s.maxBlobGasPerBlock / GAS_PER_BLOB),
        baseFeeUpdateFraction: Number(s.blobGasPriceUpdateFraction),
      }
    }
    return {
      activationTime: time <= at.genesisTime ? 0n : time,
      blobSchedule,
      chainId: rules.chainId,
      forkId: forkHash(at.genesisHash, blocks, times, at.genesisTime, time),
      precompiles,
      systemContracts,
    }
  }
  const active = timed.filter((f) => f.time <= at.headTime)
  const current = active.at(-1)?.time
  const next = timed.find((f) => f.time > at.headTime)?.time
  const last = next === undefined ? undefined : timed.at(-1)!.time
  return { current: assemble(current), next: assemble(next), last: assemble(last) }
}
