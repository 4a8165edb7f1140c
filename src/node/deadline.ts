/**
 * The execution time limit. The EVM runs on this thread, so the limit is enforced cooperatively: the state
 * view counts its reads, and past the deadline the next read throws. Between reads it also yields to the
 * event loop every few milliseconds, so one long call does not hold up other requests. (A loop that touches
 * no state is bounded by the gas cap instead.)
 */

import { FlashnodeError } from '../errors/errors.ts'
import { ExecutionDeadlineExceeded, type JournaledState } from '../state/journaled-state.ts'

export async function withDeadline<T>(state: JournaledState, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  state.setDeadline(performance.now() + timeoutMs)
  try {
    return await run()
  } catch (e) {
    if (e instanceof ExecutionDeadlineExceeded || (e instanceof Error && e.cause instanceof ExecutionDeadlineExceeded)) {
      throw new FlashnodeError('executionTimeout', `execution aborted (timeout = ${formatSeconds(timeoutMs)})`)
    }
    throw e
  } finally {
    state.setDeadline(undefined)
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}
