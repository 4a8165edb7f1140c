/**
 * The OP Stack part of a geth-format genesis, as op-geth names it (params/config.go): the `optimism` section
 * (`eip1559Elasticity`, `eip1559Denominator`, `eip1559DenominatorCanyon`) and the fork switches beside the
 * Ethereum ones: `bedrockBlock` (a block number) and `regolithTime` … `jovianTime` (timestamps).
 *
 * Owns: reading those keys strictly (non-negative integers, forks in activation order) and the one question
 * "which OP fork runs at this block". A genesis without an `optimism` section is an Ethereum chain: `parse`
 * answers undefined and nothing here is consulted again.
 *
 * op-geth keeps no `deltaTime` (Delta changes nothing in execution); one given is read and ordered like the
 * others, one absent is skipped (later forks still imply its rules, as forks.ts has it). Bedrock is active
 * from `bedrockBlock`; a chain whose Bedrock has not come (or is not scheduled) runs no OP rule at that block.
 */

import { OP_FORK_NAMES, type OpForkName } from './forks.ts'

export interface OpEip1559Params {
  readonly elasticity: bigint
  readonly denominator: bigint
  /** The denominator from Canyon; required when Canyon is scheduled (op-geth panics without it). */
  readonly denominatorCanyon: bigint | undefined
}

export interface OpChainConfig {
  readonly eip1559: OpEip1559Params
  readonly bedrockBlock: bigint | undefined
  /** Activation times of the timed forks (regolith …), absent when not scheduled. */
  readonly times: Readonly<Partial<Record<Exclude<OpForkName, 'bedrock'>, bigint>>>
}

/** The genesis config key of each timed OP fork. */
const TIME_KEYS: readonly (readonly [Exclude<OpForkName, 'bedrock'>, string])[] = OP_FORK_NAMES.filter(
  (name): name is Exclude<OpForkName, 'bedrock'> => name !== 'bedrock',
).map((name) => [name, `${name}Time`] as const)

/** Thrown for an `optimism` section or OP fork schedule this node cannot run. */
export class OpChainConfigError extends Error {
  constructor(message: string) {
    super(`invalid OP Stack chain config: ${message}`)
    this.name = 'OpChainConfigError'
  }
}

function nonNegativeInteger(value: unknown, key: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value)
  throw new OpChainConfigError(`${key} must be a non-negative integer, got ${JSON.stringify(value)}`)
}

const optional = (config: Record<string, unknown>, key: string): bigint | undefined =>
  config[key] === undefined || config[key] === null ? undefined : nonNegativeInteger(config[key], key)

/** The OP configuration of a genesis `config` object, or undefined for an Ethereum chain (no `optimism` section). */
export function parseOpChainConfig(config: Record<string, unknown>): OpChainConfig | undefined {
  const section = config.optimism
  if (section === undefined || section === null) return undefined
  if (typeof section !== 'object' || Array.isArray(section)) throw new OpChainConfigError('optimism must be an object')
  const op = section as Record<string, unknown>
  const elasticity = nonNegativeInteger(op.eip1559Elasticity, 'optimism.eip1559Elasticity')
  const denominator = nonNegativeInteger(op.eip1559Denominator, 'optimism.eip1559Denominator')
  const denominatorCanyon = optional(op, 'eip1559DenominatorCanyon')
  if (elasticity === 0n) throw new OpChainConfigError('optimism.eip1559Elasticity must not be 0')
  if (denominator === 0n) throw new OpChainConfigError('optimism.eip1559Denominator must not be 0')
  const times: Partial<Record<Exclude<OpForkName, 'bedrock'>, bigint>> = {}
  for (const [name, key] of TIME_KEYS) {
    const time = optional(config, key)
    if (time !== undefined) times[name] = time
  }
  if (times.canyon !== undefined && (denominatorCanyon === undefined || denominatorCanyon === 0n)) {
    throw new OpChainConfigError('Canyon is scheduled but optimism.eip1559DenominatorCanyon is missing or 0')
  }
  // Every scheduled fork needs each earlier one (Delta aside) scheduled no later.
  let previous: { name: string; time: bigint } | undefined
  for (const [name] of TIME_KEYS) {
    const time = times[name]
    if (time === undefined) {
      if (name !== 'delta' && TIME_KEYS.some(([later]) => OP_FORK_NAMES.indexOf(later) > OP_FORK_NAMES.indexOf(name) && times[later] !== undefined)) {
        throw new OpChainConfigError(`${name}Time is missing but a later OP fork is scheduled`)
      }
      continue
    }
    if (previous !== undefined && time < previous.time) {
      throw new OpChainConfigError(`${name}Time ${time} is before ${previous.name}Time ${previous.time}`)
    }
    previous = { name, time }
  }
  return { eip1559: { elasticity, denominator, denominatorCanyon }, bedrockBlock: optional(config, 'bedrockBlock'), times }
}

/** The OP fork a block with this number and timestamp runs, or undefined before Bedrock. */
export function opForkAt(config: OpChainConfig, number: bigint, timestamp: bigint): OpForkName | undefined {
  if (config.bedrockBlock === undefined || number < config.bedrockBlock) return undefined
  let fork: OpForkName = 'bedrock'
  for (const [name] of TIME_KEYS) {
    const time = config.times[name]
    if (time !== undefined && time <= timestamp) fork = name
  }
  return fork
}

/** True when `fork` is scheduled and active at `timestamp` (op-geth's Is<Fork>(time)). */
export function opForkActiveAt(config: OpChainConfig, fork: Exclude<OpForkName, 'bedrock'>, timestamp: bigint): boolean {
  const time = config.times[fork]
  return time !== undefined && time <= timestamp
}

/** The Ethereum fork each of these OP forks implies, by genesis key (op-geth activates them together). */
const IMPLIED_ETHEREUM_FORKS: readonly (readonly [string, string])[] = [
  ['shanghaiTime', 'canyonTime'],
  ['cancunTime', 'ecotoneTime'],
  ['pragueTime', 'isthmusTime'],
]

/**
 * op-geth's check of a genesis file's OP chain config at genesis setup (op-geth PR #587, params
 * CheckOptimismValidity): Canyon, Ecotone and Isthmus imply Shanghai, Cancun and Prague, so each pair is
 * scheduled at the same time or both absent. Undefined when the config holds, else what is wrong. Chains this
 * node builds itself satisfy it; it is asked of genesis files only (as op-geth asks it of custom genesis files).
 */
export function impliedForkTimesError(config: Record<string, unknown>): string | undefined {
  if (config.optimism === undefined || config.optimism === null) return undefined
  for (const [ethereum, op] of IMPLIED_ETHEREUM_FORKS) {
    const e = optional(config, ethereum)
    const o = optional(config, op)
    if (e !== o) return `${ethereum} (${e ?? 'absent'}) must equal ${op} (${o ?? 'absent'})`
  }
  return undefined
}
