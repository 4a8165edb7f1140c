/**
 * What erc7562Tracer adds to one callTracer frame (geth's callFrameWithOpcodes): the storage slots it read and
 * wrote (persistent and transient), the addresses whose code it inspected with EXTCODE*, the opcodes it used,
 * the code sizes of the contracts it inspected or called, and whether it ran out of gas; and the frame's JSON
 * as geth writes it (map keys sorted as Go's encoding/json sorts them, as text).
 *
 * It owns plain records and pure functions only: it never reads state or the EVM (the tracer, erc7562.ts,
 * fills the records) and never changes the callTracer frame it annotates.
 */

import { callFrameJson, type CallFrame } from './call.ts'
import { address, hash, quantity } from './json.ts'

export interface OpcodeRecord {
  /** slot -> its value when the frame first read it (only a slot neither read nor written before). */
  readonly reads: Map<bigint, bigint>
  readonly writes: Map<bigint, number>
  readonly transientReads: Map<bigint, number>
  readonly transientWrites: Map<bigint, number>
  /** Addresses an EXTCODE* opcode looked at, in order, repeats included. */
  readonly extCodeAccess: bigint[]
  /** opcode -> how many times it ran (ignored opcodes not counted). */
  readonly usedOpcodes: Map<number, number>
  /** address -> its code size when first inspected or called, and the opcode that did it. */
  readonly contractSize: Map<bigint, { readonly size: number; readonly opcode: number }>
}

export const newRecord = (): OpcodeRecord => ({
  reads: new Map(), writes: new Map(), transientReads: new Map(), transientWrites: new Map(),
  extCodeAccess: [], usedOpcodes: new Map(), contractSize: new Map(),
})

export const bump = <K>(counts: Map<K, number>, key: K): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1)
}

/** geth's errors.Is(err, ErrOutOfGas) (a gas function's error is wrapped in it) or ErrCodeStoreOutOfGas. */
export const isOutOfGas = (error: string | undefined): boolean =>
  error !== undefined && (error === 'out of gas' || error.startsWith('out of gas:') || error === 'contract creation code storage out of gas')

/** A map's entries as a JSON object, keys as text and sorted as Go sorts text map keys. */
function sortedObject<K, V>(m: ReadonlyMap<K, V>, key: (k: K) => string, value: (v: V) => unknown): Record<string, unknown> {
  const entries = [...m].map(([k, v]) => [key(k), value(v)] as const)
  entries.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
  return Object.fromEntries(entries)
}

const EMPTY_RECORD: OpcodeRecord = newRecord()

/**
 * geth's JSON of a frame and its children: the callTracer fields, then the opcode record of each frame
 * (frames no opcode ran in have an empty one), `outOfGas` (the frames in `outOfGas`) and, on the top frame
 * only, the sorted keccak preimages when there are any.
 */
export function erc7562FrameJson(
  f: CallFrame,
  records: ReadonlyMap<CallFrame, OpcodeRecord>,
  outOfGas: ReadonlySet<CallFrame>,
  top: boolean,
  keccak: readonly string[],
): Record<string, unknown> {
  const out = callFrameJson({ ...f, calls: [] })
  const r = records.get(f) ?? EMPTY_RECORD
  out.accessedSlots = {
    reads: sortedObject(r.reads, hash, (v) => [hash(v)]),
    writes: sortedObject(r.writes, hash, (n) => n),
    transientReads: sortedObject(r.transientReads, hash, (n) => n),
    transientWrites: sortedObject(r.transientWrites, hash, (n) => n),
  }
  out.extCodeAccessInfo = r.extCodeAccess.map(address)
  out.usedOpcodes = sortedObject(r.usedOpcodes, quantity, (n) => n)
  out.contractSize = sortedObject(r.contractSize, address, (c) => ({ contractSize: c.size, opcode: c.opcode }))
  out.outOfGas = outOfGas.has(f)
  if (top && keccak.length > 0) out.keccak = keccak.slice()
  if (f.calls.length > 0) out.calls = f.calls.map((c) => erc7562FrameJson(c, records, outOfGas, false, keccak))
  return out
}
