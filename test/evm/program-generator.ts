/**
 * Random but meaningful EVM programs for the differential test (our EVM against @ethereumjs/evm).
 *
 * A program is a sequence of snippets, each of which pushes its own operands (or consumes what earlier
 * snippets left on the stack) and sinks its result somewhere observable: memory that the program returns or
 * logs at the end, storage, or the stack for a later snippet. The stack height is tracked so that most code
 * is valid; underflows, invalid jumps, undefined and later-fork opcodes, huge memory offsets and endless loops
 * are put in on purpose, at low rates, so that every kind of halt is reached without drowning the rest.
 * Snippets cover arithmetic on edge values, memory, storage (with resets to the original value and to zero,
 * for the refund rules), transient storage, logs, forward and conditional jumps and small bounded loops,
 * every call kind to other generated contracts, EOAs, absent accounts and precompiles with random gas and
 * value, CREATE/CREATE2 of generated initcode, SELFDESTRUCT and the return-data opcodes.
 *
 * Everything is drawn from the Rng in the context: the same seed gives the same program.
 */

import { opcode } from './opcode-table.ts'
import { PRECOMPILE_ADDRESSES, PRECOMPILE_SINCE, precompileInput } from './precompile-inputs.ts'
import { ProgramWriter, RESULTS_END, SCRATCH, TWO_256, forkAtLeast, type ProgramContext, type Snippet } from './program-writer.ts'

export { ProgramWriter, forkAtLeast, type ProgramContext } from './program-writer.ts'

// ---- snippets ----

const ARITH = ['ADD', 'MUL', 'SUB', 'DIV', 'SDIV', 'MOD', 'SMOD', 'ADDMOD', 'MULMOD', 'EXP', 'SIGNEXTEND',
  'LT', 'GT', 'SLT', 'SGT', 'EQ', 'ISZERO', 'AND', 'OR', 'XOR', 'NOT', 'BYTE', 'SHL', 'SHR', 'SAR', 'CLZ']

const arithmetic: Snippet = (w) => {
  let name = w.rng.pick(ARITH)
  if (!w.allow(name)) name = 'ADD'
  const info = opcode(name)
  const small = name === 'BYTE' || name === 'SIGNEXTEND' || name === 'SHL' || name === 'SHR' || name === 'SAR'
  if (small && w.rng.chance(0.6)) {
    // the first argument (top) is an index or shift: mostly in range
    w.operands(info.pops - 1)
    w.asm.push(BigInt(w.rng.pick([0, 1, 30, 31, 32, 255, 256, w.rng.int(40)])))
  } else {
    w.operands(info.pops)
  }
  w.asm.op(name)
  w.sink()
}

const environment: Snippet = (w) => {
  const r = w.rng.int(15)
  const simple = ['ADDRESS', 'ORIGIN', 'CALLER', 'CALLVALUE', 'CALLDATASIZE', 'CODESIZE', 'GASPRICE', 'RETURNDATASIZE', 'PC', 'MSIZE', 'GAS']
  if (r < 5) {
    const name = w.rng.pick(simple)
    if (!w.allow(name)) return
    w.asm.op(name)
  } else if (r < 8) {
    const name = w.rng.pick(['BALANCE', 'EXTCODESIZE', 'EXTCODEHASH', 'EXTCODEHASH'])
    if (!w.allow(name)) return
    w.pushAddress()
    w.asm.op(name)
  } else if (r < 10) {
    w.asm.push(w.rng.chance(0.8) ? BigInt(w.rng.int(80)) : w.word()).op('CALLDATALOAD')
  } else if (r < 12) {
    // EXTCODECOPY(addr, destOffset, offset, size)
    w.asm.push(w.memSize()).push(w.rng.chance(0.8) ? BigInt(w.rng.int(64)) : w.word()).push(BigInt(w.rng.int(RESULTS_END)))
    w.pushAddress()
    w.asm.op('EXTCODECOPY')
    return
  } else {
    // CALLDATACOPY / CODECOPY(destOffset, offset, size)
    const name = w.rng.pick(['CALLDATACOPY', 'CODECOPY'])
    w.asm.push(w.memSize()).push(w.rng.chance(0.8) ? BigInt(w.rng.int(64)) : w.word()).push(w.memOffset()).op(name)
    return
  }
  w.sink()
}

const block: Snippet = (w) => {
  const simple = ['COINBASE', 'TIMESTAMP', 'NUMBER', 'DIFFICULTY', 'GASLIMIT', 'CHAINID', 'SELFBALANCE', 'BASEFEE', 'BLOBBASEFEE']
  const r = w.rng.int(10)
  if (r < 6) {
    const name = w.rng.pick(simple)
    if (!w.allow(name)) return
    w.asm.op(name)
  } else if (r < 8) {
    // BLOCKHASH of a number around the window edges
    const back = w.rng.pick([0n, 1n, 2n, 255n, 256n, 257n])
    if (w.rng.chance(0.8)) w.asm.push(back).op('NUMBER').op('SUB')
    else w.asm.push(w.word())
    w.asm.op('BLOCKHASH')
  } else {
    if (!w.allow('BLOBHASH')) return
    w.asm.push(w.rng.chance(0.8) ? BigInt(w.rng.int(4)) : w.word()).op('BLOBHASH')
  }
  w.sink()
}

const memory: Snippet = (w) => {
  const r = w.rng.int(10)
  if (r < 3) {
    w.operands(1)
    w.asm.push(w.memOffset()).op(w.rng.chance(0.8) ? 'MSTORE' : 'MSTORE8')
  } else if (r < 6) {
    w.asm.push(w.memOffset()).op('MLOAD')
    w.sink()
  } else if (r < 8) {
    if (!w.allow('MCOPY')) return
    w.asm.push(w.memSize()).push(w.memOffset()).push(w.memOffset()).op('MCOPY')
  } else {
    w.asm.op('MSIZE')
    w.sink()
  }
}

const keccak: Snippet = (w) => {
  w.asm.push(w.memSize()).push(w.memOffset()).op('KECCAK256')
  w.sink()
}

const storage: Snippet = (w) => {
  const slot = w.ctx.slots.length > 0 && w.rng.chance(0.8) ? w.rng.pick(w.ctx.slots) : BigInt(w.rng.int(8))
  const original = w.ctx.originals.get(slot) ?? 0n
  const r = w.rng.int(10)
  if (r < 3) {
    w.asm.push(slot).op('SLOAD')
    w.sink()
    return
  }
  const value = (): bigint => w.rng.pick([0n, 0n, original, original, 1n, 2n, w.word()])
  if (r < 6) {
    w.args(slot, value())
    w.asm.op('SSTORE')
  } else if (r < 8) {
    // change then restore (EIP-2200/3529 refunds for a reset to the original or to zero)
    w.args(slot, w.rng.pick([0n, 1n, original + 1n, w.word()]))
    w.asm.op('SSTORE')
    w.args(slot, w.rng.chance(0.7) ? original : 0n)
    w.asm.op('SSTORE')
  } else {
    // increment what is there
    w.asm.push(1n).push(slot).op('SLOAD').op('ADD').push(slot).op('SSTORE')
  }
}

const transient: Snippet = (w) => {
  const slot = BigInt(w.rng.int(4))
  if (!w.allow('TSTORE')) return
  if (w.rng.chance(0.5)) {
    w.operands(1)
    w.asm.push(slot).op('TSTORE')
  } else {
    w.asm.push(slot).op('TLOAD')
    w.sink()
  }
}

const log: Snippet = (w) => {
  const n = w.rng.int(5)
  for (let i = 0; i < n; i++) w.asm.push(w.word())
  w.asm.push(w.rng.chance(0.9) ? BigInt(w.rng.int(70)) : w.memSize()).push(w.rng.chance(0.9) ? BigInt(w.rng.int(RESULTS_END)) : w.memOffset())
  w.asm.op(`LOG${n}`)
}

const shuffle: Snippet = (w) => {
  const h = w.asm.height - w.floor
  const wild = w.rng.chance(0.03)
  if (w.rng.chance(0.5)) {
    const n = wild ? w.rng.range(1, 16) : Math.min(16, w.rng.range(1, Math.max(1, h)))
    if (h >= n || wild) w.asm.op(`DUP${n}`)
    w.sink()
  } else if (h >= 2 || wild) {
    const n = wild ? w.rng.range(1, 16) : w.rng.range(1, Math.min(16, h - 1))
    w.asm.op(`SWAP${n}`)
  }
}

/** A condition for JUMPI: from call data, call value, gas, a stored slot or a constant. */
function pushCondition(w: ProgramWriter): void {
  const r = w.rng.int(6)
  if (r === 0) w.asm.push(BigInt(w.rng.int(64))).op('CALLDATALOAD').push(BigInt(w.rng.range(2, 5))).op('SWAP1').op('MOD')
  else if (r === 1) w.asm.op('CALLVALUE')
  else if (r === 2) w.asm.push(BigInt(w.rng.range(20_000, 300_000))).op('GAS').op('GT')
  else if (r === 3) w.asm.push(w.ctx.slots.length > 0 ? w.rng.pick(w.ctx.slots) : 0n).op('SLOAD')
  else w.asm.push(w.rng.pick([0n, 1n]))
}

const flow: Snippet = (w) => {
  const r = w.rng.int(20)
  const h = w.asm.height
  if (r < 7) {
    // if (cond) skip a block
    pushCondition(w)
    const patch = w.asm.pushLabel()
    w.asm.op('JUMPI')
    const at = w.asm.height
    body(w, w.rng.range(1, 3))
    while (w.asm.height > at) w.asm.op('POP')
    while (w.asm.height < at) w.asm.push(w.word())
    w.asm.placeLabel(patch)
  } else if (r < 11) {
    // jump over dead code
    const patch = w.asm.pushLabel()
    w.asm.op('JUMP')
    body(w, w.rng.range(0, 2))
    w.asm.placeLabel(patch)
    w.asm.height = h
  } else if (r < 16) {
    // a small counted loop: [counter] loop: body; counter-1; jumpi
    w.asm.push(BigInt(w.rng.range(1, 4)))
    const start = w.asm.length
    w.asm.placeLabel()
    const at = w.asm.height
    const floor = w.floor
    w.floor = at
    body(w, w.rng.range(1, 2))
    w.floor = floor
    while (w.asm.height > at) w.asm.op('POP')
    while (w.asm.height < at) w.asm.push(0n)
    w.asm.push(1n).op('SWAP1').op('SUB').op('DUP1').push(BigInt(start), 2).op('JUMPI').op('POP')
  } else if (r < 18) {
    // a bad jump: to a byte that is no JUMPDEST, into push data, or past the end
    const kind = w.rng.int(4)
    if (kind === 0) {
      w.asm.push(0x5b5bn, 2).op('POP')
      w.asm.push(BigInt(w.asm.length - 3), 2)
    } else if (kind === 1) w.asm.push(BigInt(w.asm.length + 200), 2)
    else if (kind === 2) w.asm.push(TWO_256 - 1n)
    else w.asm.push(0n)
    if (w.rng.chance(0.5)) w.asm.op('JUMP')
    else w.asm.push(1n).op('SWAP1').op('JUMPI')
    w.asm.height = h
  } else {
    // JUMPI not taken to a bad destination
    w.asm.push(0n).push(TWO_256 - 1n).op('JUMPI')
  }
}

const externalCall: Snippet = (w) => {
  const inOff = w.rng.chance(0.8) ? BigInt(w.rng.int(RESULTS_END)) : w.memOffset()
  const inSize = w.rng.chance(0.85) ? BigInt(w.rng.int(100)) : w.memSize()
  if (w.rng.chance(0.6)) w.asm.storeBytes(inOff < 0x4000n ? inOff : 0n, w.rng.bytes(w.rng.range(0, 64)))
  w.call(() => w.pushAddress(), inOff, inSize)
}

const precompileCall: Snippet = (w) => {
  // RIPEMD-160 a little more often: its touch outlives a failed call or a reverted frame (the scenario's
  // pre-state sometimes holds an empty 0x03 for it).
  const address = w.rng.chance(0.1) ? 3n : w.rng.chance(0.9) ? w.rng.pick(PRECOMPILE_ADDRESSES) : BigInt(w.rng.range(0, 0x101))
  const since = PRECOMPILE_SINCE.get(address)
  if (since !== undefined && !forkAtLeast(w.ctx.fork, since) && w.rng.chance(0.5)) {
    return // mostly call the ones the fork has
  }
  const input = precompileInput(w.rng, address)
  w.asm.storeBytes(SCRATCH, input)
  w.call(() => w.asm.push(address), SCRATCH, BigInt(input.length))
}

const returnData: Snippet = (w) => {
  if (!w.allow('RETURNDATACOPY')) return
  // RETURNDATACOPY(destOffset, offset, size): past the end of the return data is a halt
  const dest = BigInt(w.rng.int(RESULTS_END))
  const r = w.rng.int(20)
  if (r < 15) {
    // all of it
    w.asm.op('RETURNDATASIZE').push(0n).push(dest)
  } else if (r < 18) {
    // a tail of it: [offset, size] = [n, RETURNDATASIZE - n] (past the end when n > RETURNDATASIZE: a halt)
    const n = BigInt(w.rng.pick([0, 1, 1, 2, 32]))
    w.asm.push(n).op('RETURNDATASIZE').op('SUB').push(n).push(dest)
  } else {
    // any range (past the end halts)
    w.asm.push(BigInt(w.rng.pick([0, 1, 32, 64, w.rng.int(100)]))).push(BigInt(w.rng.pick([0, 0, 1, 32, w.rng.int(64)]))).push(dest)
  }
  w.asm.op('RETURNDATACOPY')
}

const create: Snippet = (w) => {
  const initcode = generateInitcode({ ...w.ctx, createDepth: w.ctx.createDepth - 1 })
  w.asm.storeBytes(SCRATCH, initcode)
  let size = BigInt(initcode.length)
  if (w.rng.chance(0.04)) size = w.rng.pick([49_152n, 49_153n, 1n << 32n])
  const two = w.rng.chance(0.45) && w.allow('CREATE2')
  const start = w.asm.length
  if (two) w.asm.push(w.rng.pick([0n, 0n, 1n, w.word()]))
  w.asm.push(size).push(SCRATCH)
  const v = w.rng.int(10)
  if (v < 7) w.asm.push(0n)
  else if (v < 9) w.asm.push(BigInt(w.rng.range(1, 1000)))
  else w.asm.push(1n << 200n)
  w.asm.op(two ? 'CREATE2' : 'CREATE')
  if (two && w.rng.chance(0.25)) {
    // the same CREATE2 again: an address collision when the first one succeeded
    const again = w.asm.bytes.slice(start, w.asm.length - 1)
    w.sink()
    for (const b of again) w.asm.bytes.push(b)
    w.asm.height += 4
    w.asm.op('CREATE2')
  }
  if (w.rng.chance(0.4)) {
    // call what was created (its address stays below the call's arguments)
    const mark = w.asm.height
    w.call(() => w.asm.op(`DUP${w.asm.height - mark + 1}`), BigInt(w.rng.int(RESULTS_END)), BigInt(w.rng.int(40)))
  }
  w.sink()
}

const selfDestruct: Snippet = (w) => {
  w.pushAddress()
  w.asm.op('SELFDESTRUCT')
}

const oddity: Snippet = (w) => {
  const r = w.rng.int(10)
  if (r < 4) {
    // an opcode no fork defines
    w.asm.byte(w.rng.pick([0x0c, 0x0d, 0x0e, 0x0f, 0x1f, 0x21, 0x2f, 0x4b, 0x4f, 0xa5, 0xb0, 0xe0, 0xef, 0xf6, 0xfb, 0xfc]))
  } else if (r < 7) {
    // underflow
    while (w.asm.height > 0) w.asm.op('POP')
    w.asm.byte(opcode(w.rng.pick(['ADD', 'CALL', 'SSTORE', 'LOG4', 'MSTORE'])).code)
  } else if (r < 8) {
    // overflow: more than 1024 words
    for (let i = 0; i < 1025; i++) w.asm.op('PC')
    w.asm.height = 0
  } else {
    w.asm.op('INVALID')
  }
}

const BODY: readonly (readonly [number, Snippet])[] = [
  [32, arithmetic],
  [16, environment],
  [10, block],
  [18, memory],
  [6, keccak],
  [20, storage],
  [6, transient],
  [8, log],
  [8, shuffle],
  [12, flow],
  [20, externalCall],
  [12, precompileCall],
  [4, returnData],
  [8, create],
  [2, selfDestruct],
  [1, oddity],
]

const CALM_BODY = BODY.filter(([, s]) => s !== oddity && s !== selfDestruct)

/** Run `count` random snippets from the body mix. */
function body(w: ProgramWriter, count: number): void {
  for (let i = 0; i < count; i++) w.pick(w.ctx.calm === true ? CALM_BODY : BODY)(w)
}

/** End the program: mostly by returning a part of the results area. */
function end(w: ProgramWriter): void {
  if (w.ctx.calm === true && w.rng.chance(0.85)) w.pick(CALM_ENDINGS)(w)
  else w.pick(ENDINGS)(w)
}

// ---- endings ----

const returnResults: Snippet = (w) => {
  const size = w.rng.chance(0.7) ? BigInt(Math.max(32, w.resultsUsed)) : BigInt(w.rng.int(RESULTS_END))
  w.asm.push(size).push(0n).op('RETURN')
}

const ENDINGS: readonly (readonly [number, Snippet])[] = [
  [38, returnResults],
  [12, (w) => void w.asm.op('STOP')],
  [10, (w) => void w.asm.push(BigInt(w.rng.int(80))).push(BigInt(w.rng.int(RESULTS_END))).op('REVERT')],
  [4, (w) => void w.asm.push(0n).push(0n).op('REVERT')],
  [8, () => {}], // fall off the end
  [4, (w) => void w.asm.op('INVALID')],
  [6, selfDestruct],
  [1, (w) => endlessLoop(w)],
  [3, oddity],
  [2, (w) => void w.asm.push(1n << 40n).push(0n).op('RETURN')],
  [6, (w) => void w.asm.push(w.memSize()).push(w.memOffset()).op('RETURN')],
]

const CALM_ENDINGS: readonly (readonly [number, Snippet])[] = [
  [6, returnResults],
  [2, (w) => void w.asm.op('STOP')],
  [1, (w) => void w.asm.push(BigInt(w.rng.int(80))).push(BigInt(w.rng.int(RESULTS_END))).op('REVERT')],
]

/** Runtime code that self-destructs at once: to itself (burning its balance from Cancun on), its caller or another account. */
function selfDestructor(w: ProgramWriter): Uint8Array {
  const r = w.rng.int(4)
  if (r === 0) return Uint8Array.of(opcode('ADDRESS').code, opcode('SELFDESTRUCT').code)
  if (r === 1) return Uint8Array.of(opcode('CALLER').code, opcode('SELFDESTRUCT').code)
  const target = w.targetAddress()
  const bytes: number[] = [opcode('PUSH20').code]
  for (let i = 19; i >= 0; i--) bytes.push(Number((target >> BigInt(8 * i)) & 0xffn))
  // sometimes store first, so that the destroyed account had storage
  const prefix = r === 2 ? [0x60, 0x01, 0x60, 0x01, opcode('SSTORE').code] : []
  return Uint8Array.of(...prefix, ...bytes, opcode('SELFDESTRUCT').code)
}

/** Loop until out of gas, burning gas fast (EXP of a full-width exponent) so the loop does not run long. */
function endlessLoop(w: ProgramWriter): void {
  const at = w.asm.length
  w.asm.placeLabel()
  w.asm.push(TWO_256 - 1n).op('DUP1').op('EXP').op('POP')
  w.asm.push(BigInt(at), 2).op('JUMP')
}

/** A contract's code: `snippets` body snippets, then an ending. */
export function generateProgram(ctx: ProgramContext, snippets: number): Uint8Array {
  const w = new ProgramWriter(ctx)
  body(w, snippets)
  end(w)
  return w.asm.code()
}

/**
 * Initcode: a few snippets, then one of: deploy code (generated or odd: empty, 0xEF-prefixed, at or over the
 * size limit), revert, run out of gas, halt, self-destruct.
 */
export function generateInitcode(ctx: ProgramContext): Uint8Array {
  const w = new ProgramWriter(ctx)
  const inner: ProgramContext = { ...ctx, createDepth: ctx.createDepth - 1 }
  if (ctx.createDepth > 0) body(w, w.rng.range(0, 4))
  else for (let i = w.rng.range(0, 3); i > 0; i--) w.pick(BODY.filter(([, s]) => s !== create))(w)
  const r = w.rng.int(100)
  if (r < 55) {
    let runtime: Uint8Array
    const k = w.rng.int(12)
    if (k < 6 && ctx.createDepth > 0) runtime = generateProgram(inner, w.rng.range(1, 6))
    else if (k < 8) runtime = w.rng.bytes(w.rng.range(0, 40))
    else if (k < 9) runtime = new Uint8Array(0)
    else if (k < 10) runtime = Uint8Array.of(0xef, ...w.rng.bytes(w.rng.int(4)))
    else runtime = selfDestructor(w) // created and destroyed in one transaction (EIP-6780) when called
    // CODECOPY(0, tail, len); RETURN(0, len) with the runtime appended after the code
    const tailPatch = w.asm.length + 1 + 3 // after PUSH2 len: PUSH2 tail
    w.asm.push(BigInt(runtime.length), 2).push(0n, 2).push(0n).op('CODECOPY')
    w.asm.push(BigInt(runtime.length), 2).push(0n).op('RETURN')
    const tail = w.asm.length
    w.asm.bytes[tailPatch] = (tail >> 8) & 0xff
    w.asm.bytes[tailPatch + 1] = tail & 0xff
    w.asm.bytes.push(...runtime)
  } else if (r < 62) {
    w.asm.push(BigInt(w.rng.pick([24_576, 24_577, 0x6001])), 2).push(0n).op('RETURN')
  } else if (r < 74) {
    w.asm.push(BigInt(w.rng.int(40))).push(0n).op('REVERT')
  } else if (r < 77) {
    endlessLoop(w)
  } else if (r < 85) {
    w.asm.op('INVALID')
  } else if (r < 90) {
    selfDestruct(w)
  } else if (r < 95) {
    w.asm.op('STOP')
  } else {
    end(w)
  }
  return w.asm.code()
}
