import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { OpenBlock } from '../execution/block-builder.ts'
import { ACCOUNTS, deployCode, devNode, openOnHead, signedTx } from '../../test/support/dev-chain.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { PooledTx } from '../txpool/decode.ts'
import { pooledFromPrepared, prepareTx, type PreparedTx } from '../txpool/prepared.ts'
import { poolCandidate } from './pool-candidate.ts'

/** `tx` as the pool holds it after a worker prepared it for `block`'s fork, counting builds of its library object. */
function pooled(tx: TypedTransaction, block: OpenBlock, alter: Partial<PreparedTx> = {}): { pooled: PooledTx; builds: () => number } {
  const raw = tx.serialize()
  const common = block.header.common
  const inner = pooledFromPrepared(raw, { ...prepareTx(raw, common), ...alter }, common, 0)
  let builds = 0
  const counting = Object.create(inner, { tx: { get: () => (builds++, inner.tx) } }) as PooledTx
  return { pooled: counting, builds: () => builds }
}

async function twoBlocks(t: TestContext) {
  const node = await devNode(t)
  return { node, viaCandidates: await openOnHead(node), viaLibrary: await openOnHead(node) }
}

test('plain transfers from the pool are included without building their library objects, as the library path includes them', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const txs = [
    signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 12345n, gasLimit: 21_000n }),
    signedTx(node, 1, 0n, { to: ACCOUNTS[2]!.address, value: 7n, gasLimit: 30_000n }),
    signedTx(node, 0, 1n, { to: ACCOUNTS[0]!.address, value: 1n, gasLimit: 21_000n }), // to itself
  ]
  const counted = txs.map((tx) => pooled(tx, viaCandidates))
  for (const [i, tx] of txs.entries()) {
    const a = await viaCandidates.addCandidate(poolCandidate(counted[i]!.pooled))
    const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
    assert.deepEqual(a.receipt, b.receipt)
    assert.deepEqual(a.raw, b.raw)
  }
  assert.deepEqual(counted.map((c) => c.builds()), [0, 0, 0])
  assert.equal(viaCandidates.fastTransfers, 3)
  // Asked for later (a read of the pending block), the library object is the transaction.
  assert.equal(bytesToHex(viaCandidates.included[0]!.tx.hash()), bytesToHex(txs[0]!.hash()))
  const [x, y] = [await viaCandidates.seal(), await viaLibrary.seal()]
  assert.equal(bytesToHex(x.stored.hash), bytesToHex(y.stored.hash))
  assert.deepEqual(x.stored.blockRlp, y.stored.blockRlp)
})

test('a pool transaction that is not a plain transfer runs through its library object, built then', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const deploy = signedTx(node, 0, 0n, { data: deployCode('602a60005260206000f3') })
  const c = pooled(deploy, viaCandidates)
  const a = await viaCandidates.addCandidate(poolCandidate(c.pooled))
  const b = await viaLibrary.add(deploy, deploy.getSenderAddress().bytes, deploy.hash())
  assert.deepEqual(a.receipt, b.receipt)
  assert.ok(c.builds() > 0)
  // A transfer to the contract just made: it has code, so it leaves the fast path.
  const call = signedTx(node, 1, 0n, { to: bytesToHex(a.receipt.contractAddress!), value: 1n, gasLimit: 60_000n })
  const d = pooled(call, viaCandidates)
  const e = await viaCandidates.addCandidate(poolCandidate(d.pooled))
  const f = await viaLibrary.add(call, call.getSenderAddress().bytes, call.hash())
  assert.deepEqual(e.receipt, f.receipt)
  assert.ok(d.builds() > 0)
  assert.equal(viaCandidates.fastTransfers, 0)
})

test('a transfer prepared under another fork is not run from its view (its gas figures are that fork\'s)', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const tx = signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 5n, gasLimit: 21_000n })
  // Figures that would show in the receipt if they were used.
  const c = pooled(tx, viaCandidates, { fork: 'cancun', intrinsicGas: 1n })
  assert.notEqual(viaCandidates.header.common.hardfork(), 'cancun')
  const a = await viaCandidates.addCandidate(poolCandidate(c.pooled))
  const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
  assert.deepEqual(a.receipt, b.receipt)
  assert.ok(c.builds() > 0)
})
