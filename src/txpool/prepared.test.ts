import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createTxFromRLP } from '@ethereumjs/tx'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { decodeTx } from './decode.ts'
import { TxPool } from './pool.ts'
import { isPreparable, prepareTx, type PreparedTx } from './prepared.ts'
import { CHAIN_ID, ETHER, FakeState, GWEI, TO, env, foreign, forks, keys, sign, signFields, transfer, unprotectedLegacy } from './test-kit.ts'

/** One of each preparable type, with data and access lists where the type has them. */
function samples(): Uint8Array[] {
  const [a, b] = [keys[0]!, keys[1]!]
  return [
    transfer(a, 0),
    transfer(b, 3, { data: new Uint8Array([0, 1, 2, 0, 0, 9]), gas: 60_000n }),
    sign({ type: 0, nonce: 1n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: TO, value: 5n }, a),
    sign({ type: 1, nonce: 2n, gasPrice: 2n * GWEI, gasLimit: 40_000n, to: TO, chainId: CHAIN_ID, accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(31)}01`] }] }, b),
    transfer(a, 4, { to: '', data: new Uint8Array(64).fill(0x60), gas: 100_000n }),
  ]
}

test('a prepared record holds what inline decoding computes: fields, hash, sender, key, gas figures', () => {
  for (const raw of samples()) {
    const p = prepareTx(raw, forks.osaka)
    const inline = decodeTx(raw, forks.osaka)
    assert.equal(p.fork, 'osaka')
    for (const k of ['type', 'hashHex', 'chainId', 'nonce', 'gasLimit', 'feeCap', 'tipCap', 'value', 'isCreate', 'dataLength', 'size', 'blobFeeCap', 'blobCount', 'authorizationCount', 'dataOffset', 'accessList', 'senderHex', 'intrinsicGas', 'floorDataGas'] as const) {
      assert.deepEqual(p[k], inline[k], k)
    }
    assert.deepEqual(p.hash, inline.hash)
    assert.deepEqual(p.sender, inline.sender)
    assert.deepEqual(p.senderPublicKey, inline.tx.getSenderPublicKey())
    assert.ok(structuredClone(p), 'plain data')
  }
})

test('a record\'s call data (in place in its bytes) and access list are its library object\'s', () => {
  // Besides the samples: one data byte below 0x80 (its own RLP item), one above, legacy with data, pre-EIP-155.
  const edges = [
    transfer(keys[2]!, 0, { data: new Uint8Array([5]), gas: 60_000n }),
    transfer(keys[2]!, 1, { data: new Uint8Array([0x80]), gas: 60_000n }),
    sign({ type: 0, nonce: 2n, gasPrice: 2n * GWEI, gasLimit: 60_000n, to: TO, data: new Uint8Array(70).fill(7) }, keys[2]!),
    unprotectedLegacy(keys[2]!, 3n),
  ]
  for (const raw of [...samples(), ...edges]) {
    const p = prepareTx(raw, forks.osaka)
    const lib = createTxFromRLP(raw, { common: forks.osaka })
    assert.ok(p.dataOffset > 0)
    assert.deepEqual(raw.subarray(p.dataOffset, p.dataOffset + p.dataLength), lib.data)
    const libList = ((lib as unknown as { accessList?: [Uint8Array, Uint8Array[]][] }).accessList ?? []).map(([a, keys]) => ({
      address: BigInt(bytesToHex(a)),
      storageKeys: keys.map((k) => BigInt(bytesToHex(k))),
    }))
    assert.deepEqual(p.accessList ?? [], libList)
  }
  assert.ok(samples().some((raw) => (prepareTx(raw, forks.osaka).accessList?.length ?? 0) > 0))
})

test('a set-code transaction\'s record does not describe its execution input (dataOffset -1): the builder takes its library object', () => {
  const to = Uint8Array.from(Buffer.from(TO.slice(2), 'hex'))
  const raw = signFields(4, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 60_000n, to, 0n, new Uint8Array([5]), [], [[CHAIN_ID, to, 0n, 0n, 1n, 1n]]], keys[0]!)
  assert.equal(prepareTx(raw, forks.osaka).dataOffset, -1)
})

test('the pool admits a prepared transaction exactly as the raw bytes, with the same library object', () => {
  const state = new FakeState()
  const viaRecord = new TxPool({ config: {} })
  const inline = new TxPool({ config: {} })
  for (const raw of samples()) {
    const a = viaRecord.add(raw, state, env(forks.osaka, { prepared: prepareTx(raw, forks.osaka) }))
    const b = inline.add(raw, state, env(forks.osaka))
    assert.equal(a.hash, b.hash)
    assert.equal(a.status, b.status)
    for (const k of ['senderHex', 'cost', 'nonce', 'intrinsicGas', 'floorDataGas', 'raw'] as const) assert.deepEqual(a.tx[k], b.tx[k], k)
    // Built on first use, once, from the same bytes and fork.
    const lib = a.tx.tx
    assert.equal(a.tx.tx, lib)
    assert.equal(lib.common.hardfork(), 'osaka')
    assert.equal(bytesToHex(lib.hash()), b.hash)
    assert.deepEqual(lib.serialize(), createTxFromRLP(raw, { common: forks.osaka }).serialize())
    assert.equal(lib.getSenderAddress().toString(), b.tx.senderHex)
    assert.equal(lib.getIntrinsicGas(), b.tx.tx.getIntrinsicGas())
  }
  assert.deepEqual(viaRecord.stats(), inline.stats())
})

test('admitted transactions of types 0 to 2 do not get their library object in idle turns (the builder runs them from their records)', async () => {
  const state = new FakeState()
  const pool = new TxPool({ config: {} })
  const added = samples().map((raw) => pool.add(raw, state, env(forks.osaka, { prepared: prepareTx(raw, forks.osaka) })).tx)
  const built = (): boolean[] => added.map((tx) => (tx as unknown as { isBuilt: boolean }).isBuilt)
  assert.deepEqual(built(), [false, false, false, false, false], 'nothing is built while admitting')
  await new Promise((resolve) => setImmediate(resolve))
  // transfer, call with data, legacy transfer, access-list transfer, creation
  assert.deepEqual(built(), [false, false, false, false, false])
})

/** The error `add` throws, as kind + message. */
function refusal(pool: TxPool, raw: Uint8Array, state: FakeState, prepared: PreparedTx | undefined, blockGasLimit: bigint): string {
  try {
    pool.add(raw, state, env(forks.osaka, prepared === undefined ? { blockGasLimit } : { blockGasLimit, prepared }))
  } catch (e) {
    assert.ok(e instanceof FlashnodeError, String(e))
    return `${e.kind}: ${e.message}`
  }
  return 'accepted'
}

test('a transaction admission refuses is refused with the same error whether prepared or inline', () => {
  const [a, b] = [keys[0]!, keys[1]!]
  const cases: Array<{ name: string; raw: Uint8Array; blockGasLimit?: bigint; setup?: (pool: TxPool, state: FakeState) => void }> = [
    { name: 'intrinsic gas too low', raw: transfer(a, 0, { gas: 20_999n }) },
    { name: 'calldata floor', raw: transfer(a, 0, { gas: 21_500n, data: new Uint8Array(100).fill(1) }) },
    { name: 'nonce too low', raw: transfer(a, 0), setup: (_p, s) => s.set(a, { nonce: 5n }) },
    { name: 'insufficient funds', raw: transfer(a, 0, { value: 2000n * ETHER }) },
    { name: 'tip below minimum', raw: transfer(a, 0, { tip: 0n }) },
    { name: 'tip above fee cap', raw: signFields(2, [CHAIN_ID, 0n, 3n * GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], a) },
    { name: 'wrong chain id', raw: transfer(a, 0, { chainId: 1n, common: foreign }) },
    { name: 'unprotected', raw: unprotectedLegacy(a, 0n) },
    { name: 'exceeds block gas limit', raw: transfer(a, 0, { gas: 2_000_000n }), blockGasLimit: 1_000_000n },
    { name: 'already known', raw: transfer(b, 0), setup: (p, s) => void p.add(transfer(b, 0), s, env()) },
    { name: 'replacement underpriced', raw: transfer(b, 0, { value: 9n }), setup: (p, s) => void p.add(transfer(b, 0), s, env()) },
  ]
  for (const c of cases) {
    const run = (prepare: boolean): string => {
      const pool = new TxPool({ config: {} })
      const state = new FakeState()
      c.setup?.(pool, state)
      let prepared: PreparedTx | undefined
      try {
        prepared = prepare ? prepareTx(c.raw, forks.osaka) : undefined
      } catch {
        prepared = undefined // a worker answers "inline" for what it cannot prepare
      }
      return refusal(pool, c.raw, state, prepared, c.blockGasLimit ?? 30_000_000n)
    }
    const inline = run(false)
    assert.notEqual(inline, 'accepted', c.name)
    assert.equal(run(true), inline, c.name)
  }
})

test('a record prepared for another fork is not used: the bytes are decoded for the pending fork', () => {
  const raw = transfer(keys[0]!, 0)
  const pool = new TxPool({ config: {} })
  const prepared = { ...prepareTx(raw, forks.prague), intrinsicGas: 1n }
  const added = pool.add(raw, new FakeState(), env(forks.osaka, { prepared }))
  assert.equal(added.tx.intrinsicGas, 21_000n)
  assert.equal(added.tx.tx.common.hardfork(), 'osaka')
})

test('blob transactions and empty input are not preparable', () => {
  assert.equal(isPreparable(transfer(keys[0]!, 0)), true)
  assert.equal(isPreparable(new Uint8Array([3, 0xc0])), false)
  assert.equal(isPreparable(new Uint8Array()), false)
  assert.throws(() => prepareTx(new Uint8Array([3, 0xc0]), forks.osaka), /not preparable/)
})

test('admitted inline (no worker), a call in direct-prepare\'s shape gets no library object until read; a creation gets its own at admission', () => {
  const state = new FakeState()
  const pool = new TxPool({ config: {} })
  const isBuilt = (tx: unknown): boolean => (tx as { isBuilt?: boolean }).isBuilt ?? true
  const call = pool.add(transfer(keys[0]!, 0, { data: new Uint8Array([0, 1, 2]), gas: 60_000n }), state, env(forks.osaka)).tx
  const creation = pool.add(transfer(keys[1]!, 0, { to: '', data: new Uint8Array(64).fill(0x60), gas: 100_000n }), state, env(forks.osaka)).tx
  assert.deepEqual([isBuilt(call), isBuilt(creation)], [false, true])
  // Read, the call's library object is the transaction's.
  assert.equal(bytesToHex(call.tx.hash()), call.hashHex)
  assert.equal(call.tx.getSenderAddress().toString(), call.senderHex)
})
