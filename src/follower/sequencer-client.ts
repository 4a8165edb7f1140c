/**
 * A follower's JSON-RPC client of its sequencer (plain HTTP POSTs, as any client): the sealed chain for
 * catch-up (`eth_blockNumber`, `debug_getRawBlock` in batches) and the calls a follower forwards
 * (transactions, their status). Every call has a deadline: a sequencer that does not answer is an
 * `SequencerUnreachable` after `timeoutMs`, never a hang. A JSON-RPC error answer is a `SequencerRefused`
 * carrying its code, message and data unchanged, so a follower can pass it to its own client as is.
 */

import { hexToBytes } from '../primitives/hex.ts'
import type { SealedBlockSource } from './follower.ts'

export class SequencerUnreachable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SequencerUnreachable'
  }
}

export class SequencerRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message)
    this.name = 'SequencerRefused'
  }
}

interface Answer {
  readonly id?: unknown
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

export class SequencerClient implements SealedBlockSource {
  private nextId = 1
  private readonly target: () => string | undefined

  constructor(
    /**
     * The sequencer's JSON-RPC URL (http://host:port), or where to find it at each call (a sequencer group's
     * leader, which changes; undefined while nobody leads: calls are then SequencerUnreachable).
     */
    target: string | (() => string | undefined),
    readonly timeoutMs = 5_000,
  ) {
    this.target = typeof target === 'string' ? () => target : target
  }

  /** Where calls go now (undefined while a group has no leader). */
  get url(): string | undefined {
    return this.target()
  }

  /** One call; its result, or SequencerRefused / SequencerUnreachable. */
  async call(method: string, params: readonly unknown[]): Promise<unknown> {
    const [answer] = await this.post([{ method, params }])
    return resultOf(answer!)
  }

  async blocks(from: bigint, to: bigint): Promise<Uint8Array[]> {
    const calls = []
    for (let n = from; n <= to; n++) calls.push({ method: 'debug_getRawBlock', params: [`0x${n.toString(16)}`] })
    const answers = await this.post(calls)
    return answers.map((a, i) => {
      const rlp = resultOf(a)
      if (typeof rlp !== 'string') throw new SequencerUnreachable(`debug_getRawBlock(${from + BigInt(i)}) answered ${JSON.stringify(rlp)}`)
      return hexToBytes(rlp)
    })
  }

  /** A batch; the answers in the order of `calls`. */
  private async post(calls: readonly { method: string; params: readonly unknown[] }[]): Promise<Answer[]> {
    const first = this.nextId
    this.nextId += calls.length
    const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params })))
    const url = this.url
    if (url === undefined) throw new SequencerUnreachable('no sequencer leads the group now')
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(this.timeoutMs) })
    } catch (e) {
      const why = e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)
      throw new SequencerUnreachable(`sequencer at ${url} unreachable: ${why}`)
    }
    let answers: unknown
    try {
      answers = await response.json()
    } catch {
      throw new SequencerUnreachable(`sequencer at ${url} answered HTTP ${response.status} without JSON`)
    }
    if (!Array.isArray(answers)) {
      const one = answers as Answer
      if (one.error !== undefined) throw new SequencerRefused(one.error.code, one.error.message, one.error.data)
      throw new SequencerUnreachable(`sequencer at ${url} answered HTTP ${response.status} without a batch`)
    }
    const byId = new Map((answers as Answer[]).map((a) => [a.id, a]))
    return calls.map((_, i) => byId.get(first + i) ?? { error: { code: -32603, message: 'no answer in the batch' } })
  }
}

function resultOf(answer: Answer): unknown {
  if (answer.error !== undefined) throw new SequencerRefused(answer.error.code, answer.error.message, answer.error.data)
  return answer.result
}
