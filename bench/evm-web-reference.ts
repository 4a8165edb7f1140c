/**
 * The in-process reference for the contract-web row (bench/evm-web.ts): the same calls run through our EVM
 * directly (src/evm/, as bench/evm-calls.ts does), one after the other on one world state, as one simulated
 * block runs them, with an observer counting the frames each call enters and the frames that were undone
 * (reverted or halted). The contracts read nothing of the block, the sender or the gas left (they forward
 * it all), so the block environment here need not match a peer's: only the code, storage and calldata decide
 * what a call returns, logs and uses.
 *
 * `compareWebAnswer` holds a peer's eth_simulateV1 answer against it: per call the status, gasUsed, returnData
 * and logs (address, topics, data), every difference named.
 */

import { Account } from '@ethereumjs/util'
import { rulesFor } from '../src/evm/fork.ts'
import type { FrameObserver } from '../src/evm/observer.ts'
import { executeTransaction } from '../src/evm/transaction.ts'
import { MessageKind, Status, type BlockEnv, type FrameResult, type Message, type TxInput } from '../src/evm/types.ts'
import { WorldState } from '../src/evm/world-state.ts'
import { bigIntToMinimalBytes, bytesToBigInt, bytesToHex, hexToBytes } from '../src/primitives/hex.ts'
import { keccak256 } from '../src/primitives/keccak.ts'
import type { StateReader } from '../src/state/state-reader.ts'
import type { WebContract } from './evm-web.ts'

export interface WebLog {
  readonly address: string
  readonly topics: readonly string[]
  readonly data: string
}

export interface WebCallOutcome {
  /** '0x1' success, '0x0' failure, as eth_simulateV1 writes it. */
  readonly status: string
  readonly gasUsed: bigint
  readonly returnData: string
  readonly logs: readonly WebLog[]
  /** Frames the call entered, its own included. */
  readonly frames: number
  /** Frames whose changes were undone (a revert, or a halt). */
  readonly undone: number
  /** Frames entered by CALL, STATICCALL and DELEGATECALL (the call's own frame not counted). */
  readonly kinds: { readonly call: number; readonly staticcall: number; readonly delegatecall: number }
}

const hexWord = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`
const hexAddress = (v: bigint): string => `0x${v.toString(16).padStart(40, '0')}`

function baseOf(web: readonly WebContract[]): StateReader {
  const byAddress = new Map(web.map((c) => [c.address, c]))
  const byHash = new Map(web.map((c) => [bytesToHex(keccak256(c.code)), c.code]))
  return {
    getAccount(address) {
      const c = byAddress.get(bytesToBigInt(address))
      return c === undefined ? undefined : new Account(0n, 0n, undefined, keccak256(c.code))
    },
    getStorage(address, slot) {
      const v = byAddress.get(bytesToBigInt(address))?.storage.get(bytesToBigInt(slot))
      return v === undefined ? new Uint8Array(0) : bigIntToMinimalBytes(v)
    },
    getCode: (hash) => byHash.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
}

const BLOCK: BlockEnv = {
  number: 1n, timestamp: 1n, coinbase: 0xc0b0c0b0n, gasLimit: 1n << 40n, baseFee: 0n, difficulty: 0n, prevRandao: 0n,
  blobBaseFee: 1n, maxBlobGasPerBlock: 0n, chainId: 31337n, blockHash: () => 0n,
}

class FrameCounter implements FrameObserver {
  frames = 0
  undone = 0
  readonly kinds = { call: 0, staticcall: 0, delegatecall: 0 }
  enter(msg: Message): void {
    if (this.frames++ === 0) return
    if (msg.kind === MessageKind.Call) this.kinds.call++
    else if (msg.kind === MessageKind.StaticCall) this.kinds.staticcall++
    else if (msg.kind === MessageKind.DelegateCall) this.kinds.delegatecall++
  }
  exit(result: FrameResult): void {
    if (result.status !== Status.Success) this.undone++
  }
  log(): void {}
  selfDestruct(): void {}
}

/** Runs `calls` (calldata in hex, a gas limit each) from `from`, in order, on one state: the web's. */
export function runWebReference(web: readonly WebContract[], from: bigint, calls: readonly { to: bigint; data: string; gas: bigint }[]): WebCallOutcome[] {
  const world = new WorldState(baseOf(web))
  const rules = rulesFor('prague')
  return calls.map((c, i) => {
    const tx: TxInput = { type: 2, from, nonce: BigInt(i), gasLimit: c.gas, to: c.to, value: 0n, data: hexToBytes(c.data), maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }
    const counter = new FrameCounter()
    const r = executeTransaction(world, BLOCK, rules, tx, { skipNonceCheck: true, skipFeeCharge: true, skipBaseFeeCheck: true, skipTxGasCap: true, observer: counter })
    return {
      status: r.status === Status.Success ? '0x1' : '0x0',
      gasUsed: r.gasUsed,
      returnData: bytesToHex(r.output),
      logs: r.logs.map((l) => ({ address: hexAddress(l.address), topics: l.topics.map(hexWord), data: bytesToHex(l.data) })),
      frames: counter.frames,
      undone: counter.undone,
      kinds: counter.kinds,
    }
  })
}

interface PeerCall {
  status?: string
  gasUsed?: string
  returnData?: string
  logs?: { address?: string; topics?: string[]; data?: string }[]
}

/** The differences between a peer's eth_simulateV1 answer (one block) and the reference; empty when equal. */
export function compareWebAnswer(want: readonly WebCallOutcome[], answer: unknown): string[] {
  if (!Array.isArray(answer) || answer.length !== 1) return [`expected one simulated block, got ${JSON.stringify(answer).slice(0, 120)}`]
  const calls = (answer[0] as { calls?: PeerCall[] }).calls
  if (!Array.isArray(calls) || calls.length !== want.length) return [`expected ${want.length} call results, got ${JSON.stringify(calls).slice(0, 120)}`]
  const diffs: string[] = []
  want.forEach((w, i) => {
    const got = calls[i]!
    if (got.status !== w.status) diffs.push(`call ${i}: status ${got.status}, expected ${w.status}`)
    if (got.gasUsed === undefined || BigInt(got.gasUsed) !== w.gasUsed) diffs.push(`call ${i}: gasUsed ${got.gasUsed}, expected 0x${w.gasUsed.toString(16)} (${w.gasUsed})`)
    if (got.returnData?.toLowerCase() !== w.returnData) diffs.push(`call ${i}: returnData ${got.returnData?.slice(0, 140)}, expected ${w.returnData.slice(0, 140)}`)
    const logs = got.logs ?? []
    if (logs.length !== w.logs.length) diffs.push(`call ${i}: ${logs.length} logs, expected ${w.logs.length}`)
    else {
      const bad = w.logs.findIndex((l, j) => {
        const g = logs[j]!
        return g.address?.toLowerCase() !== l.address || g.data?.toLowerCase() !== l.data || g.topics?.length !== l.topics.length || g.topics.some((t, k) => t.toLowerCase() !== l.topics[k])
      })
      if (bad >= 0) diffs.push(`call ${i}: log ${bad} is ${JSON.stringify(logs[bad]).slice(0, 300)}, expected ${JSON.stringify(w.logs[bad]).slice(0, 300)}`)
    }
  })
  return diffs
}
