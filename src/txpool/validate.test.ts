import { test } from 'node:test'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ChainRules } from '../execution/chain-config.ts'
import { hexToBytes } from '../primitives/hex.ts'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import { goFixed2 } from './messages.ts'
import { TxPool, type TxPoolOptions } from './pool.ts'
import type { PendingEnv } from './validate.ts'
import {
  CHAIN_ID,
  FakeState,
  GWEI,
  TO,
  env,
  foreign,
  forks,
  keys,
  sign,
  signFields,
  transfer,
  unprotectedLegacy,
} from './test-kit.ts'

const [alice, bob] = [keys[0]!, keys[1]!]

function refuses(raw: Uint8Array, message: string, opts: { state?: FakeState; env?: PendingEnv; pool?: TxPoolOptions } = {}): void {
  const pool = new TxPool(opts.pool)
  assert.throws(
    () => pool.add(raw, opts.state ?? new FakeState(), opts.env ?? env()),
    (e: unknown) => {
      assert.ok(e instanceof FlashnodeError, String(e))
      assert.equal(e.kind, 'transactionRejected')
      assert.equal(e.message, message)
      return true
    },
  )
  assert.equal(pool.stats().pending + pool.stats().queued, 0)
}

function accepts(raw: Uint8Array, opts: { state?: FakeState; env?: PendingEnv; pool?: TxPoolOptions } = {}): void {
  const pool = new TxPool(opts.pool)
  pool.add(raw, opts.state ?? new FakeState(), opts.env ?? env())
  assert.equal(pool.stats().pending + pool.stats().queued, 1)
}

test('oversized data', () => {
  const raw = transfer(alice, 0, { data: new Uint8Array(131_072).fill(1), gas: 3_000_000n })
  refuses(raw, `oversized data: transaction size ${raw.length}, limit 131072`)
})

test('a type its fork does not know yet', () => {
  refuses(transfer(alice, 0), 'transaction type not supported: type 2 rejected, pool not yet in London', { env: env(forks.berlin) })
  const setCode = signFields(4, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 60_000n, TO, 0n, new Uint8Array(), [], [[CHAIN_ID, TO, 0n, 0n, 1n, 1n]]], alice)
  refuses(setCode, 'transaction type not supported: type 4 rejected, pool not yet in Prague', { env: env(forks.cancun) })
  const accessList = sign({ type: 1, nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: TO, value: 1n, chainId: CHAIN_ID }, alice)
  accepts(accessList, { env: env(forks.berlin) })
})

test('a chain id of another chain', () => {
  refuses(transfer(alice, 0, { chainId: 1n, common: foreign }), `invalid sender: invalid chain id for signer: have 1 want ${CHAIN_ID}`)
  const legacy = sign({ type: 0, nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: TO, value: 1n }, alice, foreign)
  refuses(legacy, `invalid sender: invalid chain id for signer: have 1 want ${CHAIN_ID}`)
})

test('unprotected legacy transactions are refused unless allowed', () => {
  refuses(unprotectedLegacy(alice, 0n), 'only replay-protected (EIP-155) transactions allowed over RPC')
  accepts(unprotectedLegacy(alice, 0n), { pool: { config: { allowUnprotected: true } } })
})

test('tip above the fee cap', () => {
  const raw = signFields(2, [CHAIN_ID, 0n, 3n * GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], alice)
  refuses(raw, 'max priority fee per gas higher than max fee per gas')
})

test('a fee cap below the base fee is pooled (as geth does), or refused when configured', () => {
  const raw = transfer(alice, 0, { feeCap: GWEI / 2n, tip: GWEI / 4n })
  accepts(raw)
  refuses(raw, `max fee per gas less than block base fee: address ${alice.hex}, maxFeePerGas: ${GWEI / 2n}, baseFee: ${GWEI}`, {
    pool: { config: { rejectFeeCapBelowBaseFee: true } },
  })
})

test('gas above the block gas limit', () => {
  refuses(transfer(alice, 0, { gas: 200_000n }), 'exceeds block gas limit', { env: env(forks.osaka, { blockGasLimit: 100_000n }) })
})

test('intrinsic gas, and the EIP-7623 calldata floor from Prague on', () => {
  refuses(transfer(alice, 0, { gas: 20_999n }), 'intrinsic gas too low: gas 20999, minimum needed 21000')
  // 100 non-zero bytes: intrinsic 21000 + 1600 = 22600; floor 21000 + 10 * 400 = 25000.
  const data = new Uint8Array(100).fill(7)
  refuses(transfer(alice, 0, { gas: 22_599n, data }), 'intrinsic gas too low: gas 22599, minimum needed 22600')
  refuses(transfer(alice, 0, { gas: 24_999n, data }), 'insufficient gas for floor data gas cost: gas 24999, minimum needed 25000')
  accepts(transfer(alice, 0, { gas: 23_000n, data, common: forks.cancun }), { env: env(forks.cancun) })
  accepts(transfer(alice, 0, { gas: 25_000n, data }))
})

test('the EIP-7825 gas cap from Osaka on', () => {
  const gas = (1n << 24n) + 1n
  const big = env(forks.osaka, { blockGasLimit: 60_000_000n })
  refuses(transfer(alice, 0, { gas, common: forks.prague }), `transaction gas limit too high (cap: 16777216, tx: ${gas})`, { env: big })
  accepts(transfer(alice, 0, { gas, common: forks.prague }), { env: env(forks.prague, { blockGasLimit: 60_000_000n }) })
})

test('init code above the EIP-3860 limit', () => {
  const initCode = new Uint8Array(49_153).fill(1)
  const raw = signFields(2, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 1_000_000n, new Uint8Array(), 0n, initCode, []], alice)
  refuses(raw, 'max initcode size exceeded: code size 49153 limit 49152')
})

test('the tx fee cap (1 ether by default), formatted like Go', () => {
  refuses(transfer(alice, 0, { feeCap: 60_000n * GWEI, tip: GWEI }), 'tx fee (1.26 ether) exceeds the configured cap (1.00 ether)')
  accepts(transfer(alice, 0, { feeCap: 60_000n * GWEI, tip: GWEI }), { pool: { config: { txFeeCapEther: 0 } } })
  assert.equal(goFixed2(0.125), '0.12')
  assert.equal(goFixed2(0.375), '0.38')
  assert.equal(goFixed2(1.005), '1.00')
  assert.equal(goFixed2(2.5), '2.50')
  assert.equal(goFixed2(1e21), '1000000000000000000000.00')
})

test('a tip below the pool minimum (geth --txpool.pricelimit, 1 wei)', () => {
  refuses(transfer(alice, 0, { tip: 0n }), 'transaction gas price below minimum: gas tip cap 0, minimum needed 1')
  accepts(transfer(alice, 0, { tip: 0n }), { pool: { config: { minTip: 0n } } })
})

test('nonce 2^64-1 and set-code transactions without authorizations', () => {
  const max = (1n << 64n) - 1n
  refuses(signFields(2, [CHAIN_ID, max, GWEI, 2n * GWEI, 21_000n, TO, 1n, new Uint8Array(), []], alice), 'nonce has max value')
  refuses(signFields(4, [CHAIN_ID, 0n, GWEI, 2n * GWEI, 60_000n, TO, 0n, new Uint8Array(), [], []], alice), 'set code tx must have at least one authorization tuple')
})

test('a blob transaction without its sidecar', () => {
  const raw = sign(
    {
      type: 3,
      nonce: 0n,
      maxFeePerGas: 2n * GWEI,
      maxPriorityFeePerGas: GWEI,
      maxFeePerBlobGas: 1n,
      gasLimit: 21_000n,
      to: TO,
      chainId: CHAIN_ID,
      blobVersionedHashes: [`0x01${'00'.repeat(31)}`],
    },
    alice,
  )
  refuses(raw, 'missing sidecar in blob transaction')
  refuses(raw, 'transaction type not supported: type 3 rejected, pool not yet in Cancun', { env: env(forks.london) })
})

test('an OP Stack chain refuses every blob transaction first, with op-geth\'s words; its other types are admitted', () => {
  const blob = (data: Uint8Array, nonce = 0n): Uint8Array =>
    sign(
      { type: 3, nonce, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerBlobGas: 1n, gasLimit: 21_000n, to: TO, chainId: CHAIN_ID, data, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] },
      alice,
    )
  const op = (common = forks.osaka): PendingEnv => env(common, { opStack: true })
  refuses(blob(new Uint8Array()), 'transaction type not supported', { env: op() })
  // Before the size, fork and sidecar checks that would refuse it on Ethereum (op-geth's ValidateTransaction order).
  const oversized = blob(new Uint8Array(1_100_000).fill(1), 1n)
  refuses(oversized, `oversized data: transaction size ${oversized.length}, limit 1048576`)
  refuses(oversized, 'transaction type not supported', { env: op() })
  refuses(blob(new Uint8Array()), 'transaction type not supported', { env: op(forks.london) })
  accepts(transfer(alice, 0), { env: op() })
  accepts(sign({ type: 1, nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 21_000n, to: TO, value: 1n, chainId: CHAIN_ID }, alice), { env: op() })
})

test('nonce too low', () => {
  refuses(transfer(alice, 3), 'nonce too low: next nonce 5, tx nonce 3', { state: new FakeState().set(alice, { nonce: 5n }) })
})

test('insufficient funds, alone and with the executable transactions already pooled', () => {
  const cost = 21_000n * 2n * GWEI + 1n
  refuses(transfer(alice, 0), `insufficient funds for gas * price + value: balance 1000, tx cost ${cost}, overshot ${cost - 1000n}`, {
    state: new FakeState().set(alice, { balance: 1000n }),
  })
  refuses(transfer(bob, 0), `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`, {
    state: new FakeState([alice]),
  })

  const balance = cost + cost / 2n
  const state = new FakeState().set(alice, { balance })
  const pool = new TxPool()
  pool.add(transfer(alice, 0), state, env())
  assert.throws(() => pool.add(transfer(alice, 1), state, env()), {
    message: `insufficient funds for gas * price + value: balance ${balance}, queued cost ${cost}, tx cost ${cost}, overshot ${2n * cost - balance}`,
  })
  // A replacement is charged the difference against everything executable.
  const bumpedCost = 21_000n * 3n * GWEI + 1n
  const rich = 2n * cost + 1000n
  const state2 = new FakeState().set(alice, { balance: rich })
  const pool2 = new TxPool()
  pool2.add(transfer(alice, 0), state2, env())
  pool2.add(transfer(alice, 1), state2, env())
  const bump = bumpedCost - cost
  assert.throws(() => pool2.add(transfer(alice, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }), state2, env()), {
    message: `insufficient funds for gas * price + value: balance ${rich}, queued cost ${2n * cost}, tx bumped ${bump}, overshot ${2n * cost + bump - rich}`,
  })
})

test('already known', () => {
  const pool = new TxPool()
  const state = new FakeState()
  const raw = transfer(alice, 0)
  pool.add(raw, state, env())
  assert.throws(() => pool.add(raw, state, env()), { message: 'already known' })
  // Also while queued.
  const gapped = transfer(alice, 5)
  pool.add(gapped, state, env())
  assert.throws(() => pool.add(gapped, state, env()), { message: 'already known' })
})

test('the rpc checks come first: fee cap before replay protection before "already known"', () => {
  const pool = new TxPool({ config: { txFeeCapEther: 0.00001 } })
  assert.throws(() => pool.add(unprotectedLegacy(alice, 0n), new FakeState(), env()), {
    message: 'tx fee (0.00 ether) exceeds the configured cap (0.00 ether)',
  })
})

const compat = fileURLToPath(new URL('../../../shared/rpc-compat/tests/', import.meta.url))

test('the rpc-compat blob transaction (cell proofs, Osaka) is admitted; its blob count is limited', { skip: !existsSync(compat) }, () => {
  const rules = new ChainRules(JSON.parse(readFileSync(`${compat}genesis.json`, 'utf8')))
  const line = readFileSync(`${compat}eth_sendRawTransaction/send-blob-tx.io`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('>>'))!
  const raw = hexToBytes(JSON.parse(line.slice(3)).params[0])
  const sender = hexToBytes('0x1f4924b14f34e24159387c0a4cdbaa32f3ddb0cf')
  const state = new FakeState([]).set(sender, { balance: 10n ** 20n })
  const blobEnv = { common: rules.at(55n, 560n), baseFee: 7n, blockGasLimit: 30_000_000n }
  const r = new TxPool().add(raw, state, blobEnv)
  assert.equal(r.hash, '0x05d85f6a761cac82cfdf06dd168952838ac452b10641aabccdfdad46e03d2f0b')
  assert.equal(r.status, 'pending')
  assert.throws(() => new TxPool({ config: { maxBlobsPerTx: 0 } }).add(raw, state, blobEnv), {
    message: 'transaction blob limit exceeded: blob count 1, limit 0',
  })
  assert.throws(() => new TxPool({ config: { maxBlobTxSize: 1000 } }).add(raw, state, blobEnv), {
    message: `oversized data: transaction size ${raw.length}, limit 1000`,
  })
})
