/**
 * What the `trace` scenario's rows accept as an answer, checked against the transaction traced (its signed
 * fields here, its receipt on the peer): a wrong answer is never measured.
 *   - callTracer: a CALL from the sender to the transaction's `to` with its input, no error, gasUsed the
 *     receipt's; a transfer returns true and calls nothing; a swap returns a non-zero amount and calls the pair.
 *   - prestateTracer: the sender with the transaction's nonce, the callee with code, and the recipient's balance
 *     slot at its genesis value (no earlier transaction paid it) in the token it is paid in; a swap names the
 *     router, the pair, and both tokens.
 *   - struct logger: not failed, `gas` the receipt's gasUsed, the return value (true; a non-zero amount), a stack on every step and no
 *     memory (the options asked for), the last step a RETURN, and as many steps as the other peer answered.
 * Anvil 1.7.1 gives the block's cumulative gas used up to the transaction as callTracer's top gasUsed and as the
 * struct logger's `gas`; that is accepted from Anvil only (and said in the scenario's notes).
 */

import type { Address, Hex } from 'viem'
import { balanceSlot } from '../test/fixtures/erc20/index.ts'
import type { BenchChain } from './genesis.ts'
import type { PeerName } from './nodes.ts'
import type { SealedGas, TraceTx } from './trace-txs.ts'

const TRUE_WORD = `0x${'0'.repeat(63)}1`
const lower = (x: unknown): string => (typeof x === 'string' ? x.toLowerCase() : String(x))
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)

function fail(tx: TraceTx, what: string): never {
  throw new Error(`${tx.kind} ${tx.hash}: ${what}`)
}

/** gasUsed as a receipt says it (or, from Anvil, the cumulative figure it answers instead). */
function checkGas(tx: TraceTx, peer: PeerName, got: unknown, gas: SealedGas, what: string): void {
  const n = typeof got === 'number' || (typeof got === 'string' && got !== '') ? BigInt(got) : undefined
  if (n === gas.gasUsed || (peer === 'anvil' && n === gas.cumulativeGasUsed)) return
  fail(tx, `${what} ${String(got)}, the receipt says ${gas.gasUsed}`)
}

export function checkCallTrace(chain: BenchChain, tx: TraceTx, peer: PeerName, gas: SealedGas, got: unknown): void {
  if (!isRecord(got)) fail(tx, `callTracer answered ${JSON.stringify(got).slice(0, 200)}`)
  if (got['type'] !== 'CALL' || lower(got['from']) !== lower(tx.from) || lower(got['to']) !== lower(tx.to) || lower(got['input']) !== lower(tx.input)) {
    fail(tx, `callTracer's top frame is not the transaction: ${JSON.stringify(got).slice(0, 300)}`)
  }
  if (got['error'] !== undefined) fail(tx, `callTracer's top frame failed: ${String(got['error'])}`)
  checkGas(tx, peer, got['gasUsed'], gas, "callTracer's top gasUsed")
  const calls = Array.isArray(got['calls']) ? (got['calls'] as unknown[]) : []
  if (tx.kind === 'transfer') {
    if (lower(got['output']) !== TRUE_WORD || calls.length !== 0) fail(tx, `callTracer: output ${String(got['output'])} and ${calls.length} calls, not true and none`)
    return
  }
  const pair = lower(chain.swap!.pair)
  if (!(typeof got['output'] === 'string' && BigInt(got['output']) > 0n) || !calls.some((c) => isRecord(c) && lower(c['to']) === pair)) {
    fail(tx, `callTracer: a swap returned ${String(got['output'])} and called ${calls.length} frames, none the pair`)
  }
}

export function checkPrestate(chain: BenchChain, tx: TraceTx, got: unknown): void {
  if (!isRecord(got)) fail(tx, `prestateTracer answered ${JSON.stringify(got).slice(0, 200)}`)
  const accounts = new Map(Object.entries(got).map(([a, v]) => [a.toLowerCase(), v]))
  const account = (a: Address, what: string): Record<string, unknown> => {
    const v = accounts.get(a.toLowerCase())
    if (!isRecord(v)) fail(tx, `prestateTracer: no ${what} (${a}) among ${[...accounts.keys()].join(', ')}`)
    return v
  }
  const sender = account(tx.from, 'sender')
  const nonce = sender['nonce'] === undefined ? 0n : BigInt(sender['nonce'] as number | string) // geth omits a zero nonce
  if (nonce !== BigInt(tx.nonce)) fail(tx, `prestateTracer: the sender's nonce ${String(sender['nonce'])}, the transaction's ${tx.nonce}`)
  if (typeof account(tx.to, 'callee')['code'] !== 'string') fail(tx, 'prestateTracer: the callee has no code')
  const s = chain.swap!
  const paidIn = tx.kind === 'transfer' ? chain.token : s.tokenB
  if (tx.kind === 'swap') for (const [a, what] of [[s.pair, 'pair'], [s.tokenA, 'token A']] as const) account(a, what)
  const storage = account(paidIn, 'token paid in')['storage']
  const slot = isRecord(storage) ? new Map(Object.entries(storage).map(([k, v]) => [k.toLowerCase(), v])).get(balanceSlot(tx.recipient).toLowerCase()) : undefined
  if (typeof slot !== 'string' || BigInt(slot) !== chain.tokenBalance) fail(tx, `prestateTracer: the recipient's balance slot ${String(slot)}, not its genesis ${chain.tokenBalance}`)
}

/** Struct logger steps answered per transaction, by the first peer that answered (the other must agree). */
const stepsSeen = new Map<string, { peer: PeerName; steps: number }>()

export function checkStructLog(tx: TraceTx, peer: PeerName, gas: SealedGas, got: unknown): void {
  if (!isRecord(got) || !Array.isArray(got['structLogs'])) fail(tx, `the struct logger answered ${JSON.stringify(got).slice(0, 200)}`)
  if (got['failed'] !== false) fail(tx, 'the struct logger says it failed')
  checkGas(tx, peer, got['gas'], gas, "the struct logger's gas")
  const returned = lower(got['returnValue']).replace(/^(0x)?/, '0x')
  if (!/^0x[0-9a-f]{64}$/.test(returned) || (tx.kind === 'transfer' ? returned !== TRUE_WORD : BigInt(returned) === 0n)) {
    fail(tx, `the struct logger's returnValue ${String(got['returnValue'])}: not ${tx.kind === 'transfer' ? 'true' : 'a swap\'s amount out'}`)
  }
  const steps = got['structLogs'] as unknown[]
  if (steps.length === 0) fail(tx, 'the struct logger answered no steps')
  const bad = steps.findIndex((x) => !isRecord(x) || !Array.isArray(x['stack']) || x['memory'] !== undefined)
  if (bad >= 0) fail(tx, `step ${bad} has no stack or has memory: ${JSON.stringify(steps[bad]).slice(0, 200)}`)
  const last = steps[steps.length - 1] as Record<string, unknown>
  if (last['op'] !== 'RETURN') fail(tx, `the last step is ${String(last['op'])}, not RETURN`)
  const seen = stepsSeen.get(tx.hash)
  if (seen === undefined) stepsSeen.set(tx.hash, { peer, steps: steps.length })
  else if (seen.steps !== steps.length) fail(tx, `${steps.length} steps, where ${seen.peer} answered ${seen.steps}`)
}
