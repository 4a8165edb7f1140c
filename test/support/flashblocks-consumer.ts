/**
 * A consumer of the flashblock stream written from Base's published types, not from ours: rollup-boost's
 * `FlashblocksPayloadV1` { payload_id, index, diff, metadata, base? } with `ExecutionPayloadBaseV1` and
 * `ExecutionPayloadFlashblockDeltaV1`, Base's metadata (block_number, new_account_balances, receipts keyed
 * by transaction hash, each receipt tagged by `type`), and the follower fields docs/stream.md adds
 * (sequence, previous_sequence, state_diff). It rebuilds blocks the way a follower would: index 0 with
 * `base` opens a block (afresh, whatever came before for that number), each next index adds its
 * transactions, receipts and state changes, and the message with a non-zero `block_hash` closes it.
 * `checkAgainstNode` then compares a rebuilt block with what the node stored, over JSON-RPC.
 */

import assert from 'node:assert/strict'
import { brotliDecompressSync } from 'node:zlib'
import { keccak256, type Hex } from 'viem'

interface BaseV1 {
  parent_beacon_block_root: Hex
  parent_hash: Hex
  fee_recipient: Hex
  prev_randao: Hex
  block_number: Hex
  gas_limit: Hex
  timestamp: Hex
  extra_data: Hex
  base_fee_per_gas: Hex
}

interface DeltaV1 {
  state_root: Hex
  receipts_root: Hex
  logs_bloom: Hex
  gas_used: Hex
  block_hash: Hex
  transactions: Hex[]
  withdrawals: unknown[]
  withdrawals_root: Hex
  blob_gas_used?: Hex
}

interface Receipt {
  type: Hex
  status: Hex
  cumulativeGasUsed: Hex
  logs: { address: Hex; topics: Hex[]; data: Hex }[]
  [more: string]: unknown
}

interface Metadata {
  block_number: number
  new_account_balances: Record<Hex, Hex>
  receipts: Record<Hex, Receipt>
  sequence: number
  previous_sequence: number | null
  state_diff: {
    accounts: Record<Hex, { balance: Hex; nonce: Hex; code_hash: Hex } | null>
    storage: Record<Hex, Record<Hex, Hex>>
    storage_cleared: Hex[]
    codes: Record<Hex, Hex>
  }
}

export interface FlashblocksPayloadV1 {
  payload_id: Hex
  index: number
  base?: BaseV1
  diff: DeltaV1
  metadata: Metadata
}

export const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex

/** A message off the wire: JSON text, or Brotli-compressed JSON in a binary message. */
export function decodeMessage(data: Buffer | string, binary: boolean): FlashblocksPayloadV1 {
  const text = binary ? brotliDecompressSync(data as Buffer).toString('utf8') : String(data)
  return JSON.parse(text) as FlashblocksPayloadV1
}

export interface RebuiltBlock {
  readonly number: bigint
  readonly payloadId: Hex
  readonly base: BaseV1
  readonly close: DeltaV1
  readonly transactions: Hex[]
  readonly receipts: Map<Hex, Receipt>
  /** Every message's gas_used, logs_bloom and roots before the closing one (never a root but zero). */
  readonly earlier: DeltaV1[]
  readonly accounts: Map<Hex, { balance: Hex; nonce: Hex; code_hash: Hex } | null>
  readonly storage: Map<Hex, Map<Hex, Hex>>
  readonly codes: Map<Hex, Hex>
}

interface Building {
  payloadId: Hex
  base: BaseV1
  lastIndex: number
  transactions: Hex[]
  receipts: Map<Hex, Receipt>
  earlier: DeltaV1[]
  accounts: Map<Hex, { balance: Hex; nonce: Hex; code_hash: Hex } | null>
  storage: Map<Hex, Map<Hex, Hex>>
  codes: Map<Hex, Hex>
}

export class BlockRebuilder {
  private building: Building | undefined
  readonly blocks: RebuiltBlock[] = []
  /** Sequence numbers seen, in order. */
  readonly sequences: number[] = []

  push(p: FlashblocksPayloadV1): RebuiltBlock | undefined {
    this.sequences.push(p.metadata.sequence)
    assert.equal(typeof p.index, 'number', 'index is a JSON number')
    assert.equal(typeof p.metadata.block_number, 'number', 'metadata.block_number is a JSON number')
    assert.match(p.payload_id, /^0x[0-9a-f]{16}$/, 'payload_id is 8 bytes')
    if (p.index === 0) {
      assert.ok(p.base !== undefined, 'index 0 carries base')
      assert.equal(BigInt(p.base.block_number), BigInt(p.metadata.block_number))
      assert.deepEqual(p.diff.transactions, [], 'index 0 holds system operations only')
      this.building = {
        payloadId: p.payload_id,
        base: p.base,
        lastIndex: -1,
        transactions: [],
        receipts: new Map(),
        earlier: [],
        accounts: new Map(),
        storage: new Map(),
        codes: new Map(),
      }
    } else {
      assert.equal(p.base, undefined, 'base only at index 0')
    }
    const b = this.building
    if (b === undefined) return undefined // joined mid-block (resumed): wait for the next opening
    assert.equal(p.payload_id, b.payloadId, 'one payload id per block')
    assert.equal(p.index, b.lastIndex + 1, 'indexes follow each other')
    b.lastIndex = p.index
    b.transactions.push(...p.diff.transactions)
    for (const [hash, r] of Object.entries(p.metadata.receipts)) b.receipts.set(hash as Hex, r)
    const d = p.metadata.state_diff
    for (const addr of d.storage_cleared) b.storage.set(addr, new Map())
    for (const [addr, slots] of Object.entries(d.storage)) {
      const into = b.storage.get(addr as Hex) ?? new Map<Hex, Hex>()
      for (const [slot, value] of Object.entries(slots)) into.set(slot as Hex, value)
      b.storage.set(addr as Hex, into)
    }
    for (const [addr, account] of Object.entries(d.accounts)) b.accounts.set(addr as Hex, account)
    for (const [hash, code] of Object.entries(d.codes)) b.codes.set(hash as Hex, code)
    for (const [addr, balance] of Object.entries(p.metadata.new_account_balances)) {
      assert.equal(d.accounts[addr as Hex]?.balance, balance, `${addr}: new_account_balances agrees with state_diff`)
    }
    if (p.diff.block_hash === ZERO_HASH) {
      b.earlier.push(p.diff)
      return undefined
    }
    const done: RebuiltBlock = { number: BigInt(b.base.block_number), close: p.diff, ...b }
    this.blocks.push(done)
    this.building = undefined
    return done
  }
}

export type Rpc = (method: string, params: unknown[]) => Promise<any>

/** The rebuilt block is the block the node stored: header, transactions, receipts and the state it wrote. */
export async function checkAgainstNode(rpc: Rpc, block: RebuiltBlock): Promise<void> {
  const n = `0x${block.number.toString(16)}`
  const stored = await rpc('eth_getBlockByNumber', [n, false])
  assert.ok(stored !== null, `block ${block.number} is stored`)
  const c = block.close
  assert.equal(c.block_hash, stored.hash, 'block_hash')
  assert.equal(c.state_root, stored.stateRoot, 'state_root')
  assert.equal(c.receipts_root, stored.receiptsRoot, 'receipts_root')
  assert.equal(c.logs_bloom, stored.logsBloom, 'logs_bloom')
  assert.equal(BigInt(c.gas_used), BigInt(stored.gasUsed), 'gas_used')
  assert.equal(c.withdrawals_root, stored.withdrawalsRoot ?? ZERO_HASH, 'withdrawals_root')
  if (stored.blobGasUsed !== undefined) assert.equal(BigInt(c.blob_gas_used!), BigInt(stored.blobGasUsed), 'blob_gas_used')
  assert.equal(block.base.parent_hash, stored.parentHash)
  assert.equal(block.base.fee_recipient, stored.miner)
  assert.equal(BigInt(block.base.timestamp), BigInt(stored.timestamp))
  assert.equal(BigInt(block.base.gas_limit), BigInt(stored.gasLimit))
  assert.equal(BigInt(block.base.base_fee_per_gas), BigInt(stored.baseFeePerGas))
  assert.equal(block.base.prev_randao, stored.mixHash)
  assert.equal(block.base.extra_data, stored.extraData)
  assert.equal(block.base.parent_beacon_block_root, stored.parentBeaconBlockRoot ?? ZERO_HASH)
  assert.deepEqual(block.transactions.map((raw) => keccak256(raw)), stored.transactions, 'the messages\' transactions are the block\'s, in order')
  for (const d of block.earlier) {
    for (const root of [d.state_root, d.receipts_root, d.block_hash, d.withdrawals_root]) assert.equal(root, ZERO_HASH, 'no root before the closing message')
    assert.ok(BigInt(d.gas_used) <= BigInt(c.gas_used))
  }
  const receipts: any[] = await rpc('eth_getBlockReceipts', [n])
  assert.equal(block.receipts.size, receipts.length, 'one receipt per transaction')
  for (const r of receipts) {
    const s = block.receipts.get(r.transactionHash)
    assert.ok(s !== undefined, `receipt of ${r.transactionHash}`)
    assert.equal(BigInt(s.type), BigInt(r.type))
    assert.equal(BigInt(s.status), BigInt(r.status))
    assert.equal(BigInt(s.cumulativeGasUsed), BigInt(r.cumulativeGasUsed))
    assert.deepEqual(s.logs, r.logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })))
    assert.equal(BigInt(s.gasUsed as Hex), BigInt(r.gasUsed))
    assert.equal(BigInt(s.effectiveGasPrice as Hex), BigInt(r.effectiveGasPrice))
    assert.equal(s.from, r.from)
    assert.equal(s.contractAddress, r.contractAddress ?? null)
  }
  for (const [addr, account] of block.accounts) {
    const balance = await rpc('eth_getBalance', [addr, n])
    const nonce = await rpc('eth_getTransactionCount', [addr, n])
    const code: Hex = await rpc('eth_getCode', [addr, n])
    if (account === null) {
      assert.equal(BigInt(balance), 0n, `${addr} deleted`)
      continue
    }
    assert.equal(BigInt(account.balance), BigInt(balance), `${addr}: balance`)
    assert.equal(BigInt(account.nonce), BigInt(nonce), `${addr}: nonce`)
    const codeHash = keccak256(code)
    assert.equal(account.code_hash, codeHash, `${addr}: code hash`)
  }
  for (const [hash, code] of block.codes) assert.equal(keccak256(code), hash, 'code by its hash')
  for (const [addr, slots] of block.storage) {
    for (const [slot, value] of slots) {
      assert.equal(await rpc('eth_getStorageAt', [addr, slot, n]), value, `${addr} slot ${slot}`)
    }
  }
}
