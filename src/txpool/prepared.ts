/**
 * A transaction decoded, signature-checked and measured ahead of admission, possibly on another thread
 * (the admission workers in node/sender-recovery run `prepareTx`), so that admitting it costs the pool's
 * thread no RLP decoding, hashing, library construction or signature work.
 *
 * `prepareTx(raw, common)` decodes as the inline path does (decode.ts: parseTx), then takes the everyday shapes
 * through direct-prepare.ts (no library object; the same record) and the rest through materialize, and keeps
 * what admission reads: the fields, hash, sender and its public key, and the gas figures. It throws what
 * the inline decoder throws; callers that prepare elsewhere turn a failure into "decode inline instead", so
 * the inline path stays the one that words every rejection. The record is plain data (structured-clone safe).
 * `pooledFromPrepared` makes the PooledTx; its library object is built from the same bytes and fork only when
 * first asked for (a read of a pooled or included transaction, tracing; the sequencer for a blob or set-code
 * transaction: it runs types 0 to 2 from the record, whose `dataOffset` and `accessList` carry the rest
 * of the EVM's input).
 *
 * Invariants: a record describes the `raw` it was prepared from, under the fork named by `fork` (admission
 * uses it only for the same fork); blob transactions in network form are not prepared (their library object
 * verifies the sidecar's proofs, which admission must do before answering: they are materialized inline).
 * Never: admission checks here (validate.ts decides), state, or clocks.
 */

import type { Common } from '@ethereumjs/common'
import type { Hex } from '../primitives/hex.ts'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { AccessListEntry } from '../evm/types.ts'
import { recoverDirect } from './direct-prepare.ts'
import { costOf, libraryTx, materialize, nextArrivalSeq, parseTx, type ParsedTx, type PooledTx, type TxFields } from './decode.ts'

/** What sender recovery and the gas figures add to the decoded fields. */
export interface Recovered {
  readonly sender: Uint8Array
  readonly senderHex: Hex
  /** The signer's uncompressed public key without its prefix (64 bytes). */
  readonly senderPublicKey: Uint8Array
  readonly intrinsicGas: bigint
  readonly floorDataGas: bigint
}

export interface PreparedTx extends TxFields, Recovered {
  /** The hardfork name of the Common the record was prepared for. */
  readonly fork: string
}

/** Whether `prepareTx` takes these bytes (everything but a blob transaction in network form). */
export function isPreparable(raw: Uint8Array): boolean {
  return raw.length > 0 && raw[0] !== 3
}

/**
 * Decodes and checks `raw` as the inline path would, for `common`'s fork. Throws the inline path's errors
 * (and a plain Error for what is not preparable).
 */
export function prepareTx(raw: Uint8Array, common: Common): PreparedTx {
  if (!isPreparable(raw)) throw new Error('not preparable: a blob transaction is materialized where it is admitted')
  const parsed = parseTx(raw)
  return recordOf(parsed, common.hardfork(), recoverDirect(parsed, common) ?? recoverViaLibrary(parsed, common))
}

/** Sender and gas figures from the library object (materialize), for what direct-prepare.ts declines. */
function recoverViaLibrary(parsed: ParsedTx, common: Common): Recovered {
  const pooled = materialize(parsed, common, 0)
  return {
    sender: pooled.sender,
    senderHex: pooled.senderHex,
    senderPublicKey: pooled.tx.getSenderPublicKey(),
    intrinsicGas: pooled.intrinsicGas,
    floorDataGas: pooled.floorDataGas,
  }
}

/**
 * The record of decoded fields `f` with what recovery added. Written out rather than spread: one object shape,
 * built in one step (spreading the fields into it cost ~10 µs per transaction).
 */
export function recordOf(f: TxFields, fork: string, r: Recovered): PreparedTx {
  return {
    type: f.type,
    hash: f.hash,
    hashHex: f.hashHex,
    chainId: f.chainId,
    nonce: f.nonce,
    gasLimit: f.gasLimit,
    feeCap: f.feeCap,
    tipCap: f.tipCap,
    value: f.value,
    isCreate: f.isCreate,
    to: f.to,
    dataLength: f.dataLength,
    size: f.size,
    blobFeeCap: f.blobFeeCap,
    blobCount: f.blobCount,
    sidecar: f.sidecar,
    authorizationCount: f.authorizationCount,
    dataOffset: f.dataOffset,
    accessList: f.accessList,
    fork,
    sender: r.sender,
    senderHex: r.senderHex,
    senderPublicKey: r.senderPublicKey,
    intrinsicGas: r.intrinsicGas,
    floorDataGas: r.floorDataGas,
  }
}

/**
 * A transaction admitted on this thread (no worker prepared it): the everyday shapes through direct-prepare.ts,
 * so their library object waits for a reader as a worker's record's does; the rest through materialize, which
 * builds it and words every refusal (direct-prepare.ts answers only what materialize would make).
 */
export function pooledInline(parsed: ParsedTx, common: Common, arrivedAt: number): PooledTx {
  const direct = parsed.sidecar === undefined ? recoverDirect(parsed, common) : undefined
  if (direct === undefined) return materialize(parsed, common, arrivedAt)
  return new PreparedPooledTx(parsed.raw, recordOf(parsed, common.hardfork(), direct), common, arrivedAt)
}

/** The PooledTx of `raw`, prepared as `p` for `common`'s fork; its library object is built on first use. */
export function pooledFromPrepared(raw: Uint8Array, p: PreparedTx, common: Common, arrivedAt: number): PooledTx {
  return new PreparedPooledTx(raw, p, common, arrivedAt)
}

/** A class, not a literal with a getter: one hidden class for every prepared transaction, cheap to make. */
class PreparedPooledTx implements PooledTx {
  readonly type: number
  readonly hash: Uint8Array
  readonly hashHex: Hex
  readonly chainId: bigint | undefined
  readonly nonce: bigint
  readonly gasLimit: bigint
  readonly feeCap: bigint
  readonly tipCap: bigint
  readonly value: bigint
  readonly isCreate: boolean
  readonly to: Uint8Array | undefined
  readonly dataLength: number
  readonly size: number
  readonly blobFeeCap: bigint | undefined
  readonly blobCount: number
  readonly sidecar: undefined
  readonly authorizationCount: number
  readonly dataOffset: number
  readonly accessList: readonly AccessListEntry[] | undefined
  readonly sender: Uint8Array
  readonly senderHex: Hex
  readonly cost: bigint
  readonly intrinsicGas: bigint
  readonly floorDataGas: bigint
  readonly fork: string
  readonly seq: number
  private built: TypedTransaction | undefined
  private readonly senderPublicKey: Uint8Array

  constructor(
    readonly raw: Uint8Array,
    p: PreparedTx,
    private readonly common: Common,
    readonly arrivedAt: number,
  ) {
    this.type = p.type
    this.hash = p.hash
    this.hashHex = p.hashHex
    this.chainId = p.chainId
    this.nonce = p.nonce
    this.gasLimit = p.gasLimit
    this.feeCap = p.feeCap
    this.tipCap = p.tipCap
    this.value = p.value
    this.isCreate = p.isCreate
    this.to = p.to
    this.dataLength = p.dataLength
    this.size = p.size
    this.blobFeeCap = p.blobFeeCap
    this.blobCount = p.blobCount
    this.sidecar = undefined
    this.authorizationCount = p.authorizationCount
    this.dataOffset = p.dataOffset
    this.accessList = p.accessList
    this.sender = p.sender
    this.senderHex = p.senderHex
    this.cost = costOf(p)
    this.intrinsicGas = p.intrinsicGas
    this.floorDataGas = p.floorDataGas
    this.fork = p.fork
    this.seq = nextArrivalSeq()
    this.senderPublicKey = p.senderPublicKey
  }

  get tx(): TypedTransaction {
    return (this.built ??= libraryTx(this.raw, this.type, this.common, this.hash, this.senderPublicKey))
  }

  /** Whether the block builder runs it from these fields, without its library object (types 0 to 2). */
  get runsFromRecord(): boolean {
    return this.dataOffset >= 0
  }

  get isBuilt(): boolean {
    return this.built !== undefined
  }
}

/** Library objects built per turn of the event loop while warming (~60 µs each). */
const WARM_PER_TURN = 16
const warmQueue: PreparedPooledTx[] = []
let warming = false

/**
 * Builds the library object of an admitted transaction that the block builder will need it for (one its
 * record does not describe: blob and set-code transactions) in the event loop's idle turns, a few at a
 * time, so that the flashblock that includes it does not build it while holding the main thread. Types 0
 * to 2 stay lazy: the builder runs them from the record, and only a read of the transaction builds theirs.
 * No-op for other PooledTx kinds (they are built already).
 */
export function buildWhenIdle(tx: PooledTx): void {
  if (!(tx instanceof PreparedPooledTx) || tx.runsFromRecord || tx.isBuilt) return
  warmQueue.push(tx)
  if (warming) return
  warming = true
  setImmediate(warmSome)
}

function warmSome(): void {
  for (let i = 0; i < WARM_PER_TURN && warmQueue.length > 0; i++) {
    try {
      void warmQueue.shift()!.tx
    } catch {
      // Built again (and the error met) where it is used; warming is only a head start.
    }
  }
  if (warmQueue.length > 0) setImmediate(warmSome)
  else warming = false
}
