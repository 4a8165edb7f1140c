/**
 * A snapshot's wire form: its state and environment (state.ts, PreconfirmedState) as plain data that
 * structured clone carries to another thread (accounts as RLP, maps as entry lists, the header as RLP), and
 * back. An execution worker holds the newest one as its replica; `version` names the snapshot it came from.
 */

import type { Account } from '@ethereumjs/util'
import { decodeAccount } from '../state/account-rlp.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { decodeHeader } from '../execution/block-codec.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'
import { preconfirmedState, type PreconfirmedState } from './state.ts'

export interface WireSnapshot {
  readonly version: number
  readonly parentNumber: bigint
  readonly parentStateRoot: Uint8Array
  readonly headerRlp: Uint8Array
  /** Gas and blob gas the pre-confirmed transactions used (a simulation's base header carries them). */
  readonly gasUsed: bigint
  readonly blobGasUsed: bigint
  readonly accounts: [string, Uint8Array | null][]
  readonly storage: [string, [string, Uint8Array][]][]
  readonly wiped: string[]
  readonly codes: [string, Uint8Array][]
}

export function snapshotToWire(s: PreconfirmedSnapshot, version: number): WireSnapshot {
  const p = preconfirmedState(s)
  return {
    version,
    parentNumber: p.parentNumber,
    parentStateRoot: p.parentStateRoot,
    headerRlp: p.header.serialize(),
    gasUsed: p.gasUsed,
    blobGasUsed: p.blobGasUsed,
    accounts: [...p.diff.accounts].map(([k, a]) => [k, a === null ? null : a.serialize()]),
    storage: [...p.diff.storage].map(([k, slots]) => [k, [...slots]]),
    wiped: [...p.diff.wiped],
    codes: [...p.diff.codes],
  }
}

function diffFromWire(w: WireSnapshot): StateDiff {
  return {
    accounts: new Map<string, Account | null>(w.accounts.map(([k, a]) => [k, a === null ? null : decodeAccount(a)])),
    storage: new Map(w.storage.map(([k, slots]) => [k, new Map(slots)])),
    wiped: new Set(w.wiped),
    codes: new Map(w.codes),
  }
}

/** The state a wire snapshot carries (its header decoded under `rules`). */
export function stateFromWire(w: WireSnapshot, rules: ChainRules): PreconfirmedState {
  return {
    header: decodeHeader(rules, w.headerRlp),
    gasUsed: w.gasUsed,
    blobGasUsed: w.blobGasUsed,
    parentNumber: w.parentNumber,
    parentStateRoot: w.parentStateRoot,
    diff: diffFromWire(w),
  }
}
