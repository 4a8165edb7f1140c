/**
 * The execution time limit. Our EVM runs synchronously on this thread and checks a deadline (Date.now() ms)
 * every few thousand jumps and calls (TxOptions.deadline); past it, the transaction stops with
 * ExecutionTimeout and leaves no trace. Here the deadline is set and that error (or a state view's
 * ExecutionDeadlineExceeded, for what still reads through a JournaledState) becomes geth's timeout error.
 */

import { FlashnodeError } from '../errors/errors.ts'
import { ExecutionTimeout } from '../evm/types.ts'
import { ExecutionDeadlineExceeded } from '../state/journaled-state.ts'

export async function withDeadline<T>(timeoutMs: number, run: (deadline: number) => Promise<T>): Promise<T> {
  try {
    return await run(Date.now() + timeoutMs)
  } catch (e) {
    if (isTimeout(e) || (e instanceof Error && isTimeout(e.cause))) {
      throw new FlashnodeError('executionTimeout', `execution aborted (timeout = ${formatSeconds(timeoutMs)})`)
    }
    throw e
  }
}

function isTimeout(e: unknown): boolean {
  return e instanceof ExecutionTimeout || e instanceof ExecutionDeadlineExceeded
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}
