import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { authorizationSigningHash, countNonZero, executeTransaction, floorDataGas, intrinsicGas } from './transaction.ts'
import { createAddress, delegationDesignator } from './frames.ts'
import { rulesFor, type ForkName } from './fork.ts'
import { assemble, blockEnvWith } from './test-kit.ts'
import { ExecutionTimeout, InvalidTransaction, Status, type Authorization, type BlockEnv, type TxInput, type TxOptions } from './types.ts'
import { WorldState } from './world-state.ts'
import { bytesToBigInt, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

const r = (fork: ForkName) => rulesFor(fork)

test('intrinsic gas: base, call data per fork, create, initcode words, access list, authorizations', () => {
  const none = new Uint8Array(0)
  assert.equal(intrinsicGas(none, false, undefined, 0, r('frontier')), 21000n)
  assert.equal(intrinsicGas(none, true, undefined, 0, r('frontier')), 21000n, 'a create cost 21000 before Homestead')
  assert.equal(intrinsicGas(none, true, undefined, 0, r('homestead')), 53000n)
  const data = new Uint8Array([0, 1])
  assert.equal(intrinsicGas(data, false, undefined, 0, r('frontier')), 21000n + 4n + 68n)
  assert.equal(intrinsicGas(data, false, undefined, 0, r('istanbul')), 21000n + 4n + 16n, 'EIP-2028')
  const list = [{ address: 1n, storageKeys: [1n, 2n] }, { address: 2n, storageKeys: [] }]
  assert.equal(intrinsicGas(none, false, list, 0, r('berlin')), 21000n + 2n * 2400n + 2n * 1900n)
  const initcode = new Uint8Array(33)
  assert.equal(intrinsicGas(initcode, true, undefined, 0, r('paris')), 53000n + 33n * 4n)
  assert.equal(intrinsicGas(initcode, true, undefined, 0, r('shanghai')), 53000n + 33n * 4n + 2n * 2n, 'EIP-3860: 2 per word')
  assert.equal(intrinsicGas(none, false, undefined, 2, r('prague')), 21000n + 2n * 25000n)
})

test('EIP-7623 floor: 21000 + 10 per token (a zero byte 1 token, others 4)', () => {
  assert.equal(floorDataGas(new Uint8Array(100).fill(1)), 25000n)
  assert.equal(floorDataGas(new Uint8Array(10)), 21100n)
  assert.equal(floorDataGas(new Uint8Array(0)), 21000n)
})

test('non-zero bytes are counted four at a time the same as one at a time, at every alignment and length', () => {
  const buffer = new Uint8Array(300)
  let seed = 7
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16
  // bytes of every kind: zero, 0x80 (only the high bit), 0x7f, 0x01, 0xff, random
  for (let i = 0; i < buffer.length; i++) buffer[i] = [0, 0, 0x80, 0x7f, 1, 0xff, next() & 0xff][next() % 7]!
  for (let start = 0; start < 9; start++) {
    for (let length = 0; length < 60; length++) {
      const data = buffer.subarray(start, start + length)
      let expected = 0
      for (const b of data) if (b !== 0) expected++
      assert.equal(countNonZero(data), expected, `start ${start}, length ${length}`)
    }
  }
  assert.equal(countNonZero(buffer), buffer.reduce((n, b) => n + (b !== 0 ? 1 : 0), 0))
})

// --- a small world ---------------------------------------------------------------------------------

interface Pre {
  nonce?: bigint
  balance?: bigint
  code?: Uint8Array
  storage?: Record<string, bigint>
}

function worldOf(accounts: Record<string, Pre>): WorldState {
  const codes = new Map<string, Uint8Array>()
  const byAddress = new Map<bigint, Pre>()
  for (const [a, pre] of Object.entries(accounts)) {
    byAddress.set(BigInt(a), pre)
    if (pre.code !== undefined) codes.set(bytesToHex(keccak256(pre.code)), pre.code)
  }
  const base: StateReader = {
    getAccount(address) {
      const pre = byAddress.get(bytesToBigInt(address))
      if (pre === undefined) return undefined
      const root = Object.keys(pre.storage ?? {}).length > 0 ? keccak256(new Uint8Array([1])) : KECCAK256_RLP
      return new Account(pre.nonce ?? 0n, pre.balance ?? 0n, root, pre.code === undefined ? KECCAK256_NULL : keccak256(pre.code))
    },
    getStorage(address, slot) {
      const v = byAddress.get(bytesToBigInt(address))?.storage?.[String(bytesToBigInt(slot))] ?? 0n
      return v === 0n ? new Uint8Array(0) : hexToBytes('0x' + v.toString(16).padStart(2 * Math.ceil(v.toString(16).length / 2), '0'))
    },
    getCode: (hash) => codes.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
  return new WorldState(base)
}

const SENDER = 0x5e7d00n
const COINBASE = 0xc0b0n
const TO = 0xb0b0n

function block(fields: Partial<BlockEnv> = {}): BlockEnv {
  return blockEnvWith({ coinbase: COINBASE, baseFee: 7n, ...fields })
}

function tx(fields: Partial<TxInput> = {}): TxInput {
  return { type: 2, from: SENDER, nonce: 0n, gasLimit: 21000n, to: TO, value: 0n, data: new Uint8Array(0), maxFeePerGas: 10n, maxPriorityFeePerGas: 2n, ...fields }
}

const RICH = 10n ** 18n

function rejects(reason: string | RegExp, t: TxInput, options: { fork?: ForkName; pre?: Pre; block?: Partial<BlockEnv>; options?: TxOptions } = {}): void {
  const w = worldOf({ [`0x${SENDER.toString(16)}`]: options.pre ?? { balance: RICH } })
  assert.throws(
    () => executeTransaction(w, block(options.block), rulesFor(options.fork ?? 'cancun'), t, options.options),
    (e: unknown) => {
      assert.ok(e instanceof InvalidTransaction, String(e))
      if (typeof reason === 'string') assert.equal(e.reason, reason)
      else assert.match(e.reason, reason)
      return true
    },
  )
  const d = w.diff()
  assert.equal(d.accounts.size + d.storage.size + d.wiped.size, 0, 'state untouched')
}

const from = '0x00000000000000000000000000000000005e7d00'

test('validation: type, nonce, sender code, fees, in geth’s words', () => {
  rejects('transaction type not supported', tx(), { fork: 'berlin' })
  rejects('transaction type not supported', tx({ type: 4, authorizationList: [] }), { fork: 'cancun' })
  rejects(`nonce too high: address ${from}, tx: 1 state: 0`, tx({ nonce: 1n }))
  rejects(`nonce too low: address ${from}, tx: 2 state: 3`, tx({ nonce: 2n }), { pre: { balance: RICH, nonce: 3n } })
  rejects(`nonce has max value: address ${from}, nonce: ${2n ** 64n - 1n}`, tx({ nonce: 2n ** 64n - 1n }), { pre: { balance: RICH, nonce: 2n ** 64n - 1n } })
  rejects(/^sender not an eoa: address 0x0+5e7d00, codehash: 0x/, tx(), { pre: { balance: RICH, code: new Uint8Array([0x00]) } })
  rejects(
    `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: 11, maxFeePerGas: 10`,
    tx({ maxPriorityFeePerGas: 11n }),
  )
  rejects(`max fee per gas less than block base fee: address ${from}, maxFeePerGas: 6, baseFee: 7`, tx({ maxFeePerGas: 6n, maxPriorityFeePerGas: 0n }))
  rejects(`max fee per gas less than block base fee: address ${from}, maxFeePerGas: 6, baseFee: 7`, tx({ type: 0, gasPrice: 6n }))
})

test('validation: balance, block gas, intrinsic gas, floor, initcode size, gas cap', () => {
  rejects(`insufficient funds for gas * price + value: address ${from} have 209999 want 210000`, tx(), { pre: { balance: 209999n } })
  rejects(`insufficient funds for gas * price + value: address ${from} have 210000 want 210001`, tx({ value: 1n }), { pre: { balance: 210000n } })
  rejects('gas limit reached', tx(), { options: { blockGasUsed: 30_000_000n - 20_999n } })
  rejects('intrinsic gas too low: have 20999, want 21000', tx({ gasLimit: 20999n }))
  const data = new Uint8Array(100).fill(1)
  rejects('insufficient gas for floor data gas cost: have 24999, want 25000', tx({ gasLimit: 24999n, data }), { fork: 'prague' })
  const initcode = new Uint8Array(49153)
  rejects('max initcode size exceeded: code size 49153 limit 49152', tx({ to: undefined, data: initcode, gasLimit: 10_000_000n }))
  rejects(`transaction gas limit too high (cap: 16777216, tx: 16777217)`, tx({ gasLimit: 16777217n }), { fork: 'osaka', block: { gasLimit: 60_000_000n } })
})

test('validation: blob and set-code transactions', () => {
  const hash = (1n << 248n) | 5n
  const blob = (fields: Partial<TxInput>) => tx({ type: 3, maxFeePerBlobGas: 1n, blobVersionedHashes: [hash], ...fields })
  rejects('blob transaction of type create', blob({ to: undefined }))
  rejects('blob transaction missing blob hashes', blob({ blobVersionedHashes: [] }))
  rejects('blob 1 has invalid hash version', blob({ blobVersionedHashes: [hash, (2n << 248n) | 1n] }))
  rejects(`max fee per blob gas less than block blob gas fee: address ${from} blobGasFeeCap: 1, blobBaseFee: 2`, blob({}), { block: { blobBaseFee: 2n } })
  rejects(/^blob gas limit reached/, blob({ blobVersionedHashes: [hash, hash] }), { block: { maxBlobGasPerBlock: 131072n } })
  rejects(`EIP-7702 transaction cannot be used to create contract (sender ${from})`, tx({ type: 4, to: undefined, authorizationList: [] }), { fork: 'prague' })
  rejects(`EIP-7702 transaction with empty auth list (sender ${from})`, tx({ type: 4, authorizationList: [] }), { fork: 'prague' })
})

test('eth_call options skip the nonce, fee and sender-code checks', () => {
  const w = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: 0n, nonce: 3n, code: new Uint8Array([0x00]) } })
  const result = executeTransaction(w, block(), rulesFor('cancun'), tx({ nonce: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }), {
    skipNonceCheck: true,
    skipFeeCharge: true,
    skipBaseFeeCheck: true,
    skipSenderCodeCheck: true,
  })
  assert.equal(result.status, Status.Success)
  assert.equal(w.getNonce(SENDER), 4n, 'the nonce is still bumped')
  assert.equal(w.getBalance(SENDER), 0n)
  assert.equal(w.exists(COINBASE), false, 'no fee, no touch of the coinbase')
})

test('a transfer: nonce, value, gas bought and paid back, priority fee to the coinbase, base fee burned', () => {
  const w = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: RICH } })
  const result = executeTransaction(w, block(), rulesFor('cancun'), tx({ gasLimit: 50_000n, value: 5n }))
  assert.equal(result.status, Status.Success)
  assert.equal(result.gasUsed, 21000n)
  assert.equal(w.getNonce(SENDER), 1n)
  assert.equal(w.getBalance(TO), 5n)
  assert.equal(w.getBalance(SENDER), RICH - 5n - 21000n * 9n)
  assert.equal(w.getBalance(COINBASE), 21000n * 2n)
  const old = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: RICH } })
  executeTransaction(old, block({ baseFee: 0n }), rulesFor('berlin'), tx({ type: 0, gasPrice: 3n }))
  assert.equal(old.getBalance(COINBASE), 21000n * 3n, 'before London the whole price goes to the coinbase')
})

test('refunds are capped at gasUsed/2 before London and gasUsed/5 from London', () => {
  const code = assemble('PUSH1 0x00 PUSH1 0x00 SSTORE STOP') // clears slot 0 (cold, 1 -> 0)
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH }, [`0x${TO.toString(16)}`]: { code, storage: { '0': 1n } } }
  const london = executeTransaction(worldOf(pre), block(), rulesFor('london'), tx({ gasLimit: 100_000n }))
  // 21000 + 2 pushes (6) + cold SSTORE clear (2100 + 2900) = 26006; refund 4800 (EIP-3529) under the cap 26006/5
  assert.equal(london.gasUsedBeforeRefund, 26006n)
  assert.equal(london.refund, 4800n)
  assert.equal(london.gasUsed, 26006n - 4800n)
  const berlin = executeTransaction(worldOf(pre), block({ baseFee: 0n }), rulesFor('berlin'), tx({ type: 0, gasPrice: 1n, gasLimit: 100_000n }))
  // refund 15000 capped at 26006/2 = 13003
  assert.equal(berlin.refund, 13003n)
  assert.equal(berlin.gasUsed, 13003n)
})

test('EIP-7623: a data-heavy transaction pays at least the floor from Prague', () => {
  const data = new Uint8Array(100).fill(1)
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH } }
  assert.equal(executeTransaction(worldOf(pre), block(), rulesFor('prague'), tx({ gasLimit: 30_000n, data })).gasUsed, 25000n)
  assert.equal(executeTransaction(worldOf(pre), block(), rulesFor('cancun'), tx({ gasLimit: 30_000n, data })).gasUsed, 22600n)
})

test('EIP-7623: when the floor decides the gas used, no refund is given back', () => {
  const code = assemble('PUSH1 0x00 PUSH1 0x00 SSTORE STOP') // clears slot 0: counter 4800
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH }, [`0x${TO.toString(16)}`]: { code, storage: { '0': 1n } } }
  const data = new Uint8Array(40).fill(1) // floor 21000 + 1600 = 22600; intrinsic 21000 + 640
  const run = (fork: 'prague' | 'cancun') => executeTransaction(worldOf(pre), block(), rulesFor(fork), tx({ gasLimit: 100_000n, data }))
  // execution 21640 + 6 + 5000 = 26646 before refunds; less 4800 is 21846, under the floor
  const prague = run('prague')
  assert.equal(prague.gasUsedBeforeRefund, 26646n)
  assert.equal(prague.gasUsed, 22600n)
  assert.equal(prague.refund, 0n)
  const cancun = run('cancun')
  assert.equal(cancun.refund, 4800n)
  assert.equal(cancun.gasUsed, 26646n - 4800n)
})

test('a contract creation bumps the nonce once and deploys at keccak(rlp([sender, nonce]))', () => {
  const w = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: RICH, nonce: 7n } })
  const initcode = assemble('PUSH1 0x01 PUSH1 0x00 MSTORE8 PUSH1 0x01 PUSH1 0x00 RETURN')
  const result = executeTransaction(w, block(), rulesFor('cancun'), tx({ to: undefined, nonce: 7n, data: initcode, gasLimit: 100_000n }))
  assert.equal(result.status, Status.Success)
  assert.equal(result.createdAddress, createAddress(SENDER, 7n))
  assert.equal(w.getNonce(SENDER), 8n)
  assert.deepEqual([...w.getCode(createAddress(SENDER, 7n))], [0x01])
  assert.deepEqual([...result.output], [0x01], 'the deployed code is the return data, as geth answers')
  const reverting = executeTransaction(w, block(), rulesFor('cancun'), tx({ to: undefined, nonce: 8n, data: assemble('PUSH0 PUSH0 REVERT'), gasLimit: 100_000n }))
  assert.equal(reverting.status, Status.Revert)
  assert.equal(reverting.createdAddress, createAddress(SENDER, 8n), 'a failed creation still names its address (the receipt’s contractAddress)')
  assert.equal(w.getNonce(SENDER), 9n)
})

test('EIP-161: a zero-value transfer to an existing empty account deletes it from Spurious Dragon on', () => {
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH }, [`0x${TO.toString(16)}`]: {} }
  const w = worldOf(pre)
  executeTransaction(w, block({ baseFee: 0n }), rulesFor('spuriousDragon'), tx({ type: 0, gasPrice: 1n }))
  assert.equal(w.exists(TO), false)
  assert.equal(w.diff().accounts.get('0x' + TO.toString(16).padStart(40, '0')), null)
  const old = worldOf(pre)
  executeTransaction(old, block({ baseFee: 0n }), rulesFor('tangerineWhistle'), tx({ type: 0, gasPrice: 1n }))
  assert.equal(old.exists(TO), true)
})

// --- EIP-7702 -----------------------------------------------------------------------------------

// The state tests' well-known key and its address.
const AUTHORITY_KEY = hexToBytes('0x45a915e4d060149eb4365960e6a7a45f334393093061116b197e3240065ff2d8')
const AUTHORITY = 0xa94f5374fce5edbc8e2a8697c15331677e6ebf0bn
const DELEGATE = 0xde1e00n

function sign(chainId: bigint, address: bigint, nonce: bigint): Authorization {
  const { signature, recid } = secp256k1.ecdsaSign(authorizationSigningHash(chainId, address, nonce), AUTHORITY_KEY)
  return { chainId, address, nonce, yParity: BigInt(recid), r: bytesToBigInt(signature.subarray(0, 32)), s: bytesToBigInt(signature.subarray(32)) }
}

test('EIP-7702: a signed authorization sets the designator, bumps the authority’s nonce, and the call runs the delegate’s code', () => {
  const pre = {
    [`0x${SENDER.toString(16)}`]: { balance: RICH },
    [`0x${AUTHORITY.toString(16)}`]: { balance: 1n },
    [`0x${DELEGATE.toString(16)}`]: { code: assemble('PUSH1 0x2a PUSH1 0x00 SSTORE STOP') },
  }
  const w = worldOf(pre)
  const auth = sign(1n, DELEGATE, 0n)
  const result = executeTransaction(w, block(), rulesFor('prague'), tx({ type: 4, to: AUTHORITY, gasLimit: 200_000n, authorizationList: [auth] }))
  assert.equal(result.status, Status.Success)
  assert.equal(bytesToHex(w.getCode(AUTHORITY)), bytesToHex(delegationDesignator(DELEGATE)))
  assert.equal(w.getNonce(AUTHORITY), 1n)
  assert.equal(w.getStorage(AUTHORITY, 0n), 0x2an, 'the delegate’s code ran in the authority’s storage')
  assert.equal(w.getStorage(DELEGATE, 0n), 0n)
  const cap = result.gasUsedBeforeRefund / 5n
  assert.equal(result.refund, cap < 12500n ? cap : 12500n, 'the authority existed: 12500 back (capped at a fifth)')
})

test('EIP-7702: invalid authorizations are skipped (other chain, wrong nonce, bad signature); chain 0 is any chain; address 0 clears', () => {
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH } }
  const skip = (auth: Authorization): void => {
    const w = worldOf(pre)
    executeTransaction(w, block(), rulesFor('prague'), tx({ type: 4, gasLimit: 100_000n, authorizationList: [auth] }))
    assert.equal(w.getCode(AUTHORITY).length, 0)
    assert.equal(w.getNonce(AUTHORITY), 0n)
  }
  skip(sign(5n, DELEGATE, 0n))
  skip(sign(1n, DELEGATE, 1n))
  skip({ ...sign(1n, DELEGATE, 0n), s: 2n ** 255n })
  skip({ ...sign(1n, DELEGATE, 0n), yParity: 2n })

  const w = worldOf(pre)
  executeTransaction(w, block(), rulesFor('prague'), tx({ type: 4, gasLimit: 100_000n, authorizationList: [sign(0n, DELEGATE, 0n), sign(1n, 0n, 1n)] }))
  assert.equal(w.getNonce(AUTHORITY), 2n, 'both applied, in order')
  assert.equal(w.getCode(AUTHORITY).length, 0, 'the second cleared the first')
})

test('an ExecutionTimeout leaves the state as it was', () => {
  const pre = { [`0x${SENDER.toString(16)}`]: { balance: RICH }, [`0x${TO.toString(16)}`]: { code: assemble('JUMPDEST PUSH1 0x00 JUMP') } }
  const w = worldOf(pre)
  assert.throws(() => executeTransaction(w, block(), rulesFor('cancun'), tx({ gasLimit: 20_000_000n }), { deadline: Date.now() - 1 }), ExecutionTimeout)
  const d = w.diff()
  assert.equal(d.accounts.size + d.storage.size + d.wiped.size, 0)
  assert.equal(w.getNonce(SENDER), 0n)
})

test('before Homestead, a creating transaction that cannot pay its code deposit ends in that error with its state and gas kept', () => {
  // Initcode returning 256 bytes: a deposit of 51,200 gas, more than the 60,000 gas limit leaves.
  const initcode = assemble('PUSH2 0x0100 PUSH1 0x00 RETURN')
  const create = { type: 0 as const, from: SENDER, nonce: 0n, gasLimit: 60_000n, to: undefined, value: 5n, data: initcode, gasPrice: 1n }
  const address = createAddress(SENDER, 0n)
  const frontier = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: RICH } })
  const r = executeTransaction(frontier, block({ baseFee: 0n }), rulesFor('frontier'), create)
  assert.equal(r.status, Status.Halt)
  assert.equal(r.haltReason, 'contract creation code storage out of gas')
  assert.ok(r.gasUsed < create.gasLimit, 'the gas left is not consumed')
  assert.equal(r.createdAddress, address)
  assert.equal(frontier.getBalance(address), 5n, 'the account and its value stay')
  assert.equal(frontier.getCode(address).length, 0, 'without code')
  // From Homestead the same transaction fails whole: every gas consumed, nothing created.
  const homestead = worldOf({ [`0x${SENDER.toString(16)}`]: { balance: RICH } })
  const h = executeTransaction(homestead, block({ baseFee: 0n }), rulesFor('homestead'), create)
  assert.equal(h.status, Status.Halt)
  assert.equal(h.gasUsed, create.gasLimit)
  assert.equal(homestead.exists(address), false)
})
