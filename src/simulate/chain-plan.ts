/**
 * The shape of a simulated chain before anything runs: request limits, block numbers and timestamps.
 *
 * - Limits (checked before the base block is even looked up, as geth does): at least one block, at most
 *   `maxBlocks` blocks, `maxCallsPerBlock` calls in one block and `maxCalls` in all.
 * - Numbers default to the previous block's + 1, timestamps to the previous block's + 12 s. A number that
 *   skips ahead leaves a gap that is filled with empty blocks (each 12 s after the one before), which
 *   appear in the result. Numbers must increase (-38020), timestamps must increase (-38021), and the
 *   chain may not reach more than `maxBlocks` past its base (-38026).
 *
 * Pure: no state, no library objects.
 */

import type { SimBlockInput, SimBlockOverrides, SimCall, SimulatePayload, SimulateSettings } from './types.ts'
import { SIM_CODES, simError, tooManyBlocks } from './errors.ts'
import type { AccountOverride } from '../state/account-overrides.ts'

export const TIMESTAMP_INCREMENT = 12n

/** A block of the simulated chain, with its number and time decided. */
export interface PlannedBlock {
  readonly number: bigint
  readonly time: bigint
  readonly overrides: SimBlockOverrides
  readonly stateOverrides: ReadonlyMap<string, AccountOverride> | undefined
  readonly calls: readonly SimCall[]
}

export function checkLimits(payload: SimulatePayload, limits: Pick<SimulateSettings, 'maxBlocks' | 'maxCallsPerBlock' | 'maxCalls'>): void {
  const blocks = payload.blockStateCalls
  if (blocks.length === 0) throw simError(SIM_CODES.invalidParams, 'empty input')
  if (blocks.length > limits.maxBlocks) throw tooManyBlocks()
  let total = 0
  for (const block of blocks) {
    const n = block.calls.length
    if (n > limits.maxCallsPerBlock) {
      throw simError(SIM_CODES.clientLimitExceeded, `too many calls in block: ${n} > ${limits.maxCallsPerBlock}`)
    }
    total += n
    if (total > limits.maxCalls) throw simError(SIM_CODES.clientLimitExceeded, `too many calls: ${total} > ${limits.maxCalls}`)
  }
}

export function planChain(blocks: readonly SimBlockInput[], base: { number: bigint; timestamp: bigint }, maxBlocks: number): PlannedBlock[] {
  const out: PlannedBlock[] = []
  let prevNumber = base.number
  let prevTime = base.timestamp
  for (const block of blocks) {
    const o = block.blockOverrides ?? {}
    const number = o.number ?? prevNumber + 1n
    if (number <= prevNumber) {
      throw simError(SIM_CODES.blockNumberInvalid, `block numbers must be in order: ${number} <= ${prevNumber}`)
    }
    if (number - base.number > BigInt(maxBlocks)) throw tooManyBlocks()
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ number: n, time: prevTime, overrides: {}, stateOverrides: undefined, calls: [] })
    }
    prevNumber = number
    let time: bigint
    if (o.time === undefined) {
      time = prevTime + TIMESTAMP_INCREMENT
    } else {
      time = o.time
      if (time <= prevTime) throw simError(SIM_CODES.blockTimestampInvalid, `block timestamps must be in order: ${time} <= ${prevTime}`)
    }
    prevTime = time
    out.push({ number, time, overrides: o, stateOverrides: block.stateOverrides, calls: block.calls })
  }
  return out
}
