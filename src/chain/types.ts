/**
 * Plain, library-free views of chain data: what node/ hands to rpc/ for formatting.
 *
 * These are immutable value objects. execution/ converts ethereumjs objects into them (the only place that
 * knows the library types); chain/ stores and loads them; format/ (and rpc/format/, for the shapes that take
 * the facade's types) turns them into geth's JSON shapes.
 * Optional fields are present exactly when the block's fork (or the transaction's type) has them.
 */

export interface HeaderView {
  readonly hash: Uint8Array
  readonly parentHash: Uint8Array
  readonly uncleHash: Uint8Array
  readonly coinbase: Uint8Array
  readonly stateRoot: Uint8Array
  readonly transactionsTrie: Uint8Array
  readonly receiptTrie: Uint8Array
  readonly logsBloom: Uint8Array
  readonly difficulty: bigint
  readonly number: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  readonly timestamp: bigint
  readonly extraData: Uint8Array
  readonly mixHash: Uint8Array
  /** 8 bytes. */
  readonly nonce: Uint8Array
  readonly baseFeePerGas?: bigint
  readonly withdrawalsRoot?: Uint8Array
  readonly blobGasUsed?: bigint
  readonly excessBlobGas?: bigint
  readonly parentBeaconBlockRoot?: Uint8Array
  readonly requestsHash?: Uint8Array
}

export interface AccessListEntry {
  readonly address: Uint8Array
  readonly storageKeys: readonly Uint8Array[]
}

export interface AuthorizationView {
  readonly chainId: bigint
  readonly address: Uint8Array
  readonly nonce: bigint
  readonly yParity: bigint
  readonly r: bigint
  readonly s: bigint
}

export interface TransactionView {
  readonly hash: Uint8Array
  /** 0 legacy, 1 access list, 2 dynamic fee, 3 blob, 4 set code. */
  readonly type: number
  readonly from: Uint8Array
  readonly to: Uint8Array | null
  readonly nonce: bigint
  readonly gasLimit: bigint
  readonly value: bigint
  readonly data: Uint8Array
  /** Legacy and access-list transactions. */
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  /** Absent for unprotected legacy transactions. */
  readonly chainId?: bigint
  readonly accessList?: readonly AccessListEntry[]
  readonly maxFeePerBlobGas?: bigint
  readonly blobVersionedHashes?: readonly Uint8Array[]
  readonly authorizationList?: readonly AuthorizationView[]
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
  /** The canonical RLP / EIP-2718 encoding (what eth_getRawTransaction would return). */
  readonly serialized: Uint8Array
  /** An OP Stack deposit's own fields (type 0x7e): present exactly on deposits. */
  readonly deposit?: DepositFieldsView
}

/**
 * What a deposit transaction (OP Stack, type 0x7e) carries beyond the common fields, and what its receipt
 * adds to its view: op-geth shows the receipt's nonce as the transaction's and its receipt version beside it.
 */
export interface DepositFieldsView {
  /** 32 bytes */
  readonly sourceHash: Uint8Array
  /** Zero when the deposit mints nothing (op-geth reads a zero mint as none). */
  readonly mint: bigint
  readonly isSystemTx: boolean
  /** The receipt's depositNonce (Regolith on). */
  readonly depositNonce?: bigint
  /** The receipt's depositReceiptVersion (Canyon on). */
  readonly depositReceiptVersion?: bigint
}

/**
 * The keys op-geth adds to a non-deposit transaction's receipt on an OP Stack chain, in their JSON form
 * (opstack/receipt-fields.ts derives them from the block's L1 attributes and the transaction's bytes).
 */
export type OpReceiptKey =
  | 'l1GasPrice'
  | 'l1GasUsed'
  | 'l1Fee'
  | 'l1FeeScalar'
  | 'l1BlobBaseFee'
  | 'l1BaseFeeScalar'
  | 'l1BlobBaseFeeScalar'
  | 'operatorFeeScalar'
  | 'operatorFeeConstant'
  | 'daFootprintGasScalar'
  | 'blobGasUsed'
export type OpReceiptJson = { readonly [K in OpReceiptKey]?: string }

export interface WithdrawalView {
  readonly index: bigint
  readonly validatorIndex: bigint
  readonly address: Uint8Array
  /** In Gwei. */
  readonly amount: bigint
}

export interface BlockView {
  readonly header: HeaderView
  readonly transactions: readonly TransactionView[]
  readonly uncleHashes: readonly Uint8Array[]
  readonly withdrawals?: readonly WithdrawalView[]
  /** RLP size of the whole block in bytes. */
  readonly size: number
  /** The open (pre-confirmed) block: it has no hash, nonce or miner yet (geth answers them as null). */
  readonly pending?: boolean
}

export interface LogView {
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

export interface ReceiptView {
  readonly transactionHash: Uint8Array
  readonly transactionIndex: number
  readonly type: number
  readonly from: Uint8Array
  readonly to: Uint8Array | null
  /** Post-Byzantium: 1 success, 0 failure. Absent before Byzantium, where `root` is set. */
  readonly status?: 0 | 1
  readonly root?: Uint8Array
  readonly cumulativeGasUsed: bigint
  readonly gasUsed: bigint
  readonly effectiveGasPrice: bigint
  readonly contractAddress: Uint8Array | null
  readonly logs: readonly LogView[]
  readonly logsBloom: Uint8Array
  /** Index in the block of this receipt's first log. */
  readonly firstLogIndex: number
  readonly blobGasUsed?: bigint
  readonly blobGasPrice?: bigint
  /** A deposit's receipt (OP Stack, type 0x7e): `from`'s nonce before execution, from Regolith. */
  readonly depositNonce?: bigint
  /** A deposit's receipt version, from Canyon (1). */
  readonly depositReceiptVersion?: bigint
  /** On an OP Stack chain, a non-deposit receipt's L1 fee keys (derived when read, not stored). */
  readonly opFields?: OpReceiptJson
}

/**
 * The block hash that transactions, receipts and logs of the pre-confirmed (open) block carry: 32 zero bytes.
 * The open block has no hash until it is sealed; clients require a 32-byte hash in receipts and logs (ethers
 * v6 rejects null), and Base's pre-confirmation node answers zeros. preconf/views.ts documents the rule.
 */
export const PRECONFIRMED_BLOCK_HASH: Uint8Array = new Uint8Array(32)

/** Where a transaction, receipt or log sits. */
export interface BlockContext {
  /** The sealed block's hash, or PRECONFIRMED_BLOCK_HASH in the pre-confirmed block. */
  readonly blockHash: Uint8Array
  /** True in the pre-confirmed (open) block: its receipts and their answers may still grow. */
  readonly preconfirmed: boolean
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  readonly baseFeePerGas?: bigint
}
