/**
 * The node's structured log as an operator reads it: `flashnode start --log-format json` writes one JSON
 * object per line on standard error, every sealed block at info with its number, hash, transactions, gas
 * and times, every flashblock at debug (only with --log-level debug), each line with level, time and msg;
 * no private key ever appears there (the dev accounts' keys are on the start banner, on standard output).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { rpc, spawnNode } from '../support/node-process.ts'
import { tempDir } from '../support/temp-dir.ts'
import { ACCOUNTS, DEV_CHAIN_ID } from '../support/dev-chain.ts'

interface Entry {
  level: string
  time: string
  msg: string
  [field: string]: unknown
}

const entries = (stderr: string): Entry[] =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Entry)

test('--log-format json: a JSON line per sealed block at info, per flashblock at debug, and no private key', { timeout: 120_000 }, async (t) => {
  const node = await spawnNode(t, [
    '--datadir', tempDir(t), '--accounts', '2', '--chain-id', String(DEV_CHAIN_ID),
    '--log-format', 'json', '--log-level', 'debug', '--flashblock-interval', '50', '--flashblocks-per-block', '2',
  ])
  const sender = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  const raw = await sender.signTransaction({
    chainId: Number(DEV_CHAIN_ID), type: 'eip1559', to: '0x00000000000000000000000000000000000000aa', value: 1n, nonce: 0,
    gas: 21_000n, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei('1'),
  })
  const hash = await rpc<Hex>(node.url, 'eth_sendRawTransaction', [raw])
  // Wait for the sealed-block line of a block holding the transaction.
  await node.printed(/"transactions":1,[^\n]*"msg":"block sealed"/, 'stderr')
  const receipt = await rpc<{ blockNumber: Hex; blockHash: Hex }>(node.url, 'eth_getTransactionReceipt', [hash])
  await node.stop()

  const log = entries(node.stderr())
  for (const e of log) {
    assert.ok(['debug', 'info', 'warn', 'error'].includes(e.level), `level name: ${e.level}`)
    assert.ok(!Number.isNaN(Date.parse(e.time)) && e.time.endsWith('Z'), `ISO time: ${e.time}`)
    assert.equal(typeof e.msg, 'string')
  }
  const sealed = log.filter((e) => e.msg === 'block sealed')
  assert.ok(sealed.length >= 1)
  for (const e of sealed) {
    assert.equal(e.level, 'info')
    for (const field of ['block', 'transactions', 'gasUsed', 'flashblocks', 'buildMs', 'sealMs']) assert.equal(typeof e[field], 'number', field)
    assert.match(String(e.hash), /^0x[0-9a-f]{64}$/)
  }
  const withTx = sealed.find((e) => e.transactions === 1)!
  assert.equal(withTx.block, Number(receipt.blockNumber))
  assert.equal(withTx.hash, receipt.blockHash)
  assert.equal(withTx.gasUsed, 21_000)
  const flashblocks = log.filter((e) => e.msg === 'flashblock')
  assert.ok(flashblocks.length >= 2 && flashblocks.every((e) => e.level === 'debug' && typeof e.index === 'number'))
  for (const a of ACCOUNTS) assert.ok(!node.stderr().includes(a.privateKey.slice(2)), 'no private key in the log')
})

test('--log-level info: sealed blocks, no flashblock lines', { timeout: 120_000 }, async (t) => {
  const node = await spawnNode(t, ['--datadir', tempDir(t), '--log-format', 'json', '--flashblock-interval', '50', '--flashblocks-per-block', '2'])
  await node.printed(/"block":2,[^\n]*"msg":"block sealed"/, 'stderr')
  await node.stop()
  const log = entries(node.stderr())
  assert.ok(log.some((e) => e.msg === 'block sealed'))
  assert.ok(!log.some((e) => e.level === 'debug'), 'nothing below info')
})
