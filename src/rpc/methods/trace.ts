/**
 * Tracing, geth's debug_ methods and the Parity-style trace_ ones explorers read, through the node's trace
 * port (NodeApi.traces: the work runs on the execution workers):
 * - debug_traceTransaction(hash, config): a sealed or a pre-confirmed transaction;
 * - debug_traceCall(call, block = latest, config): a call at any block, `pending` included, with geth's
 *   stateOverrides and blockOverrides;
 * - debug_traceBlockByNumber(block, config), debug_traceBlockByHash(hash, config): `[{ txHash, result }]`;
 * - trace_transaction(hash), trace_block(block): flatCallTracer's entries (reth's answer shape), a block's
 *   transactions' entries one after another.
 * These handlers only parse and encode; the endpoint policy keeps debug_ and trace_ off public endpoints.
 */

import type { NodeApi } from '../../node/api.ts'
import { LATEST } from '../../primitives/block-id.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required, withDefault } from '../params/args.ts'
import { parseBlockNumber, parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseCallRequest } from '../params/call.ts'
import { parseHash } from '../params/hex.ts'
import { parseTraceCallConfig, parseTraceConfig, type TraceCallConfig, type TraceConfig } from '../params/trace.ts'

const FLAT = { tracer: 'flatCallTracer' } as const
const FLAT_TIMEOUT_MS = 5_000
const NO_CONFIG = parseTraceConfig(undefined)

export function traceMethods(node: NodeApi): Record<string, MethodHandler> {
  const traces = node.traces
  const blockTraces = async (block: Parameters<typeof traces.traceBlock>[0], config: TraceConfig) => {
    const traced = await traces.traceBlock(block, config.spec, config.timeoutMs)
    return traced.map((t) => ({ txHash: bytesToHex(t.txHash), result: t.result }))
  }
  return {
    debug_traceTransaction: async (params) => {
      const [hash, config] = parseArgs(params, [required(parseHash), withDefault(parseTraceConfig, NO_CONFIG)])
      return traces.traceTransaction(hash, config.spec, config.timeoutMs)
    },
    debug_traceCall: async (params) => {
      const [request, block, config] = parseArgs(params, [required(parseCallRequest), withDefault(parseBlockNumberOrHash, LATEST), withDefault(parseTraceCallConfig, NO_CONFIG as TraceCallConfig)])
      return traces.traceCall(request, block, config.spec, config.timeoutMs, config.state, config.block)
    },
    debug_traceBlockByNumber: async (params) => {
      const [block, config] = parseArgs(params, [required(parseBlockNumber), withDefault(parseTraceConfig, NO_CONFIG)])
      return blockTraces(block, config)
    },
    debug_traceBlockByHash: async (params) => {
      const [hash, config] = parseArgs(params, [required(parseHash), withDefault(parseTraceConfig, NO_CONFIG)])
      return blockTraces({ kind: 'hash', hash, requireCanonical: false }, config)
    },
    trace_transaction: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return traces.traceTransaction(hash, FLAT, FLAT_TIMEOUT_MS)
    },
    trace_block: async (params) => {
      const [block] = parseArgs(params, [required(parseBlockNumber)])
      const traced = await traces.traceBlock(block, FLAT, FLAT_TIMEOUT_MS)
      return traced.flatMap((t) => t.result as unknown[])
    },
  }
}
