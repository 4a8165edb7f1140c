/**
 * Helpers of the follower tests (processes on loopback): waiting for a condition, a node's head, a call's
 * whole answer, and the check that nodes agree on every sealed block.
 */

import assert from 'node:assert/strict'
import { rpc } from './node-process.ts'

/** Polls `check` until it gives a value (a condition, not a time); throws past `limitMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, limitMs = 30_000): Promise<T> {
  const end = Date.now() + limitMs
  for (;;) {
    const got = await check().catch(() => undefined)
    if (got !== undefined) return got
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

export const head = async (url: string): Promise<bigint> => BigInt(await rpc<string>(url, 'eth_blockNumber'))

/** A JSON-RPC call's whole answer (result or error), as a client receives it. */
export async function rawCall(url: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
}

/** Everything a client reads of sealed block `n` on a node, and the balances and nonces of `addresses` after it. */
async function sealedView(url: string, n: bigint, addresses: readonly string[]): Promise<unknown> {
  const id = `0x${n.toString(16)}`
  const out: Record<string, unknown> = {
    block: await rpc(url, 'eth_getBlockByNumber', [id, true]),
    receipts: await rpc(url, 'eth_getBlockReceipts', [id]),
  }
  for (const a of addresses) {
    out[`${a} balance`] = await rpc(url, 'eth_getBalance', [a, id])
    out[`${a} nonce`] = await rpc(url, 'eth_getTransactionCount', [a, id])
  }
  return out
}

/** The nodes at `urls` answer alike for every sealed block from 1 to `last`. */
export async function agreeUpTo(urls: readonly string[], last: bigint, addresses: readonly string[]): Promise<void> {
  for (let n = 1n; n <= last; n++) {
    const [first, ...rest] = await Promise.all(urls.map((u) => sealedView(u, n, addresses)))
    for (const other of rest) assert.deepEqual(other, first, `block ${n}`)
  }
}
