/**
 * Plain JSON-RPC helpers for benchmark set-up and answer checks (never on the measured path, which is
 * bench/loadgen.ts): serialize a request body, and make one call that throws on any error.
 */

export function rpcBody(id: number, method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

export async function rpcCall<T = unknown>(url: string, method: string, params: unknown[], timeoutMs = 10_000): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: rpcBody(1, method, params),
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status}`)
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.code} ${body.error.message}`)
  if (!('result' in body)) throw new Error(`${method}: no result`)
  return body.result as T
}
