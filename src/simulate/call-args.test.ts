import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { ChainRules } from '../execution/chain-config.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { transactionView } from '../execution/views.ts'
import { Rng } from '../../test/support/rng.ts'
import { buildTransaction, callTransactionView, resolveCall, type CallLimits, type ResolvedCall } from './call-args.ts'
import { code } from './test-kit.ts'

const GENESIS = JSON.parse(readFileSync(new URL('../../../shared/rpc-compat/tests/genesis.json', import.meta.url), 'utf8'))
const rules = new ChainRules(GENESIS)
const CHAIN_ID = rules.chainId
const C0 = hexToBytes('0xc000000000000000000000000000000000000000')
const C1 = hexToBytes('0xc100000000000000000000000000000000000000')
const limits = (o: Partial<CallLimits> = {}): CallLimits => ({ blockGasLeft: 200_000_000n, budgetLeft: 50_000_000n, baseFee: 0n, chainId: CHAIN_ID, ...o })

test('defaults: nonce from the state, gas = the block\'s remainder cut to the budget, value 0, fees 0, EIP-1559 type', () => {
  const c = resolveCall({ from: C0, to: C1 }, 7n, limits())
  assert.equal(c.nonce, 7n)
  assert.equal(c.gas, 50_000_000n)
  assert.equal(c.gasCapped, true)
  assert.equal(c.type, 2)
  assert.equal(c.value, 0n)
  assert.deepEqual([c.msgGasPrice, c.msgFeeCap, c.msgTipCap], [0n, 0n, 0n])
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ blockGasLeft: 30_000n })).gas, 30_000n)
  assert.equal(bytesToHex(resolveCall({ to: C1 }, 0n, limits()).from), `0x${'00'.repeat(20)}`)
})

test('the type follows the fields: gasPrice (or no London) legacy, auth list set-code, blob hashes blob', () => {
  assert.equal(resolveCall({ to: C1, gasPrice: 1n }, 0n, limits()).type, 0)
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ baseFee: undefined })).type, 0)
  assert.equal(resolveCall({ to: C1, authorizationList: [] }, 0n, limits()).type, 4)
  assert.equal(resolveCall({ to: C1, blobVersionedHashes: [] }, 0n, limits()).maxFeePerBlobGas, 0n)
  assert.equal(resolveCall({ to: C1, blobVersionedHashes: [] }, 0n, limits()).type, 3)
})

test('the message pays min(tip + base fee, fee cap), or nothing when no fee is given', () => {
  const c = resolveCall({ to: C1, maxFeePerGas: 20n, maxPriorityFeePerGas: 3n }, 0n, limits({ baseFee: 10n }))
  assert.deepEqual([c.msgGasPrice, c.msgFeeCap, c.msgTipCap], [13n, 20n, 3n])
  assert.equal(resolveCall({ to: C1, maxFeePerGas: 11n, maxPriorityFeePerGas: 3n }, 0n, limits({ baseFee: 10n })).msgGasPrice, 11n)
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ baseFee: 10n })).msgGasPrice, 0n)
  const legacy = resolveCall({ to: C1, gasPrice: 12n }, 0n, limits({ baseFee: 10n }))
  assert.deepEqual([legacy.msgGasPrice, legacy.msgFeeCap, legacy.msgTipCap], [12n, 12n, 12n])
})

test('refusals: more gas than the block has left (-38015), fees of both styles and another chain id (-32000)', () => {
  assert.equal(code(() => resolveCall({ to: C1, gas: 30_001n }, 0n, limits({ blockGasLeft: 30_000n }))), -38015)
  assert.equal(code(() => resolveCall({ to: C1, gasPrice: 1n, maxFeePerGas: 2n, conflictingFees: true }, 0n, limits())), -32000)
  assert.equal(code(() => resolveCall({ to: C1, chainId: 1n }, 0n, limits())), -32000)
  assert.equal(code(() => resolveCall({ to: C1, chainId: CHAIN_ID }, 0n, limits())), undefined)
})

test('the unsigned transaction hashes as geth\'s (rpc-compat ethSimulate-simple: a plain send)', () => {
  const c = resolveCall({ from: C0, to: C1, value: 0x3e8n }, 0n, limits())
  const built = buildTransaction(c)
  assert.equal(bytesToHex(built.hash), '0xf1c5abb08809ef760f87aeabe7a87284c60797192dab6d2f0d26c27c9c038e9d')
  const view = callTransactionView(c, C0, built)
  assert.equal(view.gasLimit, 50_000_000n, 'above the EIP-7825 cap, as geth allows for calls')
  assert.equal(bytesToHex(view.from), bytesToHex(C0))
})

test('a nonce of 2^64 - 1 is kept (the library refuses to construct it)', () => {
  const c = resolveCall({ from: C0, to: C1 }, (1n << 64n) - 1n, limits())
  assert.equal(callTransactionView(c, C0, buildTransaction(c)).nonce, (1n << 64n) - 1n)
  assert.ok(bytesToHex(buildTransaction(c).serialized).includes('88ffffffffffffffff'), 'the nonce is encoded as 8 bytes of 0xff')
})

/** The library's construction of the same unsigned transaction: within its limits, then given geth's gas and nonce. */
function libraryTransaction(c: ResolvedCall): TypedTransaction {
  const hex = (v: bigint): string => `0x${v.toString(16)}`
  const data: Record<string, unknown> = { type: c.type, nonce: c.nonce > (1n << 64n) - 2n ? (1n << 64n) - 2n : c.nonce, gasLimit: c.gas > 1n << 24n ? 1n << 24n : c.gas, to: c.to, value: c.value, data: c.data }
  if (c.type === 0) data.gasPrice = c.gasPrice
  else {
    data.chainId = c.chainId
    data.maxFeePerGas = c.maxFeePerGas
    data.maxPriorityFeePerGas = c.maxPriorityFeePerGas
    data.accessList = (c.accessList ?? []).map((e) => ({ address: bytesToHex(e.address), storageKeys: e.storageKeys.map(bytesToHex) }))
  }
  if (c.type === 3) {
    data.maxFeePerBlobGas = c.maxFeePerBlobGas
    data.blobVersionedHashes = (c.blobVersionedHashes ?? []).map(bytesToHex)
  }
  if (c.type === 4) {
    data.authorizationList = (c.authorizationList ?? []).map((a) => ({ chainId: hex(a.chainId), address: bytesToHex(a.address), nonce: hex(a.nonce), yParity: hex(a.yParity), r: hex(a.r), s: hex(a.s) }))
  }
  const tx = createTx(data as never, { common: rules.at(0x37n, 0x228n), freeze: false }) as TypedTransaction
  Object.assign(tx, { gasLimit: c.gas, nonce: c.nonce })
  return tx
}

test('every type of call encodes, hashes and reads as the library\'s transaction of the same fields (random calls)', () => {
  const rng = new Rng(20)
  const word = (): bigint => BigInt(`0x${Buffer.from(rng.bytes(1 + rng.int(32))).toString('hex')}`)
  const small = (): bigint => (rng.chance(0.2) ? 0n : BigInt(rng.int(1_000_000)))
  const counts = [0, 0, 0, 0, 0]
  for (let i = 0; i < 400; i++) {
    const kind = rng.int(4)
    const tip = small()
    const call = {
      from: rng.bytes(20),
      ...(kind >= 2 || rng.chance(0.8) ? { to: rng.bytes(20) } : {}),
      value: rng.chance(0.5) ? 0n : word(),
      data: rng.bytes(rng.chance(0.3) ? 0 : rng.int(300)),
      gas: rng.chance(0.2) ? 30_000_000n : BigInt(21_000 + rng.int(1_000_000)),
      ...(rng.chance(0.1) ? { nonce: (1n << 64n) - 1n } : rng.chance(0.5) ? { nonce: small() } : {}),
      ...(kind === 0 ? { gasPrice: small() } : { maxFeePerGas: tip + small(), maxPriorityFeePerGas: tip }),
      ...(kind !== 0 && rng.chance(0.5) ? { accessList: Array.from({ length: rng.int(3) }, () => ({ address: rng.bytes(20), storageKeys: Array.from({ length: rng.int(3) }, () => rng.bytes(32)) })) } : {}),
      ...(kind === 2 ? { blobVersionedHashes: Array.from({ length: 1 + rng.int(3) }, () => Uint8Array.of(1, ...rng.bytes(31))), ...(rng.chance(0.5) ? { maxFeePerBlobGas: small() } : {}) } : {}),
      ...(kind === 3
        ? { authorizationList: Array.from({ length: 1 + rng.int(3) }, () => ({ chainId: small(), address: rng.bytes(20), nonce: small(), yParity: BigInt(rng.int(2)), r: word(), s: word() })) }
        : {}),
    }
    const c = resolveCall(call, small(), limits({ baseFee: 7n, budgetLeft: 40_000_000n }))
    counts[c.type]!++
    const built = buildTransaction(c)
    const tx = libraryTransaction(c)
    const serialized = tx.serialize()
    assert.equal(bytesToHex(built.serialized), bytesToHex(serialized), `call ${i} (type ${c.type}): the encoding`)
    assert.equal(bytesToHex(built.hash), bytesToHex(keccak_256(serialized)), `call ${i}: the hash`)
    const expected = transactionView(tx, call.from, built.hash, serialized)
    const { chainId: _unprotected, ...legacy } = expected
    assert.deepEqual(callTransactionView(c, call.from, built), c.type === 0 ? legacy : expected, `call ${i} (type ${c.type}): the view`)
  }
  assert.ok([0, 2, 3, 4].every((t) => counts[t]! > 50), `calls of each type: ${counts}`)
})
