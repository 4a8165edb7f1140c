/**
 * Plain JSON-RPC helpers for benchmark set-up and answer checks (never on the measured path, which is
 * bench/loadgen.ts): serialize a request body, and make one call that throws on any error.
 */

export function rpcBody(id: number, method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

export async function rpcCall<T = unknown>(url: string, method: string, params: unknown[], timeoutMs = 10_000): Promise<T> {
  let res: Response
  let body: { result?: T; error?: { code: number; message: string } }
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: rpcBody(1, method, params),
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status}`)
    body = (await res.json()) as typeof body
  } catch (e) {
    throw named(e, method, timeoutMs)
  }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.code} ${body.error.message}`)
  if (!('result' in body)) throw new Error(`${method}: no result`)
  return body.result as T
}

/**
 * A fetch failure (a timeout: "The operation was aborted due to timeout", a refused connection) renamed
 * after the call that met it, with the deadline; made here, after the await, so its stack holds the async
 * callers (the DOMException's own stack is undici's timer only). The original is its cause.
 */
export function named(e: unknown, method: string, timeoutMs: number): Error {
  if (e instanceof Error && e.message.startsWith(`${method}:`)) return e
  const what = e instanceof Error ? (e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms (${e.message})` : e.message) : String(e)
  return new Error(`${method}: ${what}`, { cause: e })
}
