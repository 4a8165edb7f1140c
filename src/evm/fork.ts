/**
 * The rules of one fork, as the EVM needs them: cumulative flags, one per fork the node runs (Frontier to
 * Osaka), from which every gas constant and behaviour switch is derived where it is used.
 *
 * A flag is true for its fork and every later one, so code asks `rules.berlin` ("EIP-2929 applies"), never
 * "is the fork exactly X". Constantinople is run as Petersburg (EIP-1283 is never applied): no chain the node
 * runs activates Constantinople without Petersburg, and the state-test corpus's post-states are Cancun's.
 * Block-level rules (withdrawals, the beacon-root and history system calls, the blob fee schedule) are the
 * caller's: the EVM receives their results through BlockEnv.
 *
 * On an OP Stack chain the rules also carry `op` (OpRules): the OP forks that change what the EVM does, as
 * op-geth's core/vm has them. The EVM never learns the OP fork schedule, only these flags, set by the caller
 * (execution/evm-env.ts) from the block's OP fork; an Ethereum chain's rules have no `op` and run as before.
 */

export const FORK_NAMES = [
  'frontier',
  'homestead',
  'tangerineWhistle', // EIP-150
  'spuriousDragon', // EIP-155/158/160/161/170
  'byzantium',
  'constantinople', // as Petersburg
  'istanbul',
  'berlin',
  'london',
  'paris', // the merge
  'shanghai',
  'cancun',
  'prague',
  'osaka',
] as const

export type ForkName = (typeof FORK_NAMES)[number]

export interface Rules {
  readonly name: ForkName
  /** EIP-2 (a contract creation that cannot pay for its code fails; s ≤ n/2), EIP-7 DELEGATECALL. */
  readonly homestead: boolean
  /** EIP-150: all but one 64th of gas to a call, IO-heavy repricing (SLOAD 200, CALL 700, BALANCE 400, EXTCODE* 700, SELFDESTRUCT 5000). */
  readonly tangerineWhistle: boolean
  /** EIP-155 replay protection, EIP-160 EXP 50 per byte, EIP-161 state clearing, EIP-170 code size limit. */
  readonly spuriousDragon: boolean
  /** EIP-140 REVERT, EIP-211 RETURNDATA*, EIP-214 STATICCALL, EIP-196/197/198 precompiles, EIP-658 status. */
  readonly byzantium: boolean
  /** EIP-145 shifts, EIP-1014 CREATE2, EIP-1052 EXTCODEHASH (no EIP-1283: Petersburg). */
  readonly constantinople: boolean
  /** EIP-1884, EIP-2200 SSTORE, EIP-1344 CHAINID, SELFBALANCE, EIP-2028 calldata 16, EIP-152 BLAKE2F, EIP-1108. */
  readonly istanbul: boolean
  /** EIP-2929 warm/cold access, EIP-2930 access lists, EIP-2565 MODEXP pricing. */
  readonly berlin: boolean
  /** EIP-1559 fees, EIP-3198 BASEFEE, EIP-3529 smaller refunds (no SELFDESTRUCT refund), EIP-3541 no 0xEF code. */
  readonly london: boolean
  /** EIP-4399: DIFFICULTY reads PREVRANDAO. */
  readonly paris: boolean
  /** EIP-3855 PUSH0, EIP-3860 initcode limit and cost, EIP-3651 warm coinbase. */
  readonly shanghai: boolean
  /** EIP-1153 TLOAD/TSTORE, EIP-5656 MCOPY, EIP-4844 BLOBHASH and blob transactions, EIP-7516 BLOBBASEFEE, EIP-6780 SELFDESTRUCT. */
  readonly cancun: boolean
  /** EIP-7702 set-code transactions, EIP-7623 calldata floor, EIP-2537 BLS12-381 precompiles. */
  readonly prague: boolean
  /** EIP-7939 CLZ, EIP-7951 P256VERIFY, EIP-7823/7883 MODEXP bounds and pricing, EIP-7825 transaction gas cap. */
  readonly osaka: boolean
  /** The OP Stack's EVM rules on an OP Stack chain from Bedrock; absent on Ethereum. */
  readonly op?: OpRules
}

/**
 * The OP forks whose EVM differs (op-geth core/vm/contracts.go): the others (Regolith, Canyon, Delta,
 * Ecotone, Holocene) change block and transaction rules only, which are the caller's. In activation order;
 * `bedrock` stands for any OP fork before Fjord.
 */
export const OP_EVM_FORK_NAMES = ['bedrock', 'fjord', 'granite', 'isthmus', 'jovian'] as const

export type OpEvmForkName = (typeof OP_EVM_FORK_NAMES)[number]

/**
 * Cumulative flags like the Ethereum ones. From Fjord op-geth replaces Ethereum's precompile set by the OP
 * fork's own (precompiles/op-stack.ts): which one applies is decided by the OP fork, not by `osaka` & co.
 */
export interface OpRules {
  readonly name: OpEvmForkName
  /** RIP-7212 P256VERIFY at 0x100 (3450 gas); the OP fork's precompile set replaces Ethereum's. */
  readonly fjord: boolean
  /** bn256Pairing (0x08) input limited to 112687 bytes. */
  readonly granite: boolean
  /** The EIP-2537 BLS12-381 precompiles, MSM and pairing inputs limited. */
  readonly isthmus: boolean
  /** Tighter limits on the bn256 pairing and the BLS12-381 MSM and pairing inputs. */
  readonly jovian: boolean
}

const cache = new Map<string, Rules>()

/** The rules of a fork, with `op` on an OP Stack chain (one frozen object per combination, shared). */
export function rulesFor(name: ForkName, op?: OpEvmForkName): Rules {
  const key = op === undefined ? name : `${name}/${op}`
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const at = FORK_NAMES.indexOf(name)
  if (at < 0) throw new Error(`unknown fork ${name}`)
  const opAt = op === undefined ? -1 : OP_EVM_FORK_NAMES.indexOf(op)
  if (op !== undefined && opAt < 0) throw new Error(`unknown OP fork ${op}`)
  const opFrom = (fork: OpEvmForkName): boolean => opAt >= OP_EVM_FORK_NAMES.indexOf(fork)
  const from = (fork: ForkName): boolean => at >= FORK_NAMES.indexOf(fork)
  const rules: Rules = Object.freeze({
    name,
    homestead: from('homestead'),
    tangerineWhistle: from('tangerineWhistle'),
    spuriousDragon: from('spuriousDragon'),
    byzantium: from('byzantium'),
    constantinople: from('constantinople'),
    istanbul: from('istanbul'),
    berlin: from('berlin'),
    london: from('london'),
    paris: from('paris'),
    shanghai: from('shanghai'),
    cancun: from('cancun'),
    prague: from('prague'),
    osaka: from('osaka'),
    ...(op === undefined
      ? {}
      : { op: Object.freeze({ name: op, fjord: opFrom('fjord'), granite: opFrom('granite'), isthmus: opFrom('isthmus'), jovian: opFrom('jovian') }) }),
  })
  cache.set(key, rules)
  return rules
}
