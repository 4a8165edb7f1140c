import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createEthMethods } from './index.ts'
import { fakeNode } from './fake-node.ts'

const EXPECTED = [
  'base_transactionStatus', 'debug_getBadBlocks', 'debug_getRawBlock', 'debug_getRawHeader', 'debug_getRawReceipts', 'debug_getRawTransaction',
  'debug_traceBlockByHash', 'debug_traceBlockByNumber', 'debug_traceCall', 'debug_traceTransaction',
  'eth_accounts', 'eth_blobBaseFee', 'eth_blockNumber', 'eth_call', 'eth_chainId', 'eth_coinbase', 'eth_config', 'eth_createAccessList', 'eth_estimateGas',
  'eth_feeHistory', 'eth_gasPrice', 'eth_getBalance', 'eth_getBlockByHash', 'eth_getBlockByNumber', 'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash', 'eth_getBlockTransactionCountByNumber', 'eth_getCode', 'eth_getFilterChanges',
  'eth_getFilterLogs', 'eth_getHeaderByHash', 'eth_getHeaderByNumber', 'eth_getLogs', 'eth_getProof',
  'eth_getStorageAt', 'eth_getTransactionByBlockHashAndIndex', 'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash', 'eth_getTransactionCount', 'eth_getTransactionReceipt', 'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber', 'eth_maxPriorityFeePerGas', 'eth_newBlockFilter', 'eth_newFilter',
  'eth_newPendingTransactionFilter', 'eth_sendRawTransaction', 'eth_sendRawTransactionSync',
  'eth_simulateV1', 'eth_subscribe', 'eth_syncing', 'eth_uninstallFilter', 'eth_unsubscribe', 'evm_mine', 'flashnode_flashblock', 'flashnode_memory', 'flashnode_sendDeposit', 'net_listening', 'net_peerCount', 'net_version',
  'trace_block', 'trace_transaction', 'txpool_content', 'txpool_contentFrom', 'txpool_inspect', 'txpool_status', 'web3_clientVersion', 'web3_sha3',
]

test('the table holds exactly the served methods', () => {
  const table = createEthMethods(fakeNode().node)
  assert.deepEqual([...table.keys()].sort(), EXPECTED)
})

test('handlers run through the table', async () => {
  const { node, calls } = fakeNode()
  const table = createEthMethods(node)
  const ctx = { signal: new AbortController().signal, endpoint: 'test' }
  assert.equal(await table.get('eth_getBalance')!([`0x${'00'.repeat(20)}`], ctx), '0x10')
  assert.equal(calls[0]!.method, 'getBalance')
})
