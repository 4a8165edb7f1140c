/**
 * Consensus rules at their edges, each a fixed case that runs every time: the RIPEMD-160 touch exception,
 * EIP-7702's refund, skipped authorities and warmed delegate, EIP-7825's gas cap and Osaka's blob cap at
 * exactly their bounds. Each runs one transaction through our EVM (WorldState + executeTransaction on a
 * whole plain-data pre-state) and states what the rule says must follow; where the library oracle
 * (@ethereumjs/vm) implements the same rule its whole post-state must agree too.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { rulesFor, type ForkName } from '../../src/evm/fork.ts'
import { delegationDesignator } from '../../src/evm/frames.ts'
import { assemble, blockEnvWith } from '../../src/evm/test-kit.ts'
import { authorizationSigningHash, executeTransaction } from '../../src/evm/transaction.ts'
import { InvalidTransaction, Status, type Authorization, type BlockEnv, type TxInput, type TxResult } from '../../src/evm/types.ts'
import { WorldState } from '../../src/evm/world-state.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex } from '../../src/primitives/hex.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { accountState, applyDiff, stateReaderOf, type AccountState, type WorldSnapshot } from '../state-tests/world.ts'
import { runWithLibrary } from './library-oracle.ts'

const SENDER = 0x5e7d00n
const CONTRACT = 0xc0de00n
const INNER = 0xc0de01n
const DELEGATE = 0xde1e00n
const RIPEMD = 3n
const IDENTITY = 4n
const RICH = 10n ** 24n
const AUTHORITY_KEY = bigIntToFixedBytes(0x1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988n, 32)
const AUTHORITY = bytesToBigInt(keccak256(secp256k1.getPublicKey(AUTHORITY_KEY, false).subarray(1)).subarray(12))
const SECP256K1_N = secp256k1.Point.Fn.ORDER

function world(accounts: Record<string, Partial<AccountState>>): WorldSnapshot {
  const out = new Map<bigint, AccountState>()
  for (const [address, fields] of Object.entries(accounts)) out.set(BigInt(address), accountState(fields))
  return out
}

const hexOf = (a: bigint): string => `0x${a.toString(16)}`

function block(fields: Partial<BlockEnv> = {}): BlockEnv {
  return blockEnvWith({ coinbase: 0xc0b0n, baseFee: 7n, gasLimit: 60_000_000n, maxBlobGasPerBlock: 9n * 131072n, ...fields })
}

function tx(fields: Partial<TxInput> = {}): TxInput {
  return { type: 2, from: SENDER, nonce: 0n, gasLimit: 1_000_000n, to: CONTRACT, value: 0n, data: new Uint8Array(0), maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, ...fields }
}

function run(pre: WorldSnapshot, fork: ForkName, t: TxInput, b: BlockEnv = block()): { result: TxResult; post: WorldSnapshot } {
  const state = new WorldState(stateReaderOf(pre))
  const result = executeTransaction(state, b, rulesFor(fork), t)
  return { result, post: applyDiff(pre, state.diff()) }
}

function refusal(pre: WorldSnapshot, fork: ForkName, t: TxInput, b: BlockEnv = block()): string | undefined {
  try {
    run(pre, fork, t, b)
    return undefined
  } catch (e) {
    if (e instanceof InvalidTransaction) return e.reason
    throw e
  }
}

async function assertLibraryAgrees(pre: WorldSnapshot, fork: ForkName, t: TxInput, ours: WorldSnapshot): Promise<void> {
  const theirs = await runWithLibrary(pre, block(), fork, t)
  const addresses = new Set([...ours.keys(), ...theirs.post.keys()])
  for (const address of addresses) {
    const a = ours.get(address)
    const b = theirs.post.get(address)
    assert.equal(a === undefined, b === undefined, `${hexOf(address)} ${a === undefined ? 'absent' : 'present'} here, ${b === undefined ? 'absent' : 'present'} in the library`)
    if (a !== undefined && b !== undefined) {
      assert.equal(a.nonce, b.nonce, `${hexOf(address)} nonce`)
      assert.equal(a.balance, b.balance, `${hexOf(address)} balance`)
      assert.equal(bytesToHex(a.code), bytesToHex(b.code), `${hexOf(address)} code`)
    }
  }
}

// --- RIPEMD-160 -----------------------------------------------------------------------------------

/** CALL(gas, to, 0, 0, 0, 0, 0) then POP. */
const call = (gas: string, to: bigint): string => `PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH20 ${hexOf(to)} ${gas} CALL POP`

for (const fork of ['spuriousDragon', 'cancun', 'osaka'] as const) {
  test(`RIPEMD-160 exception (${fork}): an empty 0x03 touched by a failing precompile call is deleted; an empty 0x04 so touched is kept`, async () => {
    // Both calls get no gas: RIPEMD-160 (600+) and IDENTITY (15+) fail, and each call's touch is reverted,
    // except 0x03's.
    const pre = world({
      [hexOf(SENDER)]: { balance: RICH },
      [hexOf(RIPEMD)]: {},
      [hexOf(IDENTITY)]: {},
      [hexOf(CONTRACT)]: { code: assemble(`${call('PUSH1 0', RIPEMD)} ${call('PUSH1 0', IDENTITY)} STOP`) },
    })
    const t = fork === 'spuriousDragon' ? tx({ type: 0, gasPrice: 10n }) : tx()
    const { result, post } = run(pre, fork, t, fork === 'spuriousDragon' ? block({ baseFee: 0n }) : block())
    assert.equal(result.status, Status.Success)
    assert.equal(post.has(RIPEMD), false, 'the empty 0x03 is deleted')
    assert.equal(post.has(IDENTITY), true, 'the empty 0x04 stays: the exception is 0x03 alone')
    if (fork !== 'spuriousDragon') await assertLibraryAgrees(pre, fork, t, post)
  })
}

test('RIPEMD-160 exception: an empty 0x03 touched by a successful call in a frame that then reverts is deleted; 0x04 is kept', async () => {
  const pre = world({
    [hexOf(SENDER)]: { balance: RICH },
    [hexOf(RIPEMD)]: {},
    [hexOf(IDENTITY)]: {},
    [hexOf(CONTRACT)]: { code: assemble(`${call('GAS', INNER)} STOP`) },
    // The inner frame calls both precompiles with gas to spare (both succeed), then reverts.
    [hexOf(INNER)]: { code: assemble(`${call('PUSH2 0x2000', RIPEMD)} ${call('PUSH2 0x2000', IDENTITY)} PUSH1 0 PUSH1 0 REVERT`) },
  })
  const { result, post } = run(pre, 'prague', tx())
  assert.equal(result.status, Status.Success)
  assert.equal(post.has(RIPEMD), false, 'the empty 0x03 is deleted')
  assert.equal(post.has(IDENTITY), true, 'the empty 0x04 stays')
  await assertLibraryAgrees(pre, 'prague', tx(), post)
})

test('RIPEMD-160 exception: an absent 0x03 called in a reverting frame is not created, and a 0x03 with a balance is kept', () => {
  const code = { code: assemble(`${call('GAS', INNER)} STOP`) }
  const inner = { code: assemble(`${call('PUSH2 0x2000', RIPEMD)} PUSH1 0 PUSH1 0 REVERT`) }
  const absent = run(world({ [hexOf(SENDER)]: { balance: RICH }, [hexOf(CONTRACT)]: code, [hexOf(INNER)]: inner }), 'cancun', tx())
  assert.equal(absent.post.has(RIPEMD), false)
  const funded = run(world({ [hexOf(SENDER)]: { balance: RICH }, [hexOf(RIPEMD)]: { balance: 1n }, [hexOf(CONTRACT)]: code, [hexOf(INNER)]: inner }), 'cancun', tx())
  assert.equal(funded.post.get(RIPEMD)?.balance, 1n)
})

// --- EIP-7702 -------------------------------------------------------------------------------------

function sign(chainId: bigint, address: bigint, nonce: bigint): Authorization {
  const sig = secp256k1.sign(authorizationSigningHash(chainId, address, nonce), AUTHORITY_KEY, { prehash: false, format: 'recovered' })
  return { chainId, address, nonce, yParity: BigInt(sig[0]!), r: bytesToBigInt(sig.subarray(1, 33)), s: bytesToBigInt(sig.subarray(33, 65)) }
}

/** Two fresh slots written: enough gas used (~90,000) that a fifth of it exceeds the 12,500 refund. */
const BURNER = assemble('PUSH1 1 PUSH1 0 SSTORE PUSH1 1 PUSH1 1 SSTORE STOP')

function authorizing(authority: Partial<AccountState> | undefined, auth: Authorization = sign(1n, DELEGATE, 0n)) {
  const accounts: Record<string, Partial<AccountState>> = {
    [hexOf(SENDER)]: { balance: RICH },
    [hexOf(CONTRACT)]: { code: BURNER },
    [hexOf(DELEGATE)]: { code: assemble('STOP') },
  }
  if (authority !== undefined) accounts[hexOf(AUTHORITY)] = authority
  return run(world(accounts), 'prague', tx({ type: 4, authorizationList: [auth] }))
}

test('EIP-7702: the 12,500 refund is given when the authority exists, empty or not, and not when it is absent', () => {
  const existingEmpty = authorizing({})
  assert.ok(existingEmpty.result.gasUsedBeforeRefund / 5n > 12500n, 'the refund is not capped here')
  assert.equal(existingEmpty.result.refund, 12500n, 'an existing empty authority')
  assert.equal(authorizing({ balance: 1n }).result.refund, 12500n, 'an existing funded authority')
  assert.equal(authorizing(undefined).result.refund, 0n, 'an absent authority')
  for (const outcome of [existingEmpty, authorizing(undefined)]) {
    assert.equal(bytesToHex(outcome.post.get(AUTHORITY)!.code), bytesToHex(delegationDesignator(DELEGATE)))
    assert.equal(outcome.post.get(AUTHORITY)!.nonce, 1n)
  }
})

test('EIP-7702: an authority holding contract code is skipped (code, nonce kept, no refund); one holding a delegation is not', () => {
  const code = assemble('PUSH1 0 STOP')
  const skipped = authorizing({ code })
  assert.equal(bytesToHex(skipped.post.get(AUTHORITY)!.code), bytesToHex(code))
  assert.equal(skipped.post.get(AUTHORITY)!.nonce, 0n)
  assert.equal(skipped.result.refund, 0n)
  const redelegated = authorizing({ code: delegationDesignator(CONTRACT) })
  assert.equal(bytesToHex(redelegated.post.get(AUTHORITY)!.code), bytesToHex(delegationDesignator(DELEGATE)))
  assert.equal(redelegated.result.refund, 12500n)
})

test('EIP-7702: a high-s authorization (the same signature as (r, n - s), parity flipped) is skipped; its low-s twin applies', () => {
  const low = sign(1n, DELEGATE, 0n)
  assert.ok(low.s <= SECP256K1_N / 2n)
  const high = { ...low, s: SECP256K1_N - low.s, yParity: low.yParity ^ 1n }
  const skipped = authorizing({ balance: 1n }, high)
  assert.equal(skipped.post.get(AUTHORITY)!.code.length, 0, 'no delegation')
  assert.equal(skipped.post.get(AUTHORITY)!.nonce, 0n)
  assert.equal(authorizing({ balance: 1n }, low).post.get(AUTHORITY)!.nonce, 1n)
})

test('EIP-7702: the delegate of the transaction’s `to` is warm when the delegated code runs', () => {
  // The delegated code measures BALANCE(DELEGATE): GAS, PUSH20, BALANCE, POP, GAS between two readings is
  // 3 + 100 + 2 + 2 = 107 when DELEGATE is warm (2,607 cold), stored in slot 0.
  const probe = assemble(`GAS PUSH20 ${hexOf(DELEGATE)} BALANCE POP GAS SWAP1 SUB PUSH1 0 SSTORE STOP`)
  const pre = world({
    [hexOf(SENDER)]: { balance: RICH },
    [hexOf(AUTHORITY)]: { balance: 1n, code: delegationDesignator(DELEGATE) },
    [hexOf(DELEGATE)]: { code: probe },
  })
  const { result, post } = run(pre, 'prague', tx({ to: AUTHORITY }))
  assert.equal(result.status, Status.Success)
  assert.equal(post.get(AUTHORITY)!.storage.get(0n), 107n)
})

// --- limits at their bounds -----------------------------------------------------------------------

test('EIP-7825: from Osaka a transaction of exactly 2^24 gas is accepted and 2^24 + 1 refused; Prague has no cap', () => {
  const pre = world({ [hexOf(SENDER)]: { balance: RICH }, [hexOf(CONTRACT)]: { code: assemble('STOP') } })
  assert.equal(refusal(pre, 'osaka', tx({ gasLimit: 1n << 24n })), undefined)
  assert.equal(refusal(pre, 'osaka', tx({ gasLimit: (1n << 24n) + 1n })), `transaction gas limit too high (cap: ${1n << 24n}, tx: ${(1n << 24n) + 1n})`)
  assert.equal(refusal(pre, 'prague', tx({ gasLimit: (1n << 24n) + 1n })), undefined)
})

test('EIP-7594: from Osaka a transaction with exactly 6 blobs is accepted and 7 refused; Prague takes 7', () => {
  const pre = world({ [hexOf(SENDER)]: { balance: RICH }, [hexOf(CONTRACT)]: { code: assemble('STOP') } })
  const blobs = (n: number): TxInput => tx({ type: 3, maxFeePerBlobGas: 1n, blobVersionedHashes: Array.from({ length: n }, (_, i) => (1n << 248n) | BigInt(i + 1)) })
  assert.equal(refusal(pre, 'osaka', blobs(6)), undefined)
  assert.equal(refusal(pre, 'osaka', blobs(7)), 'blob transaction has too many blobs: have 7, max 6')
  assert.equal(refusal(pre, 'prague', blobs(7)), undefined)
  assert.equal(run(pre, 'osaka', blobs(6)).result.blobGasUsed, 6n * 131072n)
})
