/**
 * The per-fork tables the dispatch loop reads before every opcode: the static gas of each opcode (-1 when
 * the opcode is not active in the fork: an invalid opcode), the stack depth it needs and the depth it may
 * find (geth's minStack/maxStack), plus the fork's numbers for the dynamic parts of gas.
 *
 * Static gas here is what every execution of the opcode pays before it runs; what depends on operands, on
 * memory or on warm/cold access is added by the opcode itself from the ForkGas numbers. From Berlin on the
 * static gas of an account or slot access is the warm cost (100) and a cold access adds the difference.
 * One frozen ForkGas per Rules object, built on first use.
 */

import type { Rules } from './fork.ts'

export interface ForkGas {
  readonly staticGas: Int32Array
  /** EXP per exponent byte (10, 50 from Spurious Dragon). */
  readonly expByte: number
  /** Extra gas of a cold account access on top of the static (warm) cost: 2500 from Berlin, else 0. */
  readonly coldAccountExtra: number
  /** SLOAD's cold surcharge (2000 from Berlin: 2100 - 100). */
  readonly coldSloadExtra: number
}

/** Pops and pushes of each opcode (pops 0/pushes 0 for undefined ones). */
const pops = new Uint8Array(256)
const pushes = new Uint8Array(256)
/** geth's minStack and maxStack: underflow when depth < minStack, overflow when depth > maxStack. */
export const MIN_STACK = new Uint8Array(256)
export const MAX_STACK = new Int16Array(256)

function io(op: number, pop: number, push: number): void {
  pops[op] = pop
  pushes[op] = push
}

// 0x00
io(0x00, 0, 0)
for (const op of [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b]) io(op, 2, 1)
io(0x08, 3, 1)
io(0x09, 3, 1)
// 0x10
for (const op of [0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d]) io(op, 2, 1)
io(0x15, 1, 1)
io(0x19, 1, 1)
io(0x1e, 1, 1)
io(0x20, 2, 1)
// 0x30
for (const op of [0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d]) io(op, 0, 1)
for (const op of [0x31, 0x35, 0x3b, 0x3f]) io(op, 1, 1)
io(0x37, 3, 0)
io(0x39, 3, 0)
io(0x3c, 4, 0)
io(0x3e, 3, 0)
// 0x40
io(0x40, 1, 1)
for (const op of [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a]) io(op, 0, 1)
io(0x49, 1, 1)
// 0x50
io(0x50, 1, 0)
io(0x51, 1, 1)
io(0x52, 2, 0)
io(0x53, 2, 0)
io(0x54, 1, 1)
io(0x55, 2, 0)
io(0x56, 1, 0)
io(0x57, 2, 0)
for (const op of [0x58, 0x59, 0x5a]) io(op, 0, 1)
io(0x5b, 0, 0)
io(0x5c, 1, 1)
io(0x5d, 2, 0)
io(0x5e, 3, 0)
io(0x5f, 0, 1)
for (let n = 1; n <= 32; n++) io(0x5f + n, 0, 1)
for (let n = 1; n <= 16; n++) io(0x7f + n, n, n + 1)
for (let n = 1; n <= 16; n++) io(0x8f + n, n + 1, n + 1)
for (let n = 0; n <= 4; n++) io(0xa0 + n, n + 2, 0)
io(0xf0, 3, 1)
io(0xf1, 7, 1)
io(0xf2, 7, 1)
io(0xf3, 2, 0)
io(0xf4, 6, 1)
io(0xf5, 4, 1)
io(0xfa, 6, 1)
io(0xfd, 2, 0)
io(0xfe, 0, 0)
io(0xff, 1, 0)
for (let op = 0; op < 256; op++) {
  MIN_STACK[op] = pops[op]!
  MAX_STACK[op] = 1024 + pops[op]! - pushes[op]!
}

const ZERO = 0
const BASE = 2
const VERY_LOW = 3
const LOW = 5
const MID = 8
const HIGH = 10

function buildStaticGas(rules: Rules): Int32Array {
  const g = new Int32Array(256).fill(-1)
  const set = (op: number, gas: number, active = true): void => {
    if (active) g[op] = gas
  }
  const tw = rules.tangerineWhistle
  const berlin = rules.berlin
  set(0x00, ZERO)
  set(0x01, VERY_LOW)
  set(0x02, LOW)
  set(0x03, VERY_LOW)
  for (const op of [0x04, 0x05, 0x06, 0x07, 0x0b]) set(op, LOW)
  set(0x08, MID)
  set(0x09, MID)
  set(0x0a, HIGH)
  for (const op of [0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a]) set(op, VERY_LOW)
  for (const op of [0x1b, 0x1c, 0x1d]) set(op, VERY_LOW, rules.constantinople)
  set(0x1e, LOW, rules.osaka)
  set(0x20, 30)
  set(0x30, BASE)
  set(0x31, berlin ? 100 : rules.istanbul ? 700 : tw ? 400 : 20)
  for (const op of [0x32, 0x33, 0x34, 0x36, 0x38, 0x3a]) set(op, BASE)
  set(0x35, VERY_LOW)
  set(0x37, VERY_LOW)
  set(0x39, VERY_LOW)
  set(0x3b, berlin ? 100 : tw ? 700 : 20)
  set(0x3c, berlin ? 100 : tw ? 700 : 20)
  set(0x3d, BASE, rules.byzantium)
  set(0x3e, VERY_LOW, rules.byzantium)
  set(0x3f, berlin ? 100 : rules.istanbul ? 700 : 400, rules.constantinople)
  set(0x40, 20)
  for (const op of [0x41, 0x42, 0x43, 0x44, 0x45]) set(op, BASE)
  set(0x46, BASE, rules.istanbul)
  set(0x47, LOW, rules.istanbul)
  set(0x48, BASE, rules.london)
  set(0x49, VERY_LOW, rules.cancun)
  set(0x4a, BASE, rules.cancun)
  set(0x50, BASE)
  set(0x51, VERY_LOW)
  set(0x52, VERY_LOW)
  set(0x53, VERY_LOW)
  set(0x54, berlin ? 100 : rules.istanbul ? 800 : tw ? 200 : 50)
  set(0x55, 0)
  set(0x56, MID)
  set(0x57, HIGH)
  set(0x58, BASE)
  set(0x59, BASE)
  set(0x5a, BASE)
  set(0x5b, 1)
  set(0x5c, 100, rules.cancun)
  set(0x5d, 100, rules.cancun)
  set(0x5e, VERY_LOW, rules.cancun)
  set(0x5f, BASE, rules.shanghai)
  for (let op = 0x60; op <= 0x9f; op++) set(op, VERY_LOW)
  for (let n = 0; n <= 4; n++) set(0xa0 + n, 375 + 375 * n)
  set(0xf0, 32000)
  const callBase = berlin ? 100 : tw ? 700 : 40
  set(0xf1, callBase)
  set(0xf2, callBase)
  set(0xf3, ZERO)
  set(0xf4, callBase, rules.homestead)
  set(0xf5, 32000, rules.constantinople)
  set(0xfa, callBase, rules.byzantium)
  set(0xfd, ZERO, rules.byzantium)
  // 0xfe INVALID stays -1
  set(0xff, tw ? 5000 : 0)
  return g
}

const forkGas = new WeakMap<Rules, ForkGas>()

export function forkGasFor(rules: Rules): ForkGas {
  const hit = forkGas.get(rules)
  if (hit !== undefined) return hit
  const built: ForkGas = Object.freeze({
    staticGas: buildStaticGas(rules),
    expByte: rules.spuriousDragon ? 50 : 10,
    coldAccountExtra: rules.berlin ? 2500 : 0,
    coldSloadExtra: rules.berlin ? 2000 : 0,
  })
  forkGas.set(rules, built)
  return built
}
