/**
 * Small hand-assembled contracts for tests that need storage written by constructors, self-destruct and
 * re-creation at one address (CREATE2), and a look at another account from inside the EVM. Each is a few
 * opcodes, spelled out below, so a test depends on no compiler. Hex strings carry no 0x unless typed `Hex`.
 */

import { concat, getContractAddress, keccak256, pad, toHex, type Hex } from 'viem'

/**
 * Runtime "getter or destruct": with calldata, returns the word in storage at slot calldata[0:32]; with no
 * calldata, SELFDESTRUCT to the caller.
 *
 *   0 CALLDATASIZE · 1 PUSH1 6 · 3 JUMPI · 4 CALLER · 5 SELFDESTRUCT ·
 *   6 JUMPDEST · PUSH1 0 CALLDATALOAD SLOAD · PUSH1 0 MSTORE · PUSH1 32 PUSH1 0 RETURN
 */
export const GETTER_RUNTIME = '3660065733ff5b6000355460005260206000f3'

/** Init code: `constructor` runs, then `runtime` is returned as the contract's code. */
export function initCode(constructor: string, runtime: string): Hex {
  const ctorLength = constructor.length / 2
  const runtimeLength = runtime.length / 2
  const byte = (n: number) => n.toString(16).padStart(2, '0')
  // PUSH1 len · DUP1 · PUSH1 offset · PUSH1 0 · CODECOPY · PUSH1 0 · RETURN (11 bytes), then the runtime.
  return `0x${constructor}60${byte(runtimeLength)}8060${byte(ctorLength + 11)}6000396000f3${runtime}`
}

/** Constructor storing 0x2a at slot 0 and 7 at slot 1. */
export const STORE_TWO_CONSTRUCTOR = '602a600055' + '6007600155'

/**
 * Constructor of the re-creatable contract: stores 0x2a at slot CALLVALUE; created with no value it
 * self-destructs at once (to its creator), so one CREATE2 init code serves for "created and destroyed in one
 * transaction" (value 0) and "created to stay" (value v > 0, its marker slot v).
 *
 *   0 PUSH1 0x2a · 2 CALLVALUE · 3 SSTORE · 4 CALLVALUE · 5 PUSH1 10 · 7 JUMPI · 8 CALLER · 9 SELFDESTRUCT · 10 JUMPDEST
 */
export const MARKER_CONSTRUCTOR = '602a3455' + '34600a57' + '33ff' + '5b'

/** The re-creatable contract's init code (constructor above, getter-or-destruct runtime). */
export const MARKER_INIT = initCode(MARKER_CONSTRUCTOR, GETTER_RUNTIME)

/**
 * Runtime of a CREATE2 factory: calldata is salt(32) ++ init code; creates with the call's value and returns
 * the new address as a word.
 *
 *   PUSH1 32 CALLDATASIZE SUB · DUP1 PUSH1 32 PUSH1 0 CALLDATACOPY · PUSH1 0 CALLDATALOAD · SWAP1 ·
 *   PUSH1 0 · CALLVALUE · CREATE2 · PUSH1 0 MSTORE · PUSH1 32 PUSH1 0 RETURN
 */
export const FACTORY_RUNTIME = '6020360380602060003760003590600034f560005260206000f3'

/** Calldata for the factory: create `init` under `salt`. */
export const factoryCall = (salt: bigint, init: Hex): Hex => concat([pad(toHex(salt), { size: 32 }), init])

/** Where the factory at `factory` creates `init` under `salt`. */
export const create2Address = (factory: Hex, salt: bigint, init: Hex): Hex =>
  getContractAddress({ opcode: 'CREATE2', from: factory, salt: pad(toHex(salt), { size: 32 }), bytecodeHash: keccak256(init) })

/**
 * Runtime of a probe: for the address in calldata[12:32], returns BALANCE, EXTCODESIZE and EXTCODEHASH as three
 * words (EXTCODEHASH is 0 for an account that does not exist).
 *
 *   PUSH1 0 CALLDATALOAD · DUP1 BALANCE PUSH1 0 MSTORE · DUP1 EXTCODESIZE PUSH1 32 MSTORE ·
 *   EXTCODEHASH PUSH1 64 MSTORE · PUSH1 96 PUSH1 0 RETURN
 */
export const PROBE_RUNTIME = '600035803160005280' + '3b602052' + '3f604052' + '60606000f3'

/**
 * Runtime of a one-word register: with calldata, stores calldata[0:32] at slot 0; without, returns slot 0.
 *
 *   0 CALLDATASIZE · 1 PUSH1 15 · 3 JUMPI · 4 PUSH1 0 SLOAD · PUSH1 0 MSTORE · PUSH1 32 PUSH1 0 RETURN ·
 *   15 JUMPDEST · PUSH1 0 CALLDATALOAD · PUSH1 0 SSTORE · STOP
 */
export const REGISTER_RUNTIME = '36600f5760005460005260206000f3' + '5b60003560005500'

/** Calldata asking the getter for `slot`. */
export const slotCall = (slot: bigint): Hex => pad(toHex(slot), { size: 32 })

/** Calldata asking the probe about `address`. */
export const probeCall = (address: Hex): Hex => pad(address, { size: 32 })

/** Splits a return value into 32-byte words as bigints. */
export const words = (hex: Hex | undefined): bigint[] => (hex ?? '0x').slice(2).match(/.{64}/g)?.map((w) => BigInt(`0x${w}`)) ?? []
