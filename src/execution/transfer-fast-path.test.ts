/**
 * Differential test of the plain-transfer fast path: the same transactions, random and edge cases, run into
 * two blocks on the same parent, one with the fast path and one through the library's runTx only. Every
 * step must end the same way (the same receipt, or the same rejection in the same words), and the blocks
 * must end with the same state diff and seal to the same block (hash, bytes, state root), on each fork.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { OpenBlock, TransactionNotIncluded, type BlockEnvironment } from './block-builder.ts'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode } from '../node/create-node.ts'
import { nextBlockEnv, openOnHead } from '../../test/support/dev-chain.ts'
import { devAccounts, devGenesis } from '../node/dev-genesis.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import type { TestContext } from 'node:test'
import { Rng } from '../../test/support/rng.ts'

const CHAIN_ID = 31337n
const BASE_FEE = 1_000_000_000n
const KEYS = devAccounts(7)
const addr = (i: number): string => KEYS[i]!.address.toLowerCase()
const CONTRACT = '0x000000000000000000000000000000000000c0de'
const FULL = '0x0000000000000000000000000000000000000f11' // balance 2^256-1: a transfer to it overflows
const EMPTY_TARGET = '0x00000000000000000000000000000000000e0e0e'
const PRECOMPILES = ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000004', '0x000000000000000000000000000000000000000a']
const POOR = 5 // can pay for about one transfer
const DELEGATED = 4 // a 7702-delegated EOA (code 0xef0100 || CONTRACT)
const NO_ACCOUNT = 6 // not in the genesis at all

type Fork = 'paris' | 'cancun' | 'prague' | 'osaka'

function genesisFor(fork: Fork) {
  const g = devGenesis({ chainId: CHAIN_ID, gasLimit: 30_000_000n, baseFee: BASE_FEE, accounts: 4, balance: 10n ** 22n }) as unknown as {
    config: Record<string, unknown>
    alloc: Record<string, { balance: string; code?: string; nonce?: string }>
  }
  const cfg = g.config
  if (fork === 'paris') for (const k of ['shanghaiTime', 'cancunTime', 'pragueTime', 'blobSchedule']) delete cfg[k]
  if (fork === 'cancun') delete cfg['pragueTime']
  if (fork === 'osaka') {
    cfg['osakaTime'] = 0
    ;(cfg['blobSchedule'] as Record<string, unknown>)['osaka'] = { target: 6, max: 9, baseFeeUpdateFraction: 5007716 }
  }
  g.alloc[CONTRACT] = { balance: '0x5', code: '0x600160005500' } // SSTORE(0, 1)
  g.alloc[FULL] = { balance: `0x${'f'.repeat(64)}` }
  g.alloc[addr(POOR)] = { balance: `0x${(21_000n * 3n * BASE_FEE + 7n).toString(16)}` }
  if (fork === 'prague' || fork === 'osaka') g.alloc[addr(DELEGATED)] = { balance: '0xde0b6b3a7640000', code: `0xef0100${CONTRACT.slice(2)}` }
  else g.alloc[addr(DELEGATED)] = { balance: '0xde0b6b3a7640000' }
  return g as never
}

async function nodeFor(t: TestContext, fork: Fork): Promise<FlashNode> {
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis: genesisFor(fork) })
  t.after(() => node.close())
  return node
}

function diffKey(diff: StateDiff): string {
  const accounts = [...diff.accounts].map(([k, v]) => `${k}=${v === null ? 'null' : bytesToHex(v.serialize())}`)
  const storage = [...diff.storage].map(([k, slots]) => `${k}:${[...slots].map(([s, v]) => `${s}=${bytesToHex(v)}`).join(',')}`)
  return JSON.stringify({ accounts, storage, wiped: [...diff.wiped], codes: [...diff.codes.keys()] })
}

type Outcome = { receipt: unknown } | { rejected: string; retryable: boolean }

async function outcome(block: OpenBlock, tx: TypedTransaction, sender: Uint8Array): Promise<Outcome> {
  try {
    const included = await block.add(tx, sender, tx.hash())
    assert.deepEqual(included.raw, tx.serialize())
    return { receipt: included.receipt }
  } catch (e) {
    if (!(e instanceof TransactionNotIncluded)) throw e
    return { rejected: e.message, retryable: e.retryable }
  }
}

interface Spec {
  readonly from: number
  readonly to: string
  readonly nonce?: bigint
  readonly value?: bigint
  readonly data?: Uint8Array
  readonly gasLimit?: bigint
  readonly feeCap?: bigint
  readonly tip?: bigint
  readonly type?: number
  readonly accessList?: { address: string; storageKeys: string[] }[]
}

/** Two blocks on one parent, one with the fast path: each transaction runs into both and must end the same. */
class Pair {
  included = 0
  rejected = 0

  private constructor(
    private readonly t: TestContext,
    readonly fork: Fork,
    private readonly node: FlashNode,
    readonly env: BlockEnvironment,
    readonly fast: OpenBlock,
    readonly slow: OpenBlock,
  ) {}

  static async open(t: TestContext, fork: Fork, coinbase: 'empty' | 'sender'): Promise<Pair> {
    const node = await nodeFor(t, fork)
    const env = nextBlockEnv(node, coinbase === 'empty' ? hexToBytes('0x00000000000000000000000000000000000c0b0b') : hexToBytes(addr(0)))
    const open = (fastTransfers: boolean) => openOnHead(node, env, { fastTransfers })
    return new Pair(t, fork, node, env, await open(true), await open(false))
  }

  async nonce(from: number): Promise<bigint> {
    return (await this.slow.state.getAccount(new Address(hexToBytes(addr(from)))))?.nonce ?? 0n
  }

  /** Runs `spec` into both blocks; returns how it ended and whether the fast path took it. */
  async step(spec: Spec): Promise<{ outcome: Outcome; fast: boolean }> {
    const nonce = spec.nonce ?? (await this.nonce(spec.from))
    const type = spec.type ?? 2
    const feeCap = spec.feeCap ?? 2n * BASE_FEE
    const base = { type, nonce, to: spec.to as `0x${string}`, value: spec.value ?? 1n, data: spec.data ?? new Uint8Array(0), gasLimit: spec.gasLimit ?? 21_000n }
    const data =
      type === 0
        ? { ...base, gasPrice: feeCap }
        : type === 1
          ? { ...base, chainId: CHAIN_ID, gasPrice: feeCap, accessList: spec.accessList ?? [] }
          : { ...base, chainId: CHAIN_ID, maxFeePerGas: feeCap, maxPriorityFeePerGas: spec.tip ?? BASE_FEE / 10n, accessList: spec.accessList ?? [] }
    const tx = createTx(data, { common: this.fast.header.common }).sign(hexToBytes(KEYS[spec.from]!.privateKey))
    const sender = hexToBytes(addr(spec.from))
    const a = await outcome(this.slow, tx, sender)
    const before = this.fast.fastTransfers
    const b = await outcome(this.fast, tx, sender)
    assert.deepEqual(b, a, `${this.fork}: tx ${JSON.stringify(tx.toJSON())} from ${addr(spec.from)}`)
    if ('rejected' in a) this.rejected++
    else this.included++
    return { outcome: a, fast: this.fast.fastTransfers > before }
  }

  /** Same diff, same sealed block; the block re-imports on a fresh node with every check on. */
  async finish(): Promise<void> {
    assert.equal(diffKey(this.fast.diff()), diffKey(this.slow.diff()))
    assert.equal(this.slow.fastTransfers, 0)
    const [x, y] = [await this.fast.seal(), await this.slow.seal()]
    assert.equal(bytesToHex(x.stored.hash), bytesToHex(y.stored.hash))
    assert.equal(bytesToHex(x.stored.blockRlp), bytesToHex(y.stored.blockRlp))
    assert.equal(bytesToHex(x.root.root), bytesToHex(y.root.root))
    assert.equal(diffKey(x.diff), diffKey(y.diff))
    assert.deepEqual(x.stored.receipts, y.stored.receipts)
    // (This node's import takes a chain without Shanghai for proof-of-work: the Paris-only chain is not re-imported.)
    if (this.fork === 'paris') return
    const other = await nodeFor(this.t, this.fork)
    assert.equal((await other.writer.importRlp(x.stored.blockRlp)).imported, 1)
  }
}

async function randomTransfers(t: TestContext, fork: Fork, seed: number, coinbase: 'empty' | 'sender', steps: number): Promise<void> {
  const pair = await Pair.open(t, fork, coinbase)
  const generator = new Rng(seed)
  const random = (): number => generator.float()
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const targets = [addr(0), addr(1), addr(2), addr(3), addr(DELEGATED), addr(POOR), addr(NO_ACCOUNT), CONTRACT, FULL, EMPTY_TARGET, bytesToHex(pair.env.coinbase), ...PRECOMPILES]
  const senders = [0, 1, 2, 3, 0, 1, POOR, DELEGATED, NO_ACCOUNT]
  for (let i = 0; i < steps; i++) {
    const from = pick(senders)
    const nonce = (await pair.nonce(from)) + (random() < 0.08 ? pick([1n, -1n, 5n]) : 0n)
    if (nonce < 0n) continue
    const to = random() < 0.1 ? addr(from) : pick(targets)
    const data = random() < 0.25 ? Uint8Array.from({ length: Math.floor(random() * 40) }, () => (random() < 0.4 ? 0 : Math.floor(random() * 256))) : new Uint8Array(0)
    const zeros = data.filter((b) => b === 0).length
    const intrinsic = 21_000n + 4n * BigInt(zeros) + 16n * BigInt(data.length - zeros)
    const floor = 21_000n + 10n * (BigInt(zeros) + 4n * BigInt(data.length - zeros))
    const most = intrinsic > floor ? intrinsic : floor
    const gasLimit = random() < 0.8 ? pick([most, most, 100_000n]) : pick([intrinsic, floor, intrinsic - 1n, ...(fork === 'osaka' ? [16_777_216n] : [29_999_999n, 40_000_000n])])
    const value = random() < 0.9 ? pick([0n, 1n, 12345n, 10n ** 18n, BigInt(Math.floor(random() * 1e9))]) : 10n ** 23n
    const feeCap = random() < 0.9 ? pick([BASE_FEE, 2n * BASE_FEE, 10n * BASE_FEE]) : BASE_FEE - 1n
    const tip = [0n, 1n, feeCap / 2n, feeCap][Math.floor(random() * 4)]!
    const type = pick([0, 1, 2, 2])
    const accessList = type !== 0 && random() < 0.3 ? [{ address: pick(targets), storageKeys: [`0x${'00'.repeat(31)}01`] }] : []
    await pair.step({ from, to, nonce, value, data, gasLimit, feeCap, tip, type, accessList })
  }
  const fastCount = pair.fast.fastTransfers
  assert.ok(fastCount > pair.included / 4, `only ${fastCount} of ${pair.included} included took the fast path`)
  assert.ok(fastCount < pair.included, 'some included transactions must have needed the EVM')
  assert.ok(pair.rejected > 5, `only ${pair.rejected} rejections`)
  await pair.finish()
}

/** Named cases: each must end the same both ways, and take the path given (fast, evm, or rejected). */
async function edgeCases(t: TestContext, fork: Fork, coinbase: 'empty' | 'sender'): Promise<void> {
  const pair = await Pair.open(t, fork, coinbase)
  const cb = bytesToHex(pair.env.coinbase)
  const baseFee = pair.fast.header.baseFeePerGas!
  const prague = fork === 'prague' || fork === 'osaka'
  const calldata = Uint8Array.from([0, 0, 1, 2, 3, 0, 255, 7]) // 3 zero, 5 non-zero bytes
  const intrinsic = 21_000n + 3n * 4n + 5n * 16n
  const floor = 21_000n + 10n * (3n + 4n * 5n)
  type Expect = 'fast' | 'evm' | 'rejected'
  const cases: [string, Spec, Expect][] = [
    ['plain transfer', { from: 1, to: addr(2) }, 'fast'],
    ['legacy transfer', { from: 1, to: addr(2), type: 0 }, 'fast'],
    ['access-list transfer', { from: 1, to: addr(2), type: 1, gasLimit: 30_000n, accessList: [{ address: CONTRACT, storageKeys: [`0x${'00'.repeat(32)}`] }] }, 'fast'],
    ['1559 transfer with an access list', { from: 1, to: addr(3), gasLimit: 23_400n, accessList: [{ address: addr(2), storageKeys: [] }] }, 'fast'],
    ['value to self', { from: 2, to: addr(2), value: 10n ** 18n }, 'fast'],
    ['to the coinbase', { from: 1, to: cb, value: 5n }, 'fast'],
    ['from the coinbase (when it is account 0)', { from: 0, to: addr(3), value: 7n }, 'fast'],
    ['coinbase to itself', { from: 0, to: addr(0) }, 'fast'],
    ['zero value to a new account (created, then removed as empty)', { from: 1, to: EMPTY_TARGET, value: 0n }, 'fast'],
    ['zero tip (an empty coinbase stays absent)', { from: 2, to: addr(3), tip: 0n }, 'fast'],
    ['fee cap equal to the base fee', { from: 2, to: addr(3), feeCap: baseFee, tip: baseFee }, 'fast'],
    ['value to a new account', { from: 1, to: '0x00000000000000000000000000000000000a11ce', value: 3n }, 'fast'],
    ['calldata to an EOA at the exact gas', { from: 3, to: addr(1), data: calldata, gasLimit: prague ? floor : intrinsic }, 'fast'],
    ['calldata to an EOA with spare gas', { from: 3, to: addr(1), data: calldata, gasLimit: 90_000n }, 'fast'],
    ...(prague ? ([['calldata to an EOA above intrinsic, below the EIP-7623 floor', { from: 3, to: addr(1), data: calldata, gasLimit: floor - 1n }, 'rejected']] as [string, Spec, Expect][]) : []),
    ['gas below intrinsic', { from: 3, to: addr(1), gasLimit: 20_999n }, 'rejected'],
    ['insufficient balance for value', { from: 2, to: addr(1), value: 10n ** 23n }, 'rejected'],
    ['insufficient balance for the max fee', { from: POOR, to: addr(1), value: 0n, gasLimit: 21_000n, feeCap: 10n * BASE_FEE, tip: 0n }, 'rejected'],
    ['exactly enough balance', { from: POOR, to: addr(1), value: 7n + 21_000n * 3n * (BASE_FEE - baseFee), feeCap: baseFee, tip: 0n }, 'fast'],
    ['nonce too high', { from: 1, to: addr(2), nonce: 1000n }, 'rejected'],
    ['nonce too low', { from: 1, to: addr(2), nonce: 0n }, 'rejected'],
    ['fee cap below the base fee', { from: 1, to: addr(2), feeCap: baseFee - 1n, tip: 0n }, 'rejected'],
    ['legacy gas price below the base fee', { from: 1, to: addr(2), type: 0, feeCap: baseFee - 1n }, 'rejected'],
    ['sender without an account, nothing to pay', { from: NO_ACCOUNT, to: addr(1), value: 0n }, 'rejected'],
    ['a large gas limit (refunded)', { from: 1, to: addr(2), gasLimit: 10_000_000n }, 'fast'],
    ...(fork === 'osaka' ? [] : ([['gas above what the block has left', { from: 1, to: addr(2), gasLimit: 29_999_999n }, 'rejected']] as [string, Spec, Expect][])),
    ['to a contract', { from: 1, to: CONTRACT, gasLimit: 100_000n }, 'evm'],
    ['to an identity precompile', { from: 1, to: PRECOMPILES[1]!, data: calldata, gasLimit: 100_000n }, 'evm'],
    ['to the ecrecover precompile', { from: 1, to: PRECOMPILES[0]!, value: 0n, gasLimit: 100_000n }, 'evm'],
    ['to an account whose balance would overflow', { from: 1, to: FULL, value: 1n, gasLimit: 30_000n }, 'evm'],
    ...(prague
      ? ([
          ['to a 7702-delegated account', { from: 1, to: addr(DELEGATED), gasLimit: 100_000n }, 'evm'],
          ['from a 7702-delegated account', { from: DELEGATED, to: addr(1) }, 'evm'],
        ] as [string, Spec, Expect][])
      : ([['from an EOA', { from: DELEGATED, to: addr(1) }, 'fast']] as [string, Spec, Expect][])),
    ['plain transfer after the EVM ran', { from: 2, to: addr(1) }, 'fast'],
  ]
  for (const [name, spec, expected] of cases) {
    const { outcome: o, fast } = await pair.step(spec)
    const got: Expect = 'rejected' in o ? 'rejected' : fast ? 'fast' : 'evm'
    assert.equal(got, expected, `${fork}/${coinbase}: ${name}: ${JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`)
  }
  await pair.finish()
}

for (const fork of ['paris', 'cancun', 'prague', 'osaka'] as const) {
  for (const coinbase of ['empty', 'sender'] as const) {
    test(`fast path equals runTx on ${fork}, coinbase ${coinbase}: named edge cases`, async (t) => {
      await edgeCases(t, fork, coinbase)
    })
    test(`fast path equals runTx on ${fork}, coinbase ${coinbase}: random transfers`, async (t) => {
      await randomTransfers(t, fork, fork.length * 7 + (coinbase === 'empty' ? 1 : 2), coinbase, 300)
    })
  }
}
