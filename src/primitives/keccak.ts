/**
 * keccak-256, the hash behind transaction and block hashes, trie nodes, blooms, storage slots of mappings and
 * the KECCAK256 opcode. Every hash in the node (ours and, through the Common's customCrypto, the EVM
 * library's) goes through this one function.
 *
 * It runs hash-wasm's WebAssembly keccak: ~0.7 µs for a 32-110 byte input on this project's 2-core machine
 * against ~5.5 µs for @noble/hashes' pure-JS one (24.5 vs 2.5 µs at 600 bytes), and keccak is the largest
 * single item of a simulation's and an admission's profile. The module is instantiated once per thread, when
 * this module loads (top-level await), so the function itself is synchronous. `keccak.test.ts` checks it
 * against @noble/hashes over every length that crosses the sponge's block and chunk boundaries.
 *
 * One hasher per thread: init/update/digest run to completion without yielding, so no two hashes interleave.
 * `digest('binary')` returns a copy, never a view of the WebAssembly memory.
 */

import { createKeccak } from 'hash-wasm'

const hasher = await createKeccak(256)

export function keccak256(data: Uint8Array): Uint8Array {
  hasher.init()
  hasher.update(data)
  return hasher.digest('binary')
}
