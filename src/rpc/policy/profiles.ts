/**
 * Endpoint profiles: what a kind of endpoint serves, refuses and limits. Pure data plus one filter.
 *
 * - `dedicated` (the default, for local use and trusted clients): every method the node serves, no rate
 *   limit unless one is configured.
 * - `public` (an endpoint on the internet): only the public namespaces `eth_`, `net_`, `web3_` and `base_`
 *   are served, so development and operator methods (`evm_mine`, `flashnode_*`, and any `debug_`, `admin_`,
 *   `anvil_`… added later) answer -32601 without needing to be listed; eth_getBlockReceipts is refused with
 *   HTTP 403 (the service contract: it needs a dedicated node); and a per-client rate limit applies by
 *   default (100 requests per second per IP, bursts of up to 1000: ten seconds' worth, one full batch).
 *
 * Whatever the profile, a node without pre-confirmations does not serve eth_simulateV1 (the contract: it is
 * available on pre-confirmation endpoints only), so it answers -32601 there.
 */

import { defaultBurst, type RateLimit } from './rate-limiter.ts'

export const PROFILE_NAMES = ['dedicated', 'public'] as const
export type ProfileName = (typeof PROFILE_NAMES)[number]

export const DEFAULT_PROFILE: ProfileName = 'dedicated'

export interface Profile {
  readonly name: ProfileName
  /** Namespaces (the part of a method name before its first `_`) served; absent: every namespace. */
  readonly namespaces?: readonly string[]
  /** Methods the node has but this profile refuses with HTTP 403. */
  readonly forbidden: readonly string[]
  /** The rate limit when the endpoint configures none; absent: no limit. */
  readonly rateLimit?: RateLimit
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = Object.freeze({
  dedicated: { name: 'dedicated', forbidden: [] },
  public: {
    name: 'public',
    namespaces: ['eth', 'net', 'web3', 'base'],
    forbidden: ['eth_getBlockReceipts'],
    rateLimit: { requestsPerSecond: 100, burst: defaultBurst(100) },
  },
})

/** Methods served only by a node with pre-confirmations (the contract: eth_simulateV1). */
export const PRECONFIRMATION_ONLY: readonly string[] = ['eth_simulateV1']

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value)
}

const namespaceOf = (method: string): string => {
  const underscore = method.indexOf('_')
  return underscore < 0 ? method : method.slice(0, underscore)
}

/** Whether `profile` serves `method` (that the node has it aside). Forbidden methods are not served. */
export function serves(profile: Profile, method: string, preconfirmations: boolean): boolean {
  if (!preconfirmations && PRECONFIRMATION_ONLY.includes(method)) return false
  if (profile.forbidden.includes(method)) return false
  return profile.namespaces === undefined || profile.namespaces.includes(namespaceOf(method))
}
