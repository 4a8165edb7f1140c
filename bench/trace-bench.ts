/**
 * Scenario "trace": debug_traceTransaction of sealed transactions (issue 39's goals), every request a
 * different transaction. On each peer start, before any row, the set-up sends and seals 300 distinct ERC-20
 * transfers and 300 distinct swaps A→B through the router and the pair, 20 of one kind a block (trace-txs.ts);
 * a row's bodies then cycle through the 300 hashes of its kind:
 *   - callTracer of a transfer; of a swap; prestateTracer of a transfer; of a swap;
 *   - the struct logger (no tracer named) of a swap, with geth's default options spelled out to both peers
 *     (stack on, storage on, memory off, return data off);
 *   - flatCallTracer of a swap, Flashnode alone: Anvil 1.7.1 answers `{}` to it.
 * Each row's answer is checked first on its first, middle and last transactions (trace-checks.ts).
 *
 * Both peers mine only when asked (Flashnode `--sealing manual`, Anvil `--no-mining`). The struct logger row
 * runs on a start of Anvil of its own with `--steps-tracing` (without it Anvil's struct logger answers an empty
 * `structLogs`; with it, Anvil records every step of every transaction it mines, and its callTracer of a swap
 * answered about half as many a second in two short runs, so the other rows run on a start without it; the
 * set-up runs again there).
 */

import type { Hex } from 'viem'
import type { RunningNode } from './nodes.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'
import { checkCallTrace, checkPrestate, checkStructLog } from './trace-checks.ts'
import { BLOCK_SIZE, PER_KIND, sealTraceTransactions, SENDERS, TRACE_HOLDERS, traceTransactions, type SealedGas, type TraceKind, type TraceTx } from './trace-txs.ts'

/** geth's struct logger defaults, named so that neither peer's own defaults decide. */
const STRUCT_LOGGER = { enableMemory: false, disableStack: false, disableStorage: false, enableReturnData: false } as const

interface Row {
  readonly label: string
  readonly kind: TraceKind
  readonly config: Record<string, unknown>
  readonly peers?: readonly ['flashnode']
  readonly anvilArgs?: readonly string[]
  check(tx: TraceTx, peer: RunningNode['peer'], gas: SealedGas, got: unknown): void
}

function checkFlat(tx: TraceTx, got: unknown): void {
  const first = Array.isArray(got) ? (got[0] as { action?: { from?: string; to?: string; input?: string }; transactionHash?: string } | undefined) : undefined
  const same = (a: string | undefined, b: string): boolean => a?.toLowerCase() === b.toLowerCase()
  if (first?.action === undefined || !same(first.action.from, tx.from) || !same(first.action.to, tx.to) || !same(first.action.input, tx.input) || !same(first.transactionHash, tx.hash)) {
    throw new Error(`flatCallTracer of ${tx.hash}: the first entry is not the transaction: ${JSON.stringify(got).slice(0, 300)}`)
  }
  if ((got as unknown[]).length < 2) throw new Error(`flatCallTracer of swap ${tx.hash}: ${(got as unknown[]).length} entries, a swap calls out`)
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  const set = traceTransactions(chain)
  const sealed = new WeakMap<RunningNode, Promise<Map<Hex, SealedGas>>>()
  /** The set-up, once per peer start (the first row's check starts it). */
  const sealedOn = (node: RunningNode): Promise<Map<Hex, SealedGas>> => {
    let p = sealed.get(node)
    if (p === undefined) sealed.set(node, (p = sealTraceTransactions(node, set)))
    return p
  }
  const rows: Row[] = [
    { label: 'callTracer', kind: 'transfer', config: { tracer: 'callTracer' }, check: (tx, peer, gas, got) => checkCallTrace(chain, tx, peer, gas, got) },
    { label: 'callTracer', kind: 'swap', config: { tracer: 'callTracer' }, check: (tx, peer, gas, got) => checkCallTrace(chain, tx, peer, gas, got) },
    { label: 'prestateTracer', kind: 'transfer', config: { tracer: 'prestateTracer' }, check: (tx, _peer, _gas, got) => checkPrestate(chain, tx, got) },
    { label: 'prestateTracer', kind: 'swap', config: { tracer: 'prestateTracer' }, check: (tx, _peer, _gas, got) => checkPrestate(chain, tx, got) },
    { label: 'struct logger (no tracer; stack on, memory off)', kind: 'swap', config: STRUCT_LOGGER, anvilArgs: ['--steps-tracing'], check: (tx, peer, gas, got) => checkStructLog(tx, peer, gas, got) },
    { label: 'flatCallTracer', kind: 'swap', config: { tracer: 'flatCallTracer' }, peers: ['flashnode'], check: (tx, _peer, _gas, got) => checkFlat(tx, got) },
  ]
  const what: Record<TraceKind, string> = { transfer: 'an ERC-20 transfer', swap: 'a swap A→B' }
  return rows.map((row): BenchCase => {
    const txs = set[row.kind]
    return {
      name: `debug_traceTransaction ${row.label}, ${what[row.kind]} (${PER_KIND} sealed, a different one each request)`,
      unit: 'traces/s',
      ...(row.peers === undefined ? {} : { peers: row.peers }),
      ...(row.anvilArgs === undefined ? {} : { anvilArgs: row.anvilArgs }),
      bodies: () => txs.map((tx, i) => rpcBody(i + 1, 'debug_traceTransaction', [tx.hash, row.config])),
      check: async ({ node }: CaseRun) => {
        const gas = await sealedOn(node)
        for (const tx of [txs[0]!, txs[txs.length >> 1]!, txs[txs.length - 1]!]) {
          const g = gas.get(tx.hash.toLowerCase() as Hex)
          if (g === undefined) throw new Error(`${tx.hash} has no receipt`)
          row.check(tx, node.peer, g, await rpcCall(node.url, 'debug_traceTransaction', [tx.hash, row.config], 60_000))
        }
      },
    }
  })
}

export const traceBench: Scenario = {
  name: 'trace',
  title: `debug_traceTransaction of sealed ERC-20 transfers and swaps through a router and a pair, ${PER_KIND} of each cycled`,
  genesis: { accounts: SENDERS, holders: TRACE_HOLDERS, swap: true },
  anvilArgs: ['--no-mining'],
  flashnodeArgs: ['--sealing', 'manual'],
  mutatesState: true,
  notes: () => [
    `set-up on each peer start (not measured): ${PER_KIND} ERC-20 transfers (each to a holder no other one pays, 1 + i units) and ${PER_KIND} ` +
      `swaps (1 + i·10^-6 token A each, paid to a distinct holder) from ${SENDERS} senders, sealed ${BLOCK_SIZE} of one kind a block by evm_mine; ` +
      'each checked to have succeeded',
    'each row checks three of its answers against the transaction and its receipt first (bench/trace-checks.ts); ' +
      "Anvil 1.7.1's callTracer top gasUsed and struct logger gas are the block's cumulative gas used up to the transaction " +
      '(its receipt gasUsed from Flashnode): accepted from Anvil only',
    "the struct logger row runs on a start of Anvil with --steps-tracing (without it Anvil's struct logger answers no steps; with it, " +
      "its callTracer of a swap answered 78/s against 163/s without in two 1 s runs, so the other rows run without it); the struct logger's options are geth's defaults, " +
      'sent to both: {enableMemory: false, disableStack: false, disableStorage: false, enableReturnData: false}',
    'flatCallTracer: Flashnode only, Anvil 1.7.1 answers {} to it (n/a)',
  ],
  cases,
}
