/**
 * Library objects -> the plain views of chain/types.ts. The one place that reads ethereumjs block and
 * transaction internals for the RPC shapes; and, beside them, an OP Stack deposit's envelope (which has no
 * library object) -> its view.
 */

import type { Block, BlockHeader } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToBigInt, hexToBytes } from '../primitives/hex.ts'
import type { AccessListEntry, AuthorizationView, BlockView, HeaderView, TransactionView } from '../chain/types.ts'
import { decodeDepositTransaction, depositTransactionHash, DEPOSIT_TX_TYPE } from '../opstack/deposit-tx.ts'

export function headerView(h: BlockHeader, hash: Uint8Array = h.hash()): HeaderView {
  return {
    hash,
    parentHash: h.parentHash,
    uncleHash: h.uncleHash,
    coinbase: h.coinbase.bytes,
    stateRoot: h.stateRoot,
    transactionsTrie: h.transactionsTrie,
    receiptTrie: h.receiptTrie,
    logsBloom: h.logsBloom,
    difficulty: h.difficulty,
    number: h.number,
    gasLimit: h.gasLimit,
    gasUsed: h.gasUsed,
    timestamp: h.timestamp,
    extraData: h.extraData,
    mixHash: h.mixHash,
    nonce: h.nonce,
    ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: h.baseFeePerGas } : {}),
    ...(h.withdrawalsRoot !== undefined ? { withdrawalsRoot: h.withdrawalsRoot } : {}),
    ...(h.blobGasUsed !== undefined ? { blobGasUsed: h.blobGasUsed } : {}),
    ...(h.excessBlobGas !== undefined ? { excessBlobGas: h.excessBlobGas } : {}),
    ...(h.parentBeaconBlockRoot !== undefined ? { parentBeaconBlockRoot: h.parentBeaconBlockRoot } : {}),
    ...(h.requestsHash !== undefined ? { requestsHash: h.requestsHash } : {}),
  }
}

function accessList(raw: readonly [Uint8Array, Uint8Array[]][]): AccessListEntry[] {
  return raw.map(([address, storageKeys]) => ({ address, storageKeys }))
}

function authorizations(raw: readonly Uint8Array[][]): AuthorizationView[] {
  return raw.map((a) => ({
    chainId: bytesToBigInt(a[0]!),
    address: a[1]!,
    nonce: bytesToBigInt(a[2]!),
    yParity: bytesToBigInt(a[3]!),
    r: bytesToBigInt(a[4]!),
    s: bytesToBigInt(a[5]!),
  }))
}

/** `serialized`: the transaction's EIP-2718 encoding when the caller has it already (saves encoding it again). */
export function transactionView(tx: TypedTransaction, from: Uint8Array, hash: Uint8Array = tx.hash(), serialized?: Uint8Array): TransactionView {
  const t = tx as TypedTransaction & Record<string, unknown>
  // One object, the type's fields assigned onto it: on this runtime `{ ...common, more }` costs microseconds
  // per copy, and a block's views are made by the thousand.
  const view: { -readonly [K in keyof TransactionView]: TransactionView[K] } = {
    hash,
    type: tx.type,
    from,
    to: tx.to === undefined ? null : tx.to.bytes,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    value: tx.value,
    data: tx.data,
    v: tx.v ?? 0n,
    r: tx.r ?? 0n,
    s: tx.s ?? 0n,
    serialized: serialized ?? tx.serialize(),
  }
  if (tx.type === 0) {
    const v = tx.v ?? 0n
    view.gasPrice = t.gasPrice as bigint
    if (v !== 27n && v !== 28n) view.chainId = (v - 35n) >> 1n
    return view
  }
  view.chainId = t.chainId as bigint
  view.accessList = accessList(t.accessList as [Uint8Array, Uint8Array[]][])
  if (tx.type === 1) {
    view.gasPrice = t.gasPrice as bigint
    return view
  }
  view.maxFeePerGas = t.maxFeePerGas as bigint
  view.maxPriorityFeePerGas = t.maxPriorityFeePerGas as bigint
  if (tx.type === 3) {
    view.maxFeePerBlobGas = t.maxFeePerBlobGas as bigint
    // The library keeps these as 0x-hex strings.
    view.blobVersionedHashes = (t.blobVersionedHashes as (string | Uint8Array)[]).map((h) => (typeof h === 'string' ? hexToBytes(h) : h))
  }
  if (tx.type === 4) view.authorizationList = authorizations(t.authorizationList as Uint8Array[][])
  return view
}

/** What a deposit's receipt says of it (OP Stack): its nonce (Regolith on) and receipt version (Canyon on). */
export interface DepositReceiptFacts {
  readonly depositNonce?: bigint
  readonly depositReceiptVersion?: bigint
}

/**
 * The view of a deposit transaction (OP Stack, type 0x7e) from its envelope bytes: no fees and no signature
 * (zeros), the receipt's deposit nonce as its nonce (0 without one, as op-geth shows it), its own fields.
 */
export function depositView(envelope: Uint8Array, receipt: DepositReceiptFacts = {}): TransactionView {
  const d = decodeDepositTransaction(envelope)
  return {
    hash: depositTransactionHash(envelope),
    type: DEPOSIT_TX_TYPE,
    from: d.from,
    to: d.to,
    nonce: receipt.depositNonce ?? 0n,
    gasLimit: d.gas,
    value: d.value,
    data: d.data,
    gasPrice: 0n,
    v: 0n,
    r: 0n,
    s: 0n,
    serialized: envelope,
    deposit: {
      sourceHash: d.sourceHash,
      mint: d.mint,
      isSystemTx: d.isSystemTx,
      ...(receipt.depositNonce !== undefined ? { depositNonce: receipt.depositNonce } : {}),
      ...(receipt.depositReceiptVersion !== undefined ? { depositReceiptVersion: receipt.depositReceiptVersion } : {}),
    },
  }
}

/**
 * `leading`: an OP Stack block's deposits' views, which come before the library's transactions (and whose
 * senders lead `senders`).
 */
export function blockView(block: Block, senders: readonly Uint8Array[], hash: Uint8Array, size: number, leading: readonly TransactionView[] = []): BlockView {
  const offset = leading.length
  const rest = block.transactions.map((tx, i) => transactionView(tx, senders[offset + i]!))
  return {
    header: headerView(block.header, hash),
    transactions: offset === 0 ? rest : [...leading, ...rest],
    uncleHashes: block.uncleHeaders.map((u) => u.hash()),
    ...(block.withdrawals !== undefined
      ? {
          withdrawals: block.withdrawals.map((w) => ({
            index: w.index,
            validatorIndex: w.validatorIndex,
            address: w.address.bytes,
            amount: w.amount,
          })),
        }
      : {}),
    size,
  }
}
