/**
 * Random values for the fuzz suite, all drawn from a seeded Rng: arbitrary JSON (every type, odd numbers,
 * awkward strings), hex in every wrong shape, Ethereum-shaped atoms (addresses, block ids, call objects, log
 * filters, simulate payloads, overrides) that are right often enough to reach deep into the handlers, and
 * oversized values (long strings, wide arrays and objects, deep nesting). Pure functions of the Rng.
 */

import type { Rng } from '../../support/rng.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

/** Field names the handlers look for, so random objects hit real code paths. */
const KEYS = [
  'from', 'to', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'data', 'input', 'nonce',
  'accessList', 'chainId', 'type', 'blobVersionedHashes', 'maxFeePerBlobGas', 'authorizationList',
  'fromBlock', 'toBlock', 'address', 'topics', 'blockHash', 'blockNumber', 'requireCanonical',
  'blockStateCalls', 'calls', 'stateOverrides', 'blockOverrides', 'validation', 'traceTransfers', 'returnFullTransactions',
  'balance', 'code', 'state', 'stateDiff', 'movePrecompileToAddress', 'number', 'time', 'gasLimit', 'feeRecipient',
  'prevRandao', 'baseFeePerGas', 'blobBaseFee', 'storageKeys', '__proto__', 'constructor', 'toString', '',
]

const TAGS = ['latest', 'pending', 'earliest', 'safe', 'finalized', 'Latest', 'PENDING', 'head', '']

const STRINGS = [
  '', ' ', '0x', '0X', '0x0', '0x00', '0x1', '0xg', 'x0', '-0x1', '0x-1', '1', 'null', 'true', '\u0000', '\uffff',
  '\ud800', '💥', 'é', '\n', '"', '\\', '%s%n', '${x}', '<script>', 'Infinity', 'NaN', '1e309', '0b1', '0o7',
]

const NUMBERS = [0, -0, 1, -1, 2 ** 31, 2 ** 53, -(2 ** 53), 2 ** 64, 1e308, -1e308, 0.5, 1e-7, 123456789012345680000]

export function randomString(rng: Rng, maxLength = 40): string {
  if (rng.chance(0.4)) return rng.pick(STRINGS)
  const n = rng.int(maxLength)
  let s = ''
  for (let i = 0; i < n; i++) {
    const r = rng.int(10)
    s += r < 6 ? String.fromCharCode(rng.range(0x20, 0x7e)) : r < 8 ? String.fromCharCode(rng.int(0x20)) : String.fromCharCode(rng.range(0x80, 0xffff))
  }
  return s
}

/** Hex in every shape: right, odd, oversized, leading zeros, no prefix, bad digits, upper case. */
export function randomHex(rng: Rng, maxBytes = 40): string {
  const bytes = rng.pick([0, 1, 2, 8, 20, 31, 32, 33, 64, rng.int(maxBytes + 1)])
  let digits = hexOf(rng.bytes(bytes))
  switch (rng.int(10)) {
    case 0: digits = digits.slice(1); break // odd length
    case 1: digits = `0${digits}`; break
    case 2: digits = digits.toUpperCase(); break
    case 3: digits = `${digits}zz`; break
    case 4: return digits // no prefix
    case 5: return `0X${digits}`
    default: break
  }
  return `0x${digits}`
}

/** A minimal quantity (`0x` + no leading zeros), sometimes past 64 or 256 bits. */
export function randomQuantity(rng: Rng): string {
  const bits = rng.pick([0, 1, 8, 16, 32, 53, 63, 64, 65, 128, 255, 256, 257, 300])
  let v = 0n
  for (let i = 0; i < bits; i++) v = (v << 1n) | (rng.chance(0.5) ? 1n : 0n)
  if (bits > 0) v |= 1n << BigInt(bits - 1)
  return `0x${v.toString(16)}`
}

/** Sets an own, enumerable key, `__proto__` included (a plain assignment would set the prototype). */
function setKey(obj: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
}

export function randomJson(rng: Rng, depth = 3): Json {
  const r = rng.int(depth <= 0 ? 6 : 9)
  switch (r) {
    case 0: return null
    case 1: return rng.chance(0.5)
    case 2: return rng.chance(0.5) ? rng.pick(NUMBERS) : rng.range(-1000, 1_000_000)
    case 3: return randomString(rng)
    case 4: return randomHex(rng)
    case 5: return randomQuantity(rng)
    case 6:
    case 7: {
      const n = rng.int(5)
      return Array.from({ length: n }, () => randomJson(rng, depth - 1))
    }
    default: {
      const obj: Record<string, Json> = {}
      const n = rng.int(5)
      for (let i = 0; i < n; i++) setKey(obj, rng.chance(0.8) ? rng.pick(KEYS) : randomString(rng, 12), randomJson(rng, depth - 1))
      return obj
    }
  }
}

export interface Known {
  /** Addresses that exist on the chain (funded accounts, system contracts). */
  readonly addresses: readonly string[]
  /** Hashes of blocks and transactions the chain holds. */
  readonly hashes: readonly string[]
}

export function randomAddress(rng: Rng, known: Known): string {
  const r = rng.int(10)
  if (r < 5 && known.addresses.length > 0) return rng.pick(known.addresses)
  if (r < 7) return `0x${hexOf(rng.bytes(20))}`
  if (r < 8) return `0x${'00'.repeat(20)}`
  return randomHex(rng, 24)
}

export function randomBlockId(rng: Rng, known: Known): Json {
  switch (rng.int(8)) {
    case 0:
    case 1: return rng.pick(TAGS)
    case 2: return rng.pick(['0x0', '0x1', '0x2', '0x5', '0xffffffff'])
    case 3: return randomQuantity(rng)
    case 4: return { blockHash: known.hashes.length > 0 && rng.chance(0.6) ? rng.pick(known.hashes) : randomHex(rng), requireCanonical: randomJson(rng, 0) }
    case 5: return { blockNumber: rng.chance(0.5) ? rng.pick(TAGS) : randomQuantity(rng) }
    case 6: return known.hashes.length > 0 ? rng.pick(known.hashes) : randomHex(rng)
    default: return randomJson(rng, 1)
  }
}

export function randomCall(rng: Rng, known: Known): Record<string, Json> {
  const call: Record<string, Json> = {}
  if (rng.chance(0.6)) call.from = randomAddress(rng, known)
  if (rng.chance(0.8)) call.to = rng.chance(0.9) ? randomAddress(rng, known) : null
  if (rng.chance(0.5)) call[rng.pick(['data', 'input'])] = rng.chance(0.7) ? `0x${hexOf(rng.bytes(rng.int(80)))}` : randomHex(rng)
  for (const field of ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'nonce', 'chainId', 'type']) {
    if (rng.chance(0.15)) call[field] = rng.chance(0.7) ? randomQuantity(rng) : randomJson(rng, 0)
  }
  if (rng.chance(0.1)) call.accessList = [{ address: randomAddress(rng, known), storageKeys: [randomHex(rng)] }]
  if (rng.chance(0.05)) call.blobVersionedHashes = [randomHex(rng)]
  if (rng.chance(0.05)) call.authorizationList = [randomJson(rng, 1)]
  if (rng.chance(0.1)) setKey(call, rng.pick(KEYS), randomJson(rng, 1))
  return call
}

export function randomOverrides(rng: Rng, known: Known): Json {
  if (rng.chance(0.2)) return randomJson(rng, 2)
  const out: Record<string, Json> = {}
  for (let i = rng.int(3); i >= 0; i--) {
    const o: Record<string, Json> = {}
    if (rng.chance(0.4)) o.balance = randomQuantity(rng)
    if (rng.chance(0.3)) o.nonce = randomQuantity(rng)
    if (rng.chance(0.3)) o.code = `0x${hexOf(rng.bytes(rng.int(40)))}`
    if (rng.chance(0.3)) o[rng.pick(['state', 'stateDiff'])] = { [randomHex(rng)]: randomHex(rng) }
    if (rng.chance(0.1)) o.movePrecompileToAddress = randomAddress(rng, known)
    out[randomAddress(rng, known)] = o
  }
  return out
}

export function randomFilter(rng: Rng, known: Known): Json {
  const f: Record<string, Json> = {}
  if (rng.chance(0.5)) f.fromBlock = randomBlockId(rng, known)
  if (rng.chance(0.5)) f.toBlock = randomBlockId(rng, known)
  if (rng.chance(0.2)) f.blockHash = rng.chance(0.5) && known.hashes.length > 0 ? rng.pick(known.hashes) : randomHex(rng)
  if (rng.chance(0.5)) f.address = rng.chance(0.5) ? randomAddress(rng, known) : [randomAddress(rng, known), randomAddress(rng, known)]
  if (rng.chance(0.5)) f.topics = Array.from({ length: rng.int(6) }, () => (rng.chance(0.3) ? null : rng.chance(0.5) ? randomHex(rng) : [randomHex(rng)]))
  return f
}

export function randomSimulation(rng: Rng, known: Known): Json {
  const blocks = Array.from({ length: rng.int(4) }, () => {
    const b: Record<string, Json> = {}
    if (rng.chance(0.9)) b.calls = Array.from({ length: rng.int(4) }, () => randomCall(rng, known))
    if (rng.chance(0.3)) b.stateOverrides = randomOverrides(rng, known)
    if (rng.chance(0.3)) {
      b.blockOverrides = Object.fromEntries(
        ['number', 'time', 'gasLimit', 'feeRecipient', 'baseFeePerGas', 'prevRandao'].filter(() => rng.chance(0.3)).map((k) => [k, rng.chance(0.8) ? randomQuantity(rng) : randomJson(rng, 0)]),
      )
    }
    return b
  })
  const payload: Record<string, Json> = { blockStateCalls: rng.chance(0.9) ? blocks : randomJson(rng, 1) }
  for (const flag of ['validation', 'traceTransfers', 'returnFullTransactions']) if (rng.chance(0.3)) payload[flag] = rng.chance(0.8) ? rng.chance(0.5) : randomJson(rng, 0)
  return payload
}

/** An Ethereum-shaped value of some kind. */
export function randomAtom(rng: Rng, known: Known): Json {
  switch (rng.int(11)) {
    case 0:
    case 1: return randomAddress(rng, known)
    case 2:
    case 3: return randomBlockId(rng, known)
    case 4: return randomCall(rng, known)
    case 5: return randomQuantity(rng)
    case 6: return known.hashes.length > 0 && rng.chance(0.5) ? rng.pick(known.hashes) : randomHex(rng)
    case 7: return randomFilter(rng, known)
    case 8: return randomSimulation(rng, known)
    case 9: return randomOverrides(rng, known)
    default: return rng.chance(0.5)
  }
}

/** Something big: a long string, a wide array or object, deep nesting within the depth limit. */
export function oversized(rng: Rng): Json {
  switch (rng.int(5)) {
    case 0: return `0x${'ab'.repeat(rng.range(64, 192) * 1024)}`
    case 1: return 'z'.repeat(rng.range(64, 256) * 1024)
    case 2: return Array.from({ length: rng.range(1_000, 20_000) }, (_, i) => i)
    case 3: return Object.fromEntries(Array.from({ length: rng.range(1_000, 10_000) }, (_, i) => [`k${i}`, i]))
    default: {
      let v: Json = 1
      for (let i = rng.range(50, 120); i > 0; i--) v = rng.chance(0.5) ? [v] : { a: v }
      return v
    }
  }
}

type Slot = 'address' | 'block' | 'hash' | 'call' | 'overrides' | 'bool' | 'index' | 'slot' | 'filter' | 'percentiles' | 'simulation' | 'raw'

/** The shape of a valid call per method, so a share of the cases gets past parameter parsing. */
const TEMPLATES: Readonly<Record<string, readonly Slot[]>> = {
  eth_getBalance: ['address', 'block'],
  eth_getCode: ['address', 'block'],
  eth_getTransactionCount: ['address', 'block'],
  eth_getStorageAt: ['address', 'slot', 'block'],
  eth_call: ['call', 'block', 'overrides'],
  eth_estimateGas: ['call', 'block', 'overrides'],
  eth_createAccessList: ['call', 'block'],
  eth_getBlockByNumber: ['block', 'bool'],
  eth_getBlockByHash: ['hash', 'bool'],
  eth_getBlockReceipts: ['block'],
  eth_getBlockTransactionCountByHash: ['hash'],
  eth_getBlockTransactionCountByNumber: ['block'],
  eth_getUncleCountByBlockHash: ['hash'],
  eth_getUncleCountByBlockNumber: ['block'],
  eth_getTransactionByHash: ['hash'],
  eth_getTransactionReceipt: ['hash'],
  eth_getTransactionByBlockHashAndIndex: ['hash', 'index'],
  eth_getTransactionByBlockNumberAndIndex: ['block', 'index'],
  eth_getLogs: ['filter'],
  eth_feeHistory: ['index', 'block', 'percentiles'],
  eth_simulateV1: ['simulation', 'block'],
  base_transactionStatus: ['hash'],
  eth_sendRawTransaction: ['raw'],
  eth_sendRawTransactionSync: ['raw', 'index'],
}

function slotValue(rng: Rng, known: Known, slot: Slot): Json {
  switch (slot) {
    case 'address': return randomAddress(rng, known)
    case 'block': return randomBlockId(rng, known)
    case 'hash': return known.hashes.length > 0 && rng.chance(0.7) ? rng.pick(known.hashes) : randomHex(rng)
    case 'call': return randomCall(rng, known)
    case 'overrides': return randomOverrides(rng, known)
    case 'bool': return rng.chance(0.5)
    case 'index': return rng.pick(['0x0', '0x1', '0x2', '0x3', randomQuantity(rng)])
    case 'slot': return rng.chance(0.7) ? rng.pick(['0x0', '0x1', `0x${'00'.repeat(32)}`]) : randomHex(rng)
    case 'filter': return randomFilter(rng, known)
    case 'percentiles': return rng.chance(0.7) ? [10, 50, 90].slice(0, rng.int(4)) : randomJson(rng, 1)
    case 'simulation': return randomSimulation(rng, known)
    case 'raw': return `0x${hexOf(rng.bytes(rng.int(200)))}`
  }
}

/** Params for any method: mostly an array of atoms and random JSON, sometimes not an array at all. When
 * the method's shape is known, a share of the cases follows it with at most one slot broken. */
export function randomParams(rng: Rng, known: Known, method?: string): Json {
  const template = method === undefined ? undefined : TEMPLATES[method]
  if (template !== undefined && rng.chance(0.45)) {
    const params = template.map((slot) => slotValue(rng, known, slot))
    if (rng.chance(0.3)) params[rng.int(params.length)] = rng.chance(0.9) ? randomJson(rng, 2) : oversized(rng)
    if (rng.chance(0.15)) params.pop()
    return params
  }
  if (rng.chance(0.04)) return randomJson(rng, 2)
  const n = rng.pick([0, 1, 1, 2, 2, 2, 3, 3, 4, 6])
  return Array.from({ length: n }, () => {
    const r = rng.int(100)
    if (r < 55) return randomAtom(rng, known)
    if (r < 97) return randomJson(rng, 2)
    return oversized(rng)
  })
}
