import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { create2Address, createAddress, delegationDesignator, parseDelegation, TransactionHost, MAX_CODE_SIZE } from './frames.ts'
import { rulesFor, type ForkName } from './fork.ts'
import { assemble, TEST_BLOCK } from './test-kit.ts'
import { MessageKind, Status, type Message } from './types.ts'
import { WorldState, EMPTY_CODE_HASH } from './world-state.ts'
import { bytesToBigInt, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'

test('CREATE addresses: keccak(rlp([sender, nonce]))[12:]', () => {
  // Widely published vectors for sender 0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0.
  const sender = 0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0n
  assert.equal(createAddress(sender, 0n), 0xcd234a471b72ba2f1ccf0a70fcaba648a5eecd8dn)
  assert.equal(createAddress(sender, 1n), 0x343c43a37d37dff08ae8c4a11544c718abb4fcf8n)
  assert.equal(createAddress(sender, 2n), 0xf778b86fa74e846c4f0a1fbd1335fe81c00a0c91n)
  assert.equal(createAddress(sender, 3n), 0xfffd933a0bc612844eaf0c6fe3e5b8e9b6c1d19cn)
})

test('CREATE2 addresses: the examples of EIP-1014', () => {
  const cases: [string, string, string, string][] = [
    ['0x0000000000000000000000000000000000000000', '0x00', '0x00', '0x4D1A2e2bB4F88F0250f26Ffff098B0b30B26BF38'],
    ['0xdeadbeef00000000000000000000000000000000', '0x00', '0x00', '0xB928f69Bb1D91Cd65274e3c79d8986362984fDA3'],
    ['0xdeadbeef00000000000000000000000000000000', '0x000000000000000000000000feed000000000000000000000000000000000000', '0x00', '0xD04116cDd17beBE565EB2422F2497E06cC1C9833'],
    ['0x0000000000000000000000000000000000000000', '0x00', '0xdeadbeef', '0x70f2b2914A2a4b783FaEFb75f459A580616Fcb5e'],
    ['0x00000000000000000000000000000000deadbeef', '0xcafebabe', '0xdeadbeef', '0x60f3f640a8508fC6a86d45DF051962668E1e8AC7'],
    [
      '0x00000000000000000000000000000000deadbeef',
      '0xcafebabe',
      '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
      '0x1d8bfDC5D46DC4f61D6b6115972536eBE6A8854C',
    ],
    ['0x0000000000000000000000000000000000000000', '0x00', '0x', '0xE33C0C7F7df4809055C3ebA6c09CFe4BaF1BD9e0'],
  ]
  for (const [sender, salt, initcode, expected] of cases) {
    assert.equal(create2Address(BigInt(sender), BigInt(salt), hexToBytes(initcode)), BigInt(expected), `${sender} ${salt} ${initcode}`)
  }
})

test('delegation designators: 0xef0100 ‖ address, exactly 23 bytes', () => {
  const d = delegationDesignator(0x1234n)
  assert.equal(bytesToHex(d), '0xef01000000000000000000000000000000000000001234')
  assert.equal(parseDelegation(d), 0x1234n)
  assert.equal(parseDelegation(d.subarray(0, 22)), undefined)
  assert.equal(parseDelegation(new Uint8Array([0xef, 0x01, 0x01, ...new Uint8Array(20)])), undefined)
})

// --- frames over a small world ----------------------------------------------------------------------

interface Pre {
  nonce?: bigint
  balance?: bigint
  code?: string
  storage?: boolean
}

function worldOf(accounts: Record<string, Pre>): WorldState {
  const codes = new Map<string, Uint8Array>()
  const byAddress = new Map<bigint, { account: Account }>()
  for (const [a, pre] of Object.entries(accounts)) {
    const code = pre.code === undefined ? new Uint8Array(0) : pre.code.startsWith('0x') ? hexToBytes(pre.code) : assemble(pre.code)
    const hash = code.length === 0 ? KECCAK256_NULL : keccak256(code)
    codes.set(bytesToHex(hash), code)
    byAddress.set(BigInt(a), { account: new Account(pre.nonce ?? 0n, pre.balance ?? 0n, pre.storage ? keccak256(new Uint8Array([1])) : KECCAK256_RLP, hash) })
  }
  const base: StateReader = {
    getAccount: (address) => {
      const hit = byAddress.get(bytesToBigInt(address))?.account
      return hit === undefined ? undefined : new Account(hit.nonce, hit.balance, hit.storageRoot, hit.codeHash)
    },
    getStorage: () => new Uint8Array(0),
    getCode: (hash) => codes.get(bytesToHex(hash)) ?? new Uint8Array(0),
  }
  const w = new WorldState(base)
  w.beginTransaction()
  return w
}

function hostOf(w: WorldState, fork: ForkName): TransactionHost {
  return new TransactionHost(w, { rules: rulesFor(fork), block: TEST_BLOCK, tx: { origin: 0x5e7dn, gasPrice: 1n, blobHashes: [] } })
}

function callMsg(to: bigint, fields: Partial<Message> = {}): Message {
  return {
    kind: MessageKind.Call,
    caller: 0x5e7dn,
    recipient: to,
    codeAddress: to,
    value: 0n,
    transfersValue: true,
    input: new Uint8Array(0),
    gas: 100_000,
    depth: 1,
    isStatic: false,
    ...fields,
  }
}

const SENDER = 0x5e7dn

test('call: value moves; a call deeper than 1024 or beyond the balance fails keeping its gas and changing nothing', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  const host = hostOf(w, 'cancun')
  const ok = host.call(callMsg(0xb0n, { value: 4n }))
  assert.equal(ok.status, Status.Success)
  assert.equal(ok.gasLeft, 100_000)
  assert.equal(w.getBalance(0xb0n), 4n)
  assert.equal(w.getBalance(SENDER), 6n)

  const poor = host.call(callMsg(0xb0n, { value: 7n }))
  assert.equal(poor.status, Status.Revert)
  assert.equal(poor.gasLeft, 100_000)
  assert.equal(w.getBalance(SENDER), 6n)

  const deep = host.call(callMsg(0xb0n, { value: 1n, depth: 1025 }))
  assert.equal(deep.status, Status.Revert)
  assert.equal(deep.gasLeft, 100_000)
  assert.equal(w.getBalance(0xb0n), 4n)
  assert.equal(host.call(callMsg(0xb1n, { depth: 1024 })).status, Status.Success)
})

test('call: a value-less call to an absent account creates nothing from Spurious Dragon on, and an empty account before', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  hostOf(w, 'spuriousDragon').call(callMsg(0xb0n))
  assert.equal(w.exists(0xb0n), false)
  const old = worldOf({ '0x5e7d': { balance: 10n } })
  hostOf(old, 'tangerineWhistle').call(callMsg(0xb0n))
  old.endTransaction(false)
  assert.equal(old.exists(0xb0n), true)
})

test('call: a reverting callee undoes its writes and its value transfer, and keeps its gas left; a halt consumes all gas', () => {
  const w = worldOf({
    '0x5e7d': { balance: 10n },
    '0xc1': { code: 'PUSH1 0x01 PUSH1 0x00 SSTORE PUSH1 0x00 PUSH1 0x00 REVERT' },
    '0xc2': { code: 'PUSH1 0x01 PUSH1 0x00 SSTORE INVALID' },
  })
  const host = hostOf(w, 'cancun')
  const reverted = host.call(callMsg(0xc1n, { value: 3n }))
  assert.equal(reverted.status, Status.Revert)
  assert.ok(reverted.gasLeft > 0 && reverted.gasLeft < 100_000)
  assert.equal(w.getStorage(0xc1n, 0n), 0n)
  assert.equal(w.getBalance(0xc1n), 0n)
  assert.equal(w.getBalance(SENDER), 10n)
  const halted = host.call(callMsg(0xc2n))
  assert.equal(halted.status, Status.Halt)
  assert.equal(halted.gasLeft, 0)
  assert.equal(w.getStorage(0xc2n, 0n), 0n)
})

test('call: from Prague the code of a delegated account is its delegate’s, one hop only, run in the account’s context', () => {
  const delegated = bytesToHex(delegationDesignator(0xd1n))
  const w = worldOf({
    '0x5e7d': { balance: 10n },
    '0xe0': { code: delegated },
    '0xd1': { code: 'PUSH1 0x07 PUSH1 0x00 SSTORE STOP' },
    '0xe1': { code: bytesToHex(delegationDesignator(0xe0n)) },
  })
  const host = hostOf(w, 'prague')
  assert.equal(host.call(callMsg(0xe0n)).status, Status.Success)
  assert.equal(w.getStorage(0xe0n, 0n), 7n)
  assert.equal(w.getStorage(0xd1n, 0n), 0n)
  const chained = host.call(callMsg(0xe1n))
  assert.equal(chained.status, Status.Halt, 'one hop only: the designator of the delegate is run as code (0xef halts)')
  assert.equal(w.getStorage(0xe1n, 0n), 0n)
  assert.equal(host.delegationTarget(0xe0n), 0xd1n)
  assert.equal(hostOf(w, 'cancun').delegationTarget(0xe0n), undefined)
})

test('call: a precompile runs and charges its gas (identity)', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  const r = hostOf(w, 'cancun').call(callMsg(0x04n, { input: new Uint8Array([1, 2, 3]) }))
  assert.equal(r.status, Status.Success)
  assert.deepEqual([...r.output], [1, 2, 3])
  assert.equal(r.gasLeft, 100_000 - 18) // 15 + 3 per word (the identity precompile's price since Frontier)
})

function createMsg(initcode: string, fields: Partial<Message> = {}): Message {
  return {
    kind: MessageKind.Create,
    caller: SENDER,
    recipient: 0n,
    codeAddress: 0n,
    value: 0n,
    transfersValue: true,
    input: assemble(initcode),
    gas: 1_000_000,
    depth: 1,
    isStatic: false,
    ...fields,
  }
}

// Returns `n` bytes of code starting with `first` (MSTORE8 first at 0, RETURN(0, n)).
const returning = (n: number, first = 0x00): string => `PUSH1 ${'0x' + first.toString(16)} PUSH1 0x00 MSTORE8 PUSH2 0x${n.toString(16).padStart(4, '0')} PUSH1 0x00 RETURN`

test('create: nonce bump, address, nonce 1 from Spurious Dragon, value, code deposit at 200 gas a byte', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n, nonce: 5n } })
  const r = hostOf(w, 'cancun').create(createMsg(returning(10), { value: 2n }))
  const address = createAddress(SENDER, 5n)
  assert.equal(r.status, Status.Success)
  assert.equal(r.createdAddress, address)
  assert.equal(w.getNonce(SENDER), 6n)
  assert.equal(w.getNonce(address), 1n)
  assert.equal(w.getBalance(address), 2n)
  assert.equal(w.getCode(address).length, 10)
  assert.ok(w.isCreatedInTx(address))
  assert.ok(w.isWarmAccount(address))
  const again = worldOf({ '0x5e7d': { balance: 10n, nonce: 5n } })
  const shorter = hostOf(again, 'cancun').create(createMsg(returning(0)))
  assert.equal(r.gasLeft, shorter.gasLeft - 10 * 200, 'deposit 200 a byte')
  const frontier = worldOf({ '0x5e7d': { balance: 10n, nonce: 5n } })
  hostOf(frontier, 'frontier').create(createMsg(returning(1)))
  assert.equal(frontier.getNonce(address), 0n)
})

test('create2: the EIP-1014 address', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  const msg = createMsg(returning(1), { kind: MessageKind.Create2, salt: 0x42n })
  const r = hostOf(w, 'cancun').create(msg)
  assert.equal(r.createdAddress, create2Address(SENDER, 0x42n, msg.input))
})

test('create: a collision (nonce, code or storage) fails consuming all gas; the creator’s nonce is still bumped', () => {
  for (const pre of [{ nonce: 1n }, { code: '0x00' }, { storage: true }] as Pre[]) {
    const address = createAddress(SENDER, 0n)
    const w = worldOf({ '0x5e7d': { balance: 10n }, ['0x' + address.toString(16)]: pre })
    const r = hostOf(w, 'cancun').create(createMsg(returning(1)))
    assert.equal(r.status, Status.Halt, JSON.stringify(pre, (_k, v) => (typeof v === 'bigint' ? String(v) : v)))
    assert.equal(r.gasLeft, 0)
    assert.equal(r.createdAddress, 0n)
    assert.equal(w.getNonce(SENDER), 1n)
  }
  const funded = createAddress(SENDER, 0n)
  const w = worldOf({ '0x5e7d': { balance: 10n }, ['0x' + funded.toString(16)]: { balance: 3n } })
  const r = hostOf(w, 'cancun').create(createMsg(returning(1)))
  assert.equal(r.status, Status.Success, 'a balance alone is no collision')
  assert.equal(w.getBalance(funded), 3n)
})

test('create: code rules per fork: EIP-170 size, EIP-3541 0xEF, and the unaffordable deposit before Homestead', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  const big = hostOf(w, 'cancun').create(createMsg(returning(MAX_CODE_SIZE + 1)))
  assert.equal(big.status, Status.Halt)
  assert.equal(big.gasLeft, 0)
  const w2 = worldOf({ '0x5e7d': { balance: 10n } })
  assert.equal(hostOf(w2, 'tangerineWhistle').create(createMsg(returning(MAX_CODE_SIZE + 1), { gas: 10_000_000 })).status, Status.Success)

  const w3 = worldOf({ '0x5e7d': { balance: 10n } })
  assert.equal(hostOf(w3, 'london').create(createMsg(returning(2, 0xef))).status, Status.Halt)
  const w4 = worldOf({ '0x5e7d': { balance: 10n } })
  assert.equal(hostOf(w4, 'berlin').create(createMsg(returning(2, 0xef))).status, Status.Success)

  // 100 bytes need 20,000 gas of deposit: give the frame less.
  const w5 = worldOf({ '0x5e7d': { balance: 10n } })
  const poorHomestead = hostOf(w5, 'homestead').create(createMsg(returning(100), { gas: 15_000 }))
  assert.equal(poorHomestead.status, Status.Halt)
  assert.equal(w5.exists(createAddress(SENDER, 0n)), false)
  const w6 = worldOf({ '0x5e7d': { balance: 10n } })
  const poorFrontier = hostOf(w6, 'frontier').create(createMsg(returning(100), { gas: 15_000 }))
  assert.equal(poorFrontier.status, Status.Success)
  assert.ok(poorFrontier.gasLeft > 0)
  assert.equal(w6.exists(createAddress(SENDER, 0n)), true)
  assert.equal(w6.getCodeHash(createAddress(SENDER, 0n)), EMPTY_CODE_HASH)
})

test('create: a reverting initcode returns its data and leaves no account', () => {
  const w = worldOf({ '0x5e7d': { balance: 10n } })
  const r = hostOf(w, 'cancun').create(createMsg('PUSH1 0x2a PUSH1 0x00 MSTORE8 PUSH1 0x01 PUSH1 0x00 REVERT'))
  assert.equal(r.status, Status.Revert)
  assert.deepEqual([...r.output], [0x2a])
  assert.equal(r.createdAddress, 0n)
  assert.equal(w.exists(createAddress(SENDER, 0n)), false)
  assert.equal(w.getNonce(SENDER), 1n)
})

test('selfDestruct: before Cancun the account is marked and its balance moves (burned when it names itself)', () => {
  const w = worldOf({ '0xa1': { balance: 5n, code: '0x00' }, '0xa2': { balance: 6n, code: '0x00' } })
  const host = hostOf(w, 'shanghai')
  assert.equal(host.selfDestruct(0xa1n, 0xb0n), false)
  assert.equal(host.selfDestruct(0xa1n, 0xb0n), true, 'the second time reports it was marked')
  assert.equal(w.getBalance(0xb0n), 5n)
  host.selfDestruct(0xa2n, 0xa2n)
  assert.equal(w.getBalance(0xa2n), 0n)
  w.endTransaction(true)
  assert.equal(w.exists(0xa1n), false)
  assert.equal(w.exists(0xa2n), false)
})

test('selfDestruct: from Cancun (EIP-6780) only an account created in the transaction goes; others only move their balance', () => {
  const w = worldOf({ '0xa1': { balance: 5n, code: '0x00' }, '0xa2': { balance: 6n, code: '0x00' } })
  const host = hostOf(w, 'cancun')
  host.selfDestruct(0xa1n, 0xb0n)
  host.selfDestruct(0xa2n, 0xa2n)
  assert.equal(w.getBalance(0xa2n), 6n, 'to itself and not deleted: the balance stays')
  w.markCreated(0xa3n)
  w.addBalance(0xa3n, 4n)
  host.selfDestruct(0xa3n, 0xa3n)
  assert.equal(w.getBalance(0xa3n), 0n, 'to itself and deleted: burned')
  w.endTransaction(true)
  assert.equal(w.exists(0xa1n), true)
  assert.equal(w.getBalance(0xa1n), 0n)
  assert.equal(w.getBalance(0xb0n), 5n)
  assert.equal(w.exists(0xa3n), false)
})

test('codeHash (EXTCODEHASH): 0 for absent and empty accounts, keccak of the code otherwise', () => {
  const w = worldOf({ '0xa1': { code: '0x6001' }, '0xa2': {}, '0xa3': { balance: 1n } })
  const host = hostOf(w, 'cancun')
  assert.equal(host.codeHash(0xa1n), bytesToBigInt(keccak256(hexToBytes('0x6001'))))
  assert.equal(host.codeHash(0xa2n), 0n)
  assert.equal(host.codeHash(0xb9n), 0n)
  assert.equal(host.codeHash(0xa3n), EMPTY_CODE_HASH)
})
