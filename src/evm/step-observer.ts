/**
 * The opcode-level hook of our EVM, for the tracers that must see every step (geth's struct logger and
 * erc7562Tracer): `step` is called before each opcode runs, with what geth's OnOpcode sees. Absent on the
 * ordinary path, where the interpreter pays whole straight-line runs of static gas at once; with a step
 * observer it goes op by op (every opcode charged alone), which is slower but gives the same results: the
 * interpreter's op-by-op path is the one it already takes wherever a run cannot be paid whole.
 *
 * What the hook is given is the interpreter's own state, valid only during the call: the stack array (words
 * as numbers up to 2^31 - 1 or bigints, words.ts; the top at `sp - 1`), the frame's memory (its buffer's first
 * `memory.size` bytes) and its last return data. An observer that keeps any of it past the call must copy it;
 * it must never change it.
 */

import type { Frame } from './frame-state.ts'

/** A frame as a step observer may read it. */
export type StepFrame = Pick<Frame, 'msg' | 'stack' | 'memory' | 'returnData' | 'address' | 'code' | 'gas'>

export interface StepObserver {
  /**
   * Before the opcode `op` at `pc` runs: `gas` is what the frame holds before the opcode's cost is taken (the
   * frame's reserve beyond 2^53 - 1 not included), `sp` the stack height, `depth` the frame's call depth.
   * `frame.gas` is not kept current inside a run; it is current when the frame calls out (CALL, CREATE: at
   * FrameObserver.enter it is the caller's gas after the call's whole cost, the callee's gas included, so
   * a step's gas minus it is geth's gasCost of the call).
   */
  step(frame: StepFrame, pc: number, op: number, gas: number, sp: number, depth: number): void
}
