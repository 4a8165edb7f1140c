/**
 * A NodeApi test double for the handler tests: every method records the arguments it received and answers a
 * canned value, which a test may replace. Imported only by `*.test.ts` files.
 */

import type { NodeApi, StateProofs, TraceApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'

export interface RecordedCall {
  readonly method: string
  readonly args: readonly unknown[]
}

type Methods = { [K in keyof NodeApi as NodeApi[K] extends (...args: never[]) => unknown ? K : never]: NodeApi[K] }

const defaults: Methods = {
  blockNumber: () => 0x36n,
  syncing: () => ({ syncing: false }),
  getBalance: async () => 0x10n,
  getTransactionCount: async () => 1n,
  getCode: async () => new Uint8Array([0x60, 0x01]),
  getStorageAt: async () => new Uint8Array(32).fill(0, 0, 31).fill(0x38, 31),
  call: async () => new Uint8Array([0xff, 0xee]),
  estimateGas: async () => 21_000n,
  createAccessList: async () => ({ accessList: [], gasUsed: 21_000n }),
  simulateV1: async () => [],
  simulateV1Json: async () => '[]',
  getBlock: async () => null,
  rawBlock: async () => null,
  getBlockReceipts: async () => null,
  getTransactionByHash: async () => null,
  getTransactionByBlockAndIndex: async () => null,
  getTransactionReceipt: async () => null,
  getLogs: async () => [],
  gasPrice: async () => 1_000_000_007n,
  maxPriorityFeePerGas: async () => 1_000_000_000n,
  blobBaseFee: async () => 1n,
  feeHistory: async () => ({ oldestBlock: 0n, baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [] }),
  sendRawTransaction: async () => new Uint8Array(32).fill(0x77),
  sendRawTransactionSync: async () => {
    throw new Error('not faked')
  },
  transactionStatus: async () => 'Unknown' as const,
  mine: async () => undefined,
  flashblock: async () => undefined,
  sendDeposit: async () => new Uint8Array(32),
  subscribe: () => () => undefined,
}

/** The proof port's canned answer: an absent account (zero values, empty hashes, no nodes) echoing its inputs. */
const absentProof: StateProofs['getProof'] = async (address, slots) => ({
  address,
  accountProof: [],
  nonce: 0n,
  balance: 0n,
  codeHash: new Uint8Array(32),
  storageHash: new Uint8Array(32),
  storageProof: slots.map((slot) => ({ slot, value: 0n, proof: [] })),
})


/** `proofs` replaces the proof port's answer; its calls are recorded as `proofs.getProof`. */
export function fakeNode(answers: Partial<Methods> = {}, proofs: Partial<StateProofs> = {}): { node: NodeApi; calls: RecordedCall[] } {
  const calls: RecordedCall[] = []
  const impl = { ...defaults, ...answers } as Record<string, (...args: unknown[]) => unknown>
  const node: Record<string, unknown> = { chainId: 3503995874084926n, networkId: 3503995874084926n, clientVersion: 'flashnode/test', preconfirmations: true }
  for (const [method, fn] of Object.entries(impl)) {
    node[method] = (...args: unknown[]) => {
      calls.push({ method, args })
      return fn(...args)
    }
  }
  const getProof = proofs.getProof ?? absentProof
  node.proofs = {
    getProof: (...args: Parameters<StateProofs['getProof']>) => {
      calls.push({ method: 'proofs.getProof', args })
      return getProof(...args)
    },
  } satisfies StateProofs
  // The trace port: calls recorded, no traces (the tracing tests run a real node, test/e2e/tracing.test.ts).
  const record = <T>(method: string, answer: T) => (...args: unknown[]): Promise<T> => {
    calls.push({ method, args })
    return Promise.resolve(answer)
  }
  node.traces = {
    traceTransaction: record('traces.traceTransaction', null),
    traceCall: record('traces.traceCall', null),
    traceBlock: record('traces.traceBlock', []),
  } satisfies TraceApi
  return { node: node as unknown as NodeApi, calls }
}

/** Runs one handler of a group the way the transport would. */
export function invoke(group: Record<string, MethodHandler>, method: string, params: readonly unknown[]): Promise<unknown> {
  const handler = group[method]
  if (handler === undefined) throw new Error(`no handler ${method}`)
  return handler(params, { signal: new AbortController().signal, endpoint: 'test' })
}
