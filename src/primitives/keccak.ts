/**
 * keccak-256, the hash behind transaction and block hashes, trie nodes, blooms, storage slots of mappings and
 * the KECCAK256 opcode. Every hash in the node (ours and, through the Common's customCrypto, the EVM
 * library's) goes through this module.
 *
 * It runs hash-wasm's WebAssembly keccak, ~4× faster than @noble/hashes' pure-JS one on short inputs and 10×
 * at 600 bytes, and keccak is the largest single item of a simulation's, an admission's and a seal's profile.
 * hash-wasm's public hasher costs as much again around that work (a view and a subarray per update, a copy
 * per digest, three calls into the module), so this module instantiates the same WebAssembly binary itself,
 * synchronously, once per thread, and calls its one-shot export: the input is copied into the module's
 * buffer, hashed, and the digest read where the module left it. The binary is the one inside the pinned
 * hash-wasm package (its per-algorithm bundle); if that package ever stops carrying it, loading this module
 * throws, and `keccak.test.ts` checks the result against @noble/hashes over every length that crosses the
 * sponge's block and the buffer's chunk boundaries.
 *
 * One module instance per thread, and every function runs to completion without yielding, so no two hashes
 * interleave. keccak256 returns a fresh array; keccak256Range leaves the digest in the module's memory, read
 * through `digestView` at `DIGEST_OFFSET`, valid until the next hash (the EVM reads it straight into a word).
 */

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

interface KeccakExports {
  readonly memory: WebAssembly.Memory
  Hash_GetBuffer(): number
  Hash_Init(bits: number): void
  Hash_Update(length: number): void
  Hash_Final(padding: number): void
  Hash_Calculate(length: number, bits: number, padding: number): void
}

/** Bytes the module's input buffer takes at once (hash-wasm's own chunk size). */
const CHUNK = 16 * 1024
const BITS = 256
/** Keccak's padding byte (SHA-3 would be 0x06). */
const KECCAK_PADDING = 0x01
/** Below this length the input is copied byte by byte: cheaper than making a subarray for set(). */
const BYTE_LOOP_MAX = 64

function loadModule(): KeccakExports {
  const bundle = createRequire(import.meta.url).resolve('hash-wasm/dist/keccak.umd.min.js')
  const found = /name:"sha3",data:"([A-Za-z0-9+/=]+)"/.exec(readFileSync(bundle, 'utf8'))
  if (found === null) throw new Error(`keccak: no WebAssembly binary found in ${bundle} (hash-wasm's layout changed)`)
  const module = new WebAssembly.Module(Buffer.from(found[1]!, 'base64'))
  return new WebAssembly.Instance(module, {}).exports as unknown as KeccakExports
}

const wasm = loadModule()
/** Where the module reads its input and leaves its digest. */
export const DIGEST_OFFSET = wasm.Hash_GetBuffer()
let memory = new Uint8Array(wasm.memory.buffer)
/** The module's memory as 32-bit words (native byte order): keccak256View copies its input 4 bytes a step. */
let memoryWords = new Uint32Array(wasm.memory.buffer)
/** Where the input buffer starts in memoryWords (the module's buffer is word-aligned; checked here). */
const INPUT_WORD = DIGEST_OFFSET / 4
if (!Number.isInteger(INPUT_WORD)) throw new Error(`keccak: the module's buffer at ${DIGEST_OFFSET} is not 4-byte aligned`)
/** Native byte order: a word read from the input little-endian lands as the same four bytes. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1
/** The module's memory as a DataView: the digest of the last keccak256Range is its 32 bytes at DIGEST_OFFSET. */
export let digestView = new DataView(wasm.memory.buffer)

function refreshViews(): void {
  // the module never grows its memory today; if it did, the old buffer would be detached (length 0)
  memory = new Uint8Array(wasm.memory.buffer)
  memoryWords = new Uint32Array(wasm.memory.buffer)
  digestView = new DataView(wasm.memory.buffer)
}

/** Hashes bytes[start, start + length): the digest is left at DIGEST_OFFSET of `digestView`. */
export function keccak256Range(bytes: Uint8Array, start: number, length: number): void {
  if (memory.byteLength === 0) refreshViews()
  if (length <= CHUNK) {
    copyIn(bytes, start, length)
    wasm.Hash_Calculate(length, BITS, KECCAK_PADDING)
    return
  }
  wasm.Hash_Init(BITS)
  for (let done = 0; done < length; done += CHUNK) {
    const n = Math.min(CHUNK, length - done)
    copyIn(bytes, start + done, n)
    wasm.Hash_Update(n)
  }
  wasm.Hash_Final(KECCAK_PADDING)
}

function copyIn(bytes: Uint8Array, start: number, length: number): void {
  if (length <= BYTE_LOOP_MAX) {
    const m = memory
    for (let i = 0; i < length; i++) m[DIGEST_OFFSET + i] = bytes[start + i]!
  } else {
    memory.set(bytes.subarray(start, start + length), DIGEST_OFFSET)
  }
}

/**
 * keccak256Range over bytes read through `view` (the EVM's memory keeps a DataView of its buffer): the input
 * is copied into the module 4 bytes a step, about 3× faster than byte by byte for a 64-byte input. The
 * digest is left at DIGEST_OFFSET of `digestView`.
 */
export function keccak256View(view: DataView, start: number, length: number): void {
  if (length > CHUNK) return keccak256Range(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), start, length)
  if (memory.byteLength === 0) refreshViews()
  const words = length >> 2
  const w = memoryWords
  for (let i = 0; i < words; i++) w[INPUT_WORD + i] = view.getUint32(start + 4 * i, LITTLE_ENDIAN)
  const m = memory
  for (let i = words << 2; i < length; i++) m[DIGEST_OFFSET + i] = view.getUint8(start + i)
  wasm.Hash_Calculate(length, BITS, KECCAK_PADDING)
}

export function keccak256(data: Uint8Array): Uint8Array {
  keccak256Range(data, 0, data.length)
  return memory.slice(DIGEST_OFFSET, DIGEST_OFFSET + 32)
}
