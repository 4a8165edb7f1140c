/**
 * The OP Stack's own forks, in activation order, as the OP rule modules of this folder ask for them.
 *
 * Owns: the fork names and the one question "is fork X active when the chain runs fork Y" (a later fork
 * carries every earlier one's rules, as on every real OP chain). It never maps timestamps to forks: the chain
 * configuration that will choose the active fork per block belongs to the node's integration, not here.
 * Canyon, Delta, Granite and Holocene change nothing these modules compute; they are named so a configuration
 * can say them.
 */

export const OP_FORK_NAMES = [
  'bedrock',
  'regolith',
  'canyon',
  'delta',
  'ecotone',
  'fjord',
  'granite',
  'holocene',
  'isthmus',
  'jovian',
] as const

export type OpForkName = (typeof OP_FORK_NAMES)[number]

const RANK: ReadonlyMap<OpForkName, number> = new Map(OP_FORK_NAMES.map((name, i) => [name, i]))

/** True when `fork`'s rules apply on a chain running `active` (the same fork or a later one). */
export function opForkActive(active: OpForkName, fork: OpForkName): boolean {
  return RANK.get(active)! >= RANK.get(fork)!
}

export function isOpForkName(name: string): name is OpForkName {
  return RANK.has(name as OpForkName)
}
