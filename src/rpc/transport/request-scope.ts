/**
 * The cancellation scope of one payload: aborted when its deadline passes, the client goes away, or (for a
 * batch) the response grows past its cap.
 *
 * Why not an AbortController per payload: on the read path (thousands of requests a second on one core)
 * creating AbortControllers, combining them with AbortSignal.any and listening through EventTarget cost more
 * than serving a state read. A scope is a plain object with a listener list; the real AbortSignal that
 * handlers may read (`MethodContext.signal`) is created only when a handler asks for it, and then follows
 * the scope.
 *
 * Invariants: aborts at most once; the first reason wins; listeners run once, in registration order, and a
 * listener added after the abort runs at once. A child scope aborts with its parent, never the reverse.
 */

import { FlashnodeError } from '../../errors/errors.ts'

export type AbortListener = (reason: FlashnodeError) => void

export class RequestScope {
  #reason: FlashnodeError | undefined
  #listeners: AbortListener[] | undefined
  #controller: AbortController | undefined

  get aborted(): boolean {
    return this.#reason !== undefined
  }

  /** Why the scope aborted; undefined while it has not. */
  get reason(): FlashnodeError | undefined {
    return this.#reason
  }

  /** An AbortSignal that follows the scope, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#reason !== undefined) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  /** Aborts with `reason` (default: the client went away). No-op once aborted. */
  abort(reason: FlashnodeError = new FlashnodeError('internal', 'request aborted')): void {
    if (this.#reason !== undefined) return
    this.#reason = reason
    this.#controller?.abort(reason)
    const listeners = this.#listeners
    this.#listeners = undefined
    if (listeners !== undefined) for (const listener of listeners) listener(reason)
  }

  /** Calls `listener` when the scope aborts (at once if it has); returns the function that removes it. */
  onAbort(listener: AbortListener): () => void {
    if (this.#reason !== undefined) {
      listener(this.#reason)
      return noop
    }
    const listeners = (this.#listeners ??= [])
    listeners.push(listener)
    return () => {
      if (this.#listeners !== listeners) return // aborted meanwhile: the list is being (or was) run
      const at = listeners.indexOf(listener)
      if (at >= 0) listeners.splice(at, 1)
    }
  }

  /** A scope that aborts when this one does, and can also abort on its own. */
  child(): RequestScope {
    const child = new RequestScope()
    const detach = this.onAbort((reason) => child.abort(reason))
    child.onAbort(detach)
    return child
  }

  /**
   * Follows an external AbortSignal (e.g. a WebSocket connection closing) until the returned function is
   * called: a long-lived signal must not collect one listener per finished request.
   */
  follow(signal: AbortSignal): () => void {
    const fromSignal = (): void => {
      const reason: unknown = signal.reason
      this.abort(reason instanceof FlashnodeError ? reason : undefined)
    }
    if (signal.aborted) {
      fromSignal()
      return noop
    }
    signal.addEventListener('abort', fromSignal, { once: true })
    return () => signal.removeEventListener('abort', fromSignal)
  }
}

function noop(): void {}
