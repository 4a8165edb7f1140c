import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createBlock } from '@ethereumjs/block'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { createWithdrawal } from '@ethereumjs/util'
import { ChainRules } from '../execution/chain-config.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'
import { blockSize } from './block-size.ts'

test('the computed size is the length of the block\'s encoding (legacy, typed, big and empty bodies, withdrawals)', () => {
  const common = new ChainRules(testGenesis()).at(1n, 12n)
  const header = { number: 1n, timestamp: 12n, gasLimit: 30_000_000n, baseFeePerGas: 7n, extraData: new Uint8Array(32) }
  const tx = (type: number, dataLength: number): TypedTransaction =>
    createTx(
      { type, nonce: 3n, gasLimit: 100_000n, to: `0x${'11'.repeat(20)}`, data: new Uint8Array(dataLength).fill(1), ...(type === 0 ? { gasPrice: 9n } : { maxFeePerGas: 9n, maxPriorityFeePerGas: 1n, chainId: 31337n }) },
      { common },
    )
  const withdrawals = [createWithdrawal({ index: 1n, validatorIndex: 2n, address: `0x${'22'.repeat(20)}`, amount: 3n })]
  for (const txs of [[], [tx(0, 0)], [tx(2, 10), tx(0, 100)], Array.from({ length: 40 }, (_, i) => tx(i % 2 === 0 ? 2 : 0, i * 50))]) {
    for (const w of [[], withdrawals]) {
      const block = createBlock({ header, transactions: txs, withdrawals: w }, { common })
      const sized = txs.map((t) => ({ type: t.type, serialized: t.serialize() }))
      assert.equal(blockSize(block.header.serialize(), sized, block.withdrawals?.map((x) => RLP.encode(x.raw()))), block.serialize().length)
    }
  }
})
