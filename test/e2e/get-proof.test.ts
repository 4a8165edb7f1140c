/**
 * eth_getProof through viem against a real node (127.0.0.1, ephemeral port, manual sealing): every proof is
 * checked by an independent verifier (@ethereumjs/mpt's verifyMerkleProof) against the root it must hang
 * from: a sealed block's stateRoot as eth_getBlockByNumber gives it, or at `pending` the root its first node
 * hashes to, which must equal the stateRoot of the same block once sealed. The values the proofs carry are
 * also compared with the plain state reads at the same block (eth_getBalance, eth_getTransactionCount,
 * eth_getCode, eth_getStorageAt) and with what the transactions were made to write.
 *
 * The chain: block 1 creates C through a CREATE2 factory (code, balance 5, slot 5 = 0x2a), creates and
 * destroys D in one transaction (EIP-6780: D never exists), and sets the register R's slot 0; block 2 sets it
 * back to zero (R's storage is empty again); the open block 3 sets it to 0x77 and pays a fresh address.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createPublicClient, createWalletClient, hexToBigInt, hexToBytes, http, keccak256, numberToHex, pad, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../support/dev-chain.ts'
import { FACTORY_RUNTIME, MARKER_INIT, PROBE_RUNTIME, REGISTER_RUNTIME, create2Address, factoryCall } from '../support/contracts.ts'
import { genesisWith } from '../support/genesis.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const FACTORY = '0x00000000000000000000000000000000000fac70' as const
const PROBE = '0x0000000000000000000000000000000000000b0e' as const
const REGISTER = '0x000000000000000000000000000000000000f00d' as const
const C = create2Address(FACTORY, 3n, MARKER_INIT)
const D = create2Address(FACTORY, 4n, MARKER_INIT)
const FRESH = '0x00000000000000000000000000000000000be5ee' as const
const NEVER = '0x000000000000000000000000000000000000dead' as const
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const EMPTY_CODE = keccak256('0x')
const word = (n: bigint): Hex => pad(numberToHex(n), { size: 32 })

type Where = { blockNumber: bigint } | { blockTag: 'pending' }

/**
 * Fetches the proof of `address` and `slots` at `where` and checks it against `root`: the account (or its
 * absence) by the verifier, each slot likewise against the proved storage root, and both against the plain
 * reads at the same block. Returns the values the proof carries.
 */
async function proveAndCheck(pub: PublicClient, address: Hex, slots: bigint[], where: Where, root: Hex) {
  const proof = await pub.getProof({ address, storageKeys: slots.map(word), ...where })
  assert.equal(proof.address.toLowerCase(), address.toLowerCase())
  assert.equal(keccak256(proof.accountProof[0]!), root, 'the proof starts at the root')
  const leaf = await verifyMerkleProof(hexToBytes(keccak256(address)), proof.accountProof.map((n) => hexToBytes(n)), { root: hexToBytes(root) })
  if (leaf === null) {
    assert.deepEqual([proof.nonce, proof.balance, proof.codeHash, proof.storageHash], [0, 0n, EMPTY_CODE, EMPTY_ROOT], `${address}: absent`)
  } else {
    const [nonce, balance, storageRoot, codeHash] = (RLP.decode(leaf) as Uint8Array[]).map((b) => Buffer.from(b).toString('hex'))
    assert.equal(BigInt(`0x${nonce || '0'}`), BigInt(proof.nonce))
    assert.equal(BigInt(`0x${balance || '0'}`), proof.balance)
    assert.equal(`0x${storageRoot}`, proof.storageHash)
    assert.equal(`0x${codeHash}`, proof.codeHash)
  }
  assert.equal(proof.balance, await pub.getBalance({ address, ...where }))
  assert.equal(proof.nonce, await pub.getTransactionCount({ address, ...where }))
  const code = (await pub.getCode({ address, ...where })) ?? '0x'
  assert.equal(proof.codeHash, leaf === null && code === '0x' ? EMPTY_CODE : keccak256(code))
  assert.equal(proof.storageProof.length, slots.length)
  for (const [i, s] of proof.storageProof.entries()) {
    assert.equal(s.key, word(slots[i]!), 'a 32-byte key is echoed as written')
    assert.equal(s.value, hexToBigInt((await pub.getStorageAt({ address, slot: word(slots[i]!), ...where }))!))
    if (proof.storageHash === EMPTY_ROOT) {
      assert.deepEqual(s.proof, [], 'an empty storage trie proves every slot zero with no nodes')
      assert.equal(s.value, 0n)
      continue
    }
    const value = await verifyMerkleProof(hexToBytes(keccak256(word(slots[i]!))), s.proof.map((n) => hexToBytes(n)), { root: hexToBytes(proof.storageHash) })
    assert.equal(value === null ? 0n : hexToBigInt(`0x${Buffer.from(RLP.decode(value) as Uint8Array).toString('hex') || '0'}`), s.value)
  }
  return proof
}

test('eth_getProof: accounts and slots present and absent, at old and latest blocks and at pending, each verified', { timeout: 60_000 }, async (t) => {
  const running = await startNode(
    t,
    tempDir(t),
    genesisWith({ code: { [FACTORY]: FACTORY_RUNTIME, [PROBE]: PROBE_RUNTIME, [REGISTER]: REGISTER_RUNTIME } }),
    { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) } },
  )
  await running.node.start()
  const chain = VIEM_DEV_CHAIN
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) }) as PublicClient
  const sender = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const w = createWalletClient({ account: sender, chain, transport: http(running.url, { retryCount: 0 }) })
  const mine = () => pub.request({ method: 'evm_mine' as never })
  const rootOf = async (n: bigint) => (await pub.getBlock({ blockNumber: n })).stateRoot
  const setRegister = (v: bigint) => w.sendTransaction({ to: REGISTER, data: word(v), gas: 100_000n })

  await w.sendTransaction({ to: FACTORY, data: factoryCall(3n, MARKER_INIT), value: 5n, gas: 300_000n })
  await w.sendTransaction({ to: FACTORY, data: factoryCall(4n, MARKER_INIT), value: 0n, gas: 300_000n })
  await setRegister(0x99n)
  await mine()
  await setRegister(0n)
  await mine()
  await setRegister(0x77n)
  await w.sendTransaction({ to: FRESH, value: 12345n })
  await pub.request({ method: 'flashnode_flashblock' as never })

  // Block 1 (old): C with code, balance and a slot (and one it never wrote); D absent; R's slot set.
  const one = await rootOf(1n)
  const c = await proveAndCheck(pub, C, [5n, 6n], { blockNumber: 1n }, one)
  assert.equal(c.balance, 5n)
  assert.notEqual(c.codeHash, EMPTY_CODE)
  assert.deepEqual(c.storageProof.map((s) => s.value), [0x2an, 0n])
  assert.ok(c.storageProof.every((s) => s.proof.length > 0), 'present and absent slots of a non-empty trie both have nodes')
  const d = await proveAndCheck(pub, D, [0n], { blockNumber: 1n }, one)
  assert.ok(d.accountProof.length > 0, 'a proof of absence still has the path')
  const r1 = await proveAndCheck(pub, REGISTER, [0n], { blockNumber: 1n }, one)
  assert.equal(r1.storageProof[0]!.value, 0x99n)

  // Block 2 (latest): R's storage cleared; a contract without storage; an EOA; an account never touched.
  const two = await rootOf(2n)
  const r2 = await proveAndCheck(pub, REGISTER, [0n, 1n], { blockNumber: 2n }, two)
  assert.equal(r2.storageHash, EMPTY_ROOT)
  assert.notEqual(r2.codeHash, EMPTY_CODE)
  const probe = await proveAndCheck(pub, PROBE, [0n], { blockNumber: 2n }, two)
  assert.equal(probe.storageHash, EMPTY_ROOT)
  assert.equal(probe.codeHash, keccak256(`0x${PROBE_RUNTIME}`))
  const eoa = await proveAndCheck(pub, sender.address, [], { blockNumber: 2n }, two)
  assert.equal(eoa.nonce, 4)
  assert.equal(eoa.codeHash, EMPTY_CODE)
  await proveAndCheck(pub, NEVER, [1n], { blockNumber: 2n }, two)
  assert.deepEqual(await pub.getProof({ address: C, storageKeys: [word(5n)], blockTag: 'latest' }), await pub.getProof({ address: C, storageKeys: [word(5n)], blockNumber: 2n }))
  const hash = (await pub.getBlock({ blockNumber: 1n })).hash
  const byHash = await pub.request({ method: 'eth_getProof', params: [C, [word(5n)], { blockHash: hash } as never] })
  assert.deepEqual(byHash.accountProof, c.accountProof, 'EIP-1898 by hash: the same proof as by number')

  // Pending (the open block 3): proved against its own root, which sealing the block then confirms.
  const pendingRoot = keccak256((await pub.getProof({ address: REGISTER, storageKeys: [], blockTag: 'pending' })).accountProof[0]!)
  assert.notEqual(pendingRoot, two)
  const r3 = await proveAndCheck(pub, REGISTER, [0n], { blockTag: 'pending' }, pendingRoot)
  assert.equal(r3.storageProof[0]!.value, 0x77n)
  assert.notEqual(r3.storageHash, EMPTY_ROOT)
  const fresh = await proveAndCheck(pub, FRESH, [], { blockTag: 'pending' }, pendingRoot)
  assert.equal(fresh.balance, 12345n)
  await proveAndCheck(pub, FRESH, [], { blockNumber: 2n }, two)
  await mine()
  assert.equal(await rootOf(3n), pendingRoot, 'the pending proofs\' root is the state root the block seals with')
  await proveAndCheck(pub, REGISTER, [0n], { blockNumber: 3n }, pendingRoot)

  // Unknown blocks.
  await assert.rejects(pub.getProof({ address: C, storageKeys: [], blockNumber: 99n }), /header not found/)
  await assert.rejects(
    pub.request({ method: 'eth_getProof', params: [C, [], { blockHash: `0x${'12'.repeat(32)}` } as never] }),
    /header for hash not found/,
  )
})
