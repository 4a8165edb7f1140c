/**
 * eth_sendRawTransactionSync's wait: resolves with the receipt once `watch` reports it (a facade with
 * pre-confirmations watches the feed's flashblocks), or once `lookup` (the facade's own receipt lookup)
 * finds it; null after `timeoutMs` or on abort. `lookup` runs once right after watching starts, so a
 * receipt published in between is never missed, and again whenever `watch` asks (a facade without
 * pre-confirmations asks at every seal).
 */

import type { LocatedReceipt } from './api.ts'

/** Starts watching; `found` reports a receipt, `look` asks for a lookup. Returns the function that stops. */
export type ReceiptWatch = (found: (receipt: LocatedReceipt) => void, look: () => void) => () => void

export function waitForReceipt(
  watch: ReceiptWatch,
  timeoutMs: number,
  lookup: () => Promise<LocatedReceipt | null>,
  signal?: AbortSignal,
): Promise<LocatedReceipt | null> {
  return new Promise((resolve) => {
    let done = false
    const finish = (r: LocatedReceipt | null) => {
      if (done) return
      done = true
      clearTimeout(timer)
      stop()
      signal?.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const look = () => void lookup().then((r) => r !== null && finish(r), () => undefined)
    const onAbort = () => finish(null)
    const timer = setTimeout(() => finish(null), timeoutMs)
    const stop = watch(finish, look)
    signal?.addEventListener('abort', onAbort)
    look()
  })
}
