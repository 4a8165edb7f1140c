import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { BlockView, TransactionView } from '../chain/types.ts'
import type { SimulatedBlock } from '../simulate/types.ts'
import { formatSimulatedBlock, simulatedBlocksJson } from './simulate.ts'

const b = (n: number, len: number) => new Uint8Array(len).fill(n)
const TX: TransactionView = {
  hash: b(0x77, 32), type: 2, from: b(0xc0, 20), to: b(0xc1, 20), nonce: 0n, gasLimit: 50_000_000n, value: 1n, data: new Uint8Array(0),
  chainId: 1n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, accessList: [], v: 0n, r: 0n, s: 0n, serialized: new Uint8Array(0),
}
const BLOCK: BlockView = {
  header: {
    hash: b(0xbb, 32), parentHash: b(1, 32), uncleHash: b(2, 32), coinbase: b(0, 20), stateRoot: b(0, 32), transactionsTrie: b(3, 32),
    receiptTrie: b(4, 32), logsBloom: b(0, 256), difficulty: 0n, number: 0x37n, gasLimit: 1n, gasUsed: 1n, timestamp: 0x228n,
    extraData: new Uint8Array(0), mixHash: b(0, 32), nonce: b(0, 8), baseFeePerGas: 0n,
  },
  transactions: [TX, { ...TX, hash: b(0x78, 32) }],
  uncleHashes: [],
  withdrawals: [],
  size: 0x294,
}
const SIM: SimulatedBlock = {
  block: BLOCK,
  calls: [
    { status: 1, gasUsed: 21_000n, maxUsedGas: 21_000n, returnData: new Uint8Array(0), logs: [{ log: { address: b(0xee, 20), topics: [b(1, 32)], data: b(0, 32) }, logIndex: 3 }] },
    { status: 0, gasUsed: 5n, maxUsedGas: 6n, returnData: new Uint8Array(0), logs: [], error: { code: 3, message: 'execution reverted', data: new Uint8Array(0) } },
  ],
}

test('a simulated block is a block object with calls; logs carry the final block hash and their place', () => {
  const out = formatSimulatedBlock(SIM, false) as Record<string, any>
  assert.equal(out.hash, `0x${'bb'.repeat(32)}`)
  assert.deepEqual(out.transactions, [`0x${'77'.repeat(32)}`, `0x${'78'.repeat(32)}`])
  assert.deepEqual(out.calls[0], {
    returnData: '0x',
    logs: [{
      address: `0x${'ee'.repeat(20)}`, topics: [`0x${'01'.repeat(32)}`], data: `0x${'00'.repeat(32)}`, blockNumber: '0x37',
      transactionHash: `0x${'77'.repeat(32)}`, transactionIndex: '0x0', blockHash: `0x${'bb'.repeat(32)}`, blockTimestamp: '0x228',
      logIndex: '0x3', removed: false,
    }],
    gasUsed: '0x5208',
    maxUsedGas: '0x5208',
    status: '0x1',
  })
  assert.deepEqual(out.calls[1].error, { message: 'execution reverted', code: 3, data: '0x' })
})

test('full transactions are located in the simulated block, with their senders', () => {
  const out = formatSimulatedBlock(SIM, true) as Record<string, any>
  assert.equal(out.transactions[1].blockHash, `0x${'bb'.repeat(32)}`)
  assert.equal(out.transactions[1].transactionIndex, '0x1')
  assert.equal(out.transactions[1].from, `0x${'c0'.repeat(20)}`)
  assert.equal(out.transactions[1].gasPrice, '0x0')
})

test('a VM error has no data', () => {
  const vm: SimulatedBlock = { ...SIM, calls: [SIM.calls[0]!, { ...SIM.calls[1]!, error: { code: -32015, message: 'out of gas' } }] }
  assert.deepEqual((formatSimulatedBlock(vm, false) as Record<string, any>).calls[1].error, { message: 'out of gas', code: -32015 })
})

test('the answer written straight to text is the bytes JSON.stringify gives for the objects, across header shapes, logs and calls', () => {
  let seed = 7
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % n
  }
  const bytes = (len: number) => Uint8Array.from({ length: len }, () => next(256))
  const quantityOf = () => [0n, 1n, 0x7fn, 2n ** 64n + 5n, BigInt(next(1_000_000))][next(5)]!
  const maybe = <T>(value: () => T): T | undefined => (next(2) === 0 ? undefined : value())
  const call = (): SimulatedBlock['calls'][number] => ({
    status: next(2) as 0 | 1,
    gasUsed: quantityOf(),
    maxUsedGas: quantityOf(),
    returnData: bytes(next(3) * 32 + next(2)),
    logs: Array.from({ length: next(4) }, () => ({ log: { address: bytes(20), topics: Array.from({ length: next(5) }, () => bytes(32)), data: bytes(next(70)) }, logIndex: next(300) })),
  })
  const simBlock = (): SimulatedBlock => {
    const calls = Array.from({ length: next(4) }, call)
    const withdrawals = [undefined, [], [{ index: 1n, validatorIndex: 2n, address: bytes(20), amount: 3n }]][next(3)]
    const header = {
      ...BLOCK.header,
      hash: bytes(32), parentHash: bytes(32), stateRoot: bytes(32), transactionsTrie: bytes(32), receiptTrie: bytes(32), logsBloom: bytes(256),
      coinbase: bytes(20), difficulty: quantityOf(), number: quantityOf(), gasLimit: quantityOf(), gasUsed: quantityOf(), timestamp: quantityOf(),
      extraData: bytes(next(33)), mixHash: bytes(32), nonce: bytes(8),
      baseFeePerGas: maybe(quantityOf), blobGasUsed: maybe(quantityOf), excessBlobGas: maybe(quantityOf), parentBeaconBlockRoot: maybe(() => bytes(32)),
      requestsHash: maybe(() => bytes(32)), withdrawalsRoot: maybe(() => bytes(32)),
    }
    for (const key of Object.keys(header) as (keyof typeof header)[]) if (header[key] === undefined) delete header[key]
    return {
      block: {
        header,
        transactions: calls.map(() => ({ ...TX, hash: bytes(32) })),
        uncleHashes: Array.from({ length: next(2) }, () => bytes(32)),
        ...(withdrawals !== undefined ? { withdrawals } : {}),
        size: next(100_000),
      },
      calls: next(6) === 0 && calls.length > 0 ? [...calls.slice(1), { ...calls[0]!, error: { code: 3, message: 'execution reverted: "quoted" é', data: bytes(4) } }] : calls,
    }
  }
  for (let i = 0; i < 400; i++) {
    const blocks = Array.from({ length: 1 + next(3) }, simBlock)
    for (const full of [false, true]) {
      assert.equal(simulatedBlocksJson(blocks, full), JSON.stringify(blocks.map((b) => formatSimulatedBlock(b, full))), `case ${i}, full transactions ${full}`)
    }
  }
  assert.equal(simulatedBlocksJson([], false), '[]')
})
