/**
 * SSTORE, LOG0-4 and SELFDESTRUCT: the state-changing opcodes whose gas depends on state (all forbidden in a
 * static frame: 'write protection').
 *
 * SSTORE gas and refunds per fork:
 * - before Istanbul: 20000 to set a zero slot, else 5000; clearing a slot refunds 15000.
 * - Istanbul, EIP-2200: halts when gas left ≤ 2300; no-op 800; fresh slot (original = current) 20000 or
 *   5000; dirty slot 800, refunds tracking the original value.
 * - Berlin, EIP-2929: +2100 on a cold slot; the 800 becomes the warm read 100 and 5000 becomes 2900.
 * - London, EIP-3529: clearing refunds 4800 instead of 15000.
 * SELFDESTRUCT: 5000 static from EIP-150 (the loop's), +2600 cold beneficiary (Berlin), +25000 for a new
 * beneficiary (before Spurious Dragon when it does not exist, from it when it is empty and value moves), and
 * the 24000 refund before London when the account was not already destructed.
 */

import { type Frame, chargeFromReserve, chargeWithMemory, GAS_OVERFLOW, OUT_OF_GAS, WRITE_PROTECTION } from './frame-state.ts'
import { memoryEnd } from './memory.ts'
import { addressOf, big, smallWordToNumber } from './words.ts'

const SENTRY_GAS = 2300

export function sstoreOp(f: Frame): string | undefined {
  const s = f.stack
  const sp = f.sp
  const slot = big(s[sp - 1]!)
  const value = big(s[sp - 2]!)
  f.sp = sp - 2
  const host = f.host
  const rules = f.rules
  const address = f.address
  let cost: number
  let refund = 0
  if (rules.istanbul) {
    if (f.gas <= SENTRY_GAS && f.reserve === 0n) return 'out of gas: not enough gas for reentrancy sentry' // geth wraps a gas function's error in ErrOutOfGas
    const berlin = rules.berlin
    cost = berlin && host.accessSlot(address, slot) ? 2100 : 0
    const warmRead = berlin ? 100 : 800
    const reset = berlin ? 2900 : 5000
    const clearRefund = rules.london ? 4800 : 15000
    const current = host.sload(address, slot)
    if (current === value) {
      cost += warmRead
    } else {
      const original = host.originalStorage(address, slot)
      if (original === current) {
        if (original === 0n) {
          cost += 20000
        } else {
          cost += reset
          if (value === 0n) refund += clearRefund
        }
      } else {
        cost += warmRead
        if (original !== 0n) {
          if (current === 0n) refund -= clearRefund
          else if (value === 0n) refund += clearRefund
        }
        if (original === value) refund += original === 0n ? 20000 - warmRead : reset - warmRead
      }
    }
  } else {
    const current = host.sload(address, slot)
    if (current === 0n && value !== 0n) {
      cost = 20000
    } else {
      cost = 5000
      if (current !== 0n && value === 0n) refund = 15000
    }
  }
  if (cost <= f.gas) f.gas -= cost
  else if (chargeFromReserve(f, f.gas, cost) < 0) return OUT_OF_GAS
  if (f.msg.isStatic) return WRITE_PROTECTION
  host.sstore(address, slot, value)
  if (refund !== 0) host.addRefund(refund)
  return undefined
}

export function logOp(f: Frame, topicCount: number): string | undefined {
  const s = f.stack
  const sp = f.sp
  const offset = s[sp - 1]!
  const size = s[sp - 2]!
  const end = memoryEnd(offset, size)
  if (end < 0) return GAS_OVERFLOW
  const length = end === 0 ? 0 : smallWordToNumber(size)
  if (!chargeWithMemory(f, end, 8 * length)) return OUT_OF_GAS
  if (f.msg.isStatic) return WRITE_PROTECTION
  const topics: bigint[] = []
  for (let t = 0; t < topicCount; t++) topics.push(big(s[sp - 3 - t]!))
  f.sp = sp - 2 - topicCount
  const data = length === 0 ? new Uint8Array(0) : f.memory.buffer.slice(smallWordToNumber(offset), end)
  f.host.log(f.address, topics, data)
  return undefined
}

/** Runs SELFDESTRUCT; on success the frame stops (the caller returns success with no output). */
export function selfDestructOp(f: Frame): string | undefined {
  const beneficiary = addressOf(f.stack[f.sp - 1]!)
  f.sp -= 1
  const host = f.host
  const rules = f.rules
  let cost = 0
  if (rules.berlin && host.accessAccount(beneficiary)) cost += 2600
  if (rules.tangerineWhistle) {
    const isNew = rules.spuriousDragon
      ? host.isEmpty(beneficiary) && host.balance(f.address) !== 0n
      : !host.exists(beneficiary)
    if (isNew) cost += 25000
  }
  if (cost <= f.gas) f.gas -= cost
  else if (chargeFromReserve(f, f.gas, cost) < 0) return OUT_OF_GAS
  if (f.msg.isStatic) return WRITE_PROTECTION
  const already = host.selfDestruct(f.address, beneficiary)
  if (!rules.london && !already) host.addRefund(24000)
  return undefined
}
