/**
 * CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE and CREATE2: pricing per fork, the message to the host,
 * and what comes back (the success flag or the new address, the return data buffer, returned gas).
 *
 * Call pricing: the static base (40, 700 from EIP-150, the warm 100 from Berlin) is the dispatch loop's; here
 * come memory expansion over both ranges, the cold surcharge (Berlin), the EIP-7702 delegate's access
 * (Prague), 9000 for value and 25000 for a new account (CALL only: before Spurious Dragon when the callee
 * does not exist, from it when value moves to an empty callee). Then the callee's gas: before EIP-150 the
 * requested gas, which must be available; from it at most all but one 64th of what is left. A value call
 * adds the 2300 stipend for free. All of it on the exact total when the frame has a gas reserve (frame-state.ts).
 * Create pricing: 32000 static, memory, EIP-3860 initcode words (2 each, and the 49152-byte limit halts),
 * CREATE2's hashing (6 per word); the child gets all gas (all but one 64th from EIP-150).
 */

import { type Frame, addReturnedGas, chargeWithMemory, setTotalGas, splitGas, totalGas, EMPTY_BYTES, GAS_OVERFLOW, OUT_OF_GAS, WRITE_PROTECTION, wordCount } from './frame-state.ts'
import { forgetWords, memoryEnd } from './memory.ts'
import { MessageKind, Status, type Message } from './types.ts'
import { addressOf, big, canon, smallWordToNumber } from './words.ts'

const CALL_VALUE_GAS = 9000
const CALL_STIPEND = 2300
const NEW_ACCOUNT_GAS = 25000
const MAX_INITCODE_SIZE = 49152

export function callOp(f: Frame, op: number): string | undefined {
  const s = f.stack
  const sp = f.sp
  const host = f.host
  const rules = f.rules
  const msg = f.msg
  const requested = s[sp - 1]!
  const to = addressOf(s[sp - 2]!)
  const hasValue = op === 0xf1 || op === 0xf2
  let i = sp - 3
  let value = 0n
  if (hasValue) value = big(s[i--]!)
  const inOffset = s[i]!
  const inSize = s[i - 1]!
  const outOffset = s[i - 2]!
  const outSize = s[i - 3]!
  const resultAt = i - 3

  const inEnd = memoryEnd(inOffset, inSize)
  const outEnd = memoryEnd(outOffset, outSize)
  if (inEnd < 0 || outEnd < 0) return GAS_OVERFLOW
  let cost = 0
  if (rules.berlin && host.accessAccount(to)) cost += f.forkGas.coldAccountExtra
  if (rules.prague) {
    const delegate = host.delegationTarget(to)
    if (delegate !== undefined) cost += host.accessAccount(delegate) ? 2600 : 100
  }
  const transfers = value !== 0n
  if (transfers) cost += CALL_VALUE_GAS
  if (op === 0xf1 && (rules.spuriousDragon ? transfers && host.isEmpty(to) : !host.exists(to))) cost += NEW_ACCOUNT_GAS
  if (!chargeWithMemory(f, Math.max(inEnd, outEnd), cost)) return OUT_OF_GAS
  let callGas: number
  let callReserve: bigint | undefined
  if (f.reserve === 0n) {
    const available = f.gas
    if (rules.tangerineWhistle) {
      const cap = available - Math.floor(available / 64)
      // (a requested word and a number compare by value, whichever form the word has)
      callGas = requested < cap ? smallWordToNumber(requested) : cap
    } else {
      if (requested > available) return OUT_OF_GAS
      callGas = smallWordToNumber(requested)
    }
    f.gas = available - callGas
    if (transfers) callGas += CALL_STIPEND
  } else {
    // more than 2^53 - 1 gas: the same rules on the exact total
    const available = totalGas(f)
    let given: bigint
    if (rules.tangerineWhistle) {
      const cap = available - available / 64n
      given = requested < cap ? big(requested) : cap
    } else {
      if (requested > available) return OUT_OF_GAS
      given = big(requested)
    }
    setTotalGas(f, available - given)
    const split = splitGas(transfers ? given + BigInt(CALL_STIPEND) : given)
    callGas = split.gas
    callReserve = split.reserve
  }
  if (op === 0xf1 && transfers && msg.isStatic) return WRITE_PROTECTION

  const memory = f.memory
  // The callee's input is a view of this frame's memory, not a copy: this frame is suspended, its memory
  // untouched, for as long as the callee runs, and nothing keeps a message's input past its call (the
  // identity precompile returns a copy). A copy of more than 64 bytes is an off-heap buffer, ~1 µs.
  const input = inEnd === 0 ? EMPTY_BYTES : memory.buffer.subarray(smallWordToNumber(inOffset), inEnd)
  const address = f.address
  let sub: Message
  switch (op) {
    case 0xf1:
      sub = { kind: MessageKind.Call, caller: address, recipient: to, codeAddress: to, value, transfersValue: true, input, gas: callGas, depth: msg.depth + 1, isStatic: msg.isStatic }
      break
    case 0xf2:
      sub = { kind: MessageKind.CallCode, caller: address, recipient: address, codeAddress: to, value, transfersValue: true, input, gas: callGas, depth: msg.depth + 1, isStatic: msg.isStatic }
      break
    case 0xf4:
      sub = { kind: MessageKind.DelegateCall, caller: msg.caller, recipient: address, codeAddress: to, value: msg.value, transfersValue: false, input, gas: callGas, depth: msg.depth + 1, isStatic: msg.isStatic }
      break
    default:
      sub = { kind: MessageKind.StaticCall, caller: address, recipient: to, codeAddress: to, value: 0n, transfersValue: false, input, gas: callGas, depth: msg.depth + 1, isStatic: true }
  }
  if (callReserve !== undefined) sub = { ...sub, gasReserve: callReserve }
  const result = host.call(sub)
  addReturnedGas(f, result)
  s[resultAt] = result.status === Status.Success ? 1 : 0
  f.sp = resultAt + 1
  const output = result.output
  if (output.length > 0 && outEnd > 0) {
    const at = smallWordToNumber(outOffset)
    const n = Math.min(output.length, outEnd - at)
    forgetWords(memory, at, at + n)
    memory.buffer.set(n === output.length ? output : output.subarray(0, n), at)
  }
  f.returnData = output
  return undefined
}

export function createOp(f: Frame, op: number): string | undefined {
  const s = f.stack
  const sp = f.sp
  const rules = f.rules
  const msg = f.msg
  const isCreate2 = op === 0xf5
  const value = big(s[sp - 1]!)
  const offset = s[sp - 2]!
  const size = s[sp - 3]!
  const salt = isCreate2 ? big(s[sp - 4]!) : undefined
  const resultAt = isCreate2 ? sp - 4 : sp - 3

  const end = memoryEnd(offset, size)
  if (end < 0) return GAS_OVERFLOW
  const length = end === 0 ? 0 : smallWordToNumber(size)
  let cost = 0
  if (rules.shanghai) {
    if (length > MAX_INITCODE_SIZE) return `max initcode size exceeded: size ${length}`
    cost += 2 * wordCount(length)
  }
  if (isCreate2) cost += 6 * wordCount(length)
  if (!chargeWithMemory(f, end, cost)) return OUT_OF_GAS
  if (msg.isStatic) return WRITE_PROTECTION

  const input = length === 0 ? EMPTY_BYTES : f.memory.buffer.slice(smallWordToNumber(offset), end)
  let childGas: number
  let childReserve: bigint | undefined
  if (f.reserve === 0n) {
    const available = f.gas
    childGas = rules.tangerineWhistle ? available - Math.floor(available / 64) : available
    f.gas = available - childGas
  } else {
    const available = totalGas(f)
    const given = rules.tangerineWhistle ? available - available / 64n : available
    setTotalGas(f, available - given)
    const split = splitGas(given)
    childGas = split.gas
    childReserve = split.reserve
  }
  let sub: Message = {
    kind: isCreate2 ? MessageKind.Create2 : MessageKind.Create,
    caller: f.address,
    recipient: 0n,
    codeAddress: 0n,
    value,
    transfersValue: true,
    input,
    gas: childGas,
    depth: msg.depth + 1,
    isStatic: false,
    salt,
  }
  if (childReserve !== undefined) sub = { ...sub, gasReserve: childReserve }
  const result = f.host.create(sub)
  addReturnedGas(f, result)
  s[resultAt] = result.status === Status.Success && result.createdAddress !== undefined ? canon(result.createdAddress) : 0
  f.sp = resultAt + 1
  f.returnData = result.status === Status.Revert ? result.output : EMPTY_BYTES
  return undefined
}
