/**
 * Signed transactions for the write-path benchmarks, and the set-up calls that use them.
 *
 * - `TxFactory` signs EIP-1559 transactions from the bench chain's mnemonic accounts: ETH transfers (21,000
 *   gas) and ERC-20 `transfer`s of one token unit (one log each). Signing uses the native `secp256k1`
 *   binding (tens of thousands per second; viem's pure-JS signer is ~20× slower) on the hash of the unsigned
 *   serialization, the bytes viem would produce (signAtBenchFees). Signed transactions are cached by
 *   (kind, sender, nonce): every peer start begins from the same genesis, so the same bytes serve every
 *   start and repetition, and signing is never inside a measured window.
 * - `NonceBook` hands out nonces per peer start (a WeakMap keyed by the running node), so several cases on
 *   one start continue each sender's sequence.
 * - `sendAll` puts transactions into a peer's pool as set-up (JSON-RPC batches of 200 over 4 connections)
 *   and throws with the peer's own words on the first refusal: a refusal is a finding, never skipped.
 * - `timedCall` is one request over a raw keep-alive socket (raw-http.ts), timed from the write to the last
 *   byte of the reply, the JSON parsed afterwards: the client's parsing is not in the figure.
 * Fees: max fee 100 gwei, tip 1 gwei, far above the 1 gwei genesis base fee however full blocks get.
 */

import { createRequire } from 'node:module'
import { encodeFunctionData, parseGwei, type Address, type Hex } from 'viem'
import { bigIntToMinimalBytes, bytesToHex, hexToBytes } from '../src/primitives/hex.ts'
import { keccak256 } from '../src/primitives/keccak.ts'
import { encodeRlp } from '../src/primitives/rlp-encode.ts'
import { ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { benchAccounts } from './genesis.ts'
import type { RunningNode } from './nodes.ts'
import { buildRequest, RawConnection } from './raw-http.ts'
import { rpcBody } from './rpc.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

export type TxKind = 'eth' | 'erc20'
export interface SignedTx {
  readonly raw: Hex
  readonly hash: Hex
  readonly sender: number
  readonly nonce: number
}

/** Where ETH and tokens go: an address no sender uses. */
export const SINK: Address = '0x000000000000000000000000000000000000bEEF'
export const GAS = { eth: 21_000n, erc20: 60_000n } as const

export class TxFactory {
  private readonly keys: Uint8Array[]
  private readonly cache = new Map<string, SignedTx>()
  private readonly transferData = encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [SINK, 1n] })

  constructor(
    private readonly chainId: number,
    private readonly token: Address,
    senders: number,
  ) {
    this.keys = privateKeysOf(benchAccounts(senders))
  }

  get senders(): number {
    return this.keys.length
  }

  /** `cache` false: sign without keeping it (a long soak signs as it goes, each transaction once). */
  tx(kind: TxKind, sender: number, nonce: number, cache = true): SignedTx {
    const key = `${kind}:${sender}:${nonce}`
    const hit = this.cache.get(key)
    if (hit !== undefined) return hit
    const eth = kind === 'eth'
    const { raw, hash } = signAtBenchFees(this.chainId, this.keys[sender]!, { nonce, gas: GAS[kind], to: eth ? SINK : this.token, value: eth ? 1n : 0n, data: eth ? undefined : this.transferData })
    const signed: SignedTx = { raw, hash, sender, nonce }
    if (cache) this.cache.set(key, signed)
    return signed
  }

  /**
   * `count` transactions in rounds over senders [0, senders): round r holds each sender's next nonce, so
   * a closed loop with fewer requests in flight than senders never sends a nonce before its predecessor.
   */
  batch(kind: TxKind, count: number, nonces: NonceBook | undefined, node: RunningNode | undefined, senders = this.keys.length): SignedTx[] {
    return inRounds(count, senders, nonces, node, (sender, nonce) => this.tx(kind, sender, nonce))
  }
}

/**
 * `count` transactions made by `make` in rounds over senders [0, senders): round r holds each sender's next
 * nonce (from `nonces` for `node`, then taken there; from 0 without them).
 */
export function inRounds(count: number, senders: number, nonces: NonceBook | undefined, node: RunningNode | undefined, make: (sender: number, nonce: number) => SignedTx): SignedTx[] {
  const out: SignedTx[] = []
  const base = Array.from({ length: senders }, (_, s) => (nonces !== undefined && node !== undefined ? nonces.peek(node, s) : 0))
  for (let i = 0; i < count; i++) {
    const s = i % senders
    out.push(make(s, base[s]! + Math.floor(i / senders)))
  }
  if (nonces !== undefined && node !== undefined) for (const t of out) nonces.take(node, t.sender, t.nonce)
  return out
}

/** The private keys of bench accounts. */
export function privateKeysOf(accounts: ReturnType<typeof benchAccounts>): Uint8Array[] {
  return accounts.map((a) => {
    const k = a.getHdKey().privateKey
    if (k === null) throw new Error('account without a private key')
    return k
  })
}

const MAX_FEE = bigIntToMinimalBytes(parseGwei('100'))
const TIP = bigIntToMinimalBytes(parseGwei('1'))
const TYPE_1559 = new Uint8Array([2])
const EMPTY = new Uint8Array(0)

/** Bytes without their leading zeros (RLP's r and s; viem trims them the same way). */
function trimmed(bytes: Uint8Array): Uint8Array {
  let i = 0
  while (i < bytes.length && bytes[i] === 0) i++
  return bytes.subarray(i)
}

/**
 * An EIP-1559 transaction at the bench's fees (max 100 gwei, tip 1 gwei), signed with `key` (see the top
 * comment): the bytes viem's serializeTransaction gives (type 2, empty access list, r and s trimmed), encoded
 * with the node's RLP encoder and hashed with its WebAssembly keccak (~4× faster than viem's serialization and
 * keccak, so the native signature itself is most of the cost: the throughput scenario signs ~10^6 of them).
 */
export function signAtBenchFees(chainId: number, key: Uint8Array, fields: { nonce: number; gas: bigint; to: Address; value: bigint; data: Hex | undefined }): { raw: Hex; hash: Hex } {
  const body = [
    bigIntToMinimalBytes(BigInt(chainId)),
    bigIntToMinimalBytes(BigInt(fields.nonce)),
    TIP,
    MAX_FEE,
    bigIntToMinimalBytes(fields.gas),
    hexToBytes(fields.to),
    bigIntToMinimalBytes(fields.value),
    fields.data === undefined ? EMPTY : hexToBytes(fields.data),
    [],
  ]
  const typed = (rlp: Uint8Array): Uint8Array => Buffer.concat([TYPE_1559, rlp])
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed(encodeRlp(body))), key)
  const signed = typed(encodeRlp([...body, recid === 0 ? EMPTY : new Uint8Array([recid]), trimmed(signature.subarray(0, 32)), trimmed(signature.subarray(32, 64))]))
  return { raw: bytesToHex(signed), hash: bytesToHex(keccak256(signed)) }
}

/** Next nonce per sender, per peer start. */
export class NonceBook {
  private readonly next = new WeakMap<RunningNode, Map<number, number>>()
  peek(node: RunningNode, sender: number): number {
    return this.next.get(node)?.get(sender) ?? 0
  }
  take(node: RunningNode, sender: number, nonce: number): void {
    let m = this.next.get(node)
    if (m === undefined) this.next.set(node, (m = new Map()))
    m.set(sender, Math.max(m.get(sender) ?? 0, nonce + 1))
  }
}

interface RpcReply {
  id?: number
  result?: unknown
  error?: { code: number; message: string }
}

/** Sends every transaction (set-up, not measured); throws on the first refusal, quoting the request. */
export async function sendAll(url: string, txs: readonly SignedTx[], batchSize = 200, connections = 4): Promise<void> {
  const u = new URL(url)
  let next = 0
  const worker = async (): Promise<void> => {
    const conn = new RawConnection(u.hostname, Number(u.port), 60_000)
    try {
      while (next < txs.length) {
        const slice = txs.slice(next, next + batchSize)
        next += slice.length
        const body = `[${slice.map((t, i) => rpcBody(i, 'eth_sendRawTransaction', [t.raw])).join(',')}]`
        const reply = await conn.post(buildRequest(u, Buffer.from(body)))
        if (reply.status !== 200) throw new Error(`eth_sendRawTransaction batch: HTTP ${reply.status}: ${reply.text.slice(0, 300)}`)
        const items = JSON.parse(reply.text) as RpcReply[] | RpcReply
        if (!Array.isArray(items)) throw new Error(`eth_sendRawTransaction batch answered ${reply.text.slice(0, 300)}`)
        for (const item of items) {
          const t = slice[item.id ?? -1]
          if (item.error !== undefined || t === undefined || item.result !== t.hash) {
            const what = t === undefined ? '' : ` (sender ${t.sender}, nonce ${t.nonce}, ${t.raw.slice(0, 20)}…)`
            throw new Error(`eth_sendRawTransaction${what} answered ${JSON.stringify(item).slice(0, 300)}`)
          }
        }
      }
    } finally {
      conn.close()
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
}

/** One JSON-RPC call over a fresh-or-reused raw socket: elapsed ms (write → last byte) and the parsed reply. */
export class TimedClient {
  private readonly conn: RawConnection
  private readonly url: URL
  constructor(url: string, timeoutMs = 120_000) {
    this.url = new URL(url)
    this.conn = new RawConnection(this.url.hostname, Number(this.url.port), timeoutMs)
  }

  async call<T = unknown>(method: string, params: unknown[]): Promise<{ ms: number; result: T }> {
    const request = buildRequest(this.url, Buffer.from(rpcBody(1, method, params)))
    const t0 = performance.now()
    const reply = await this.conn.post(request)
    const ms = performance.now() - t0
    if (reply.status !== 200) throw new Error(`${method}: HTTP ${reply.status}: ${reply.text.slice(0, 300)}`)
    const body = JSON.parse(reply.text) as RpcReply
    if (body.error !== undefined) throw new Error(`${method}(${JSON.stringify(params).slice(0, 100)}) answered error ${JSON.stringify(body.error)}`)
    return { ms, result: body.result as T }
  }

  close(): void {
    this.conn.close()
  }
}

/** The q-quantile (nearest rank) of a list of numbers; NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!
}
