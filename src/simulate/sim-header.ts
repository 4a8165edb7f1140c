/**
 * A simulated block's finished header without the library's header object: its fields as the view shows
 * them, its RLP (the block hash and size are made of it), and the library header only when a later block of
 * the same request needs this one as its parent (headers.ts reads the next base fee and excess blob gas from
 * it). Building the library header and serializing it cost ~10% of a one-call simulation's worker time.
 *
 * The fields follow the library's header (and geth's): the fork's optional fields are present exactly when
 * their EIP is active on the block's Common (1559 base fee, 4895 withdrawals root, 4844 blob gas used and
 * excess, 4788 parent beacon root, 7685 requests hash), each given its default when the block has no value:
 * the empty withdrawals trie, zero, 32 zero bytes, the hash of no requests. The conformance cases hold the
 * block hashes to geth's on every fork the test chain runs; sim-header.test.ts to the library's header.
 */

import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import type { HeaderView } from '../chain/types.ts'
import { bigIntToMinimalBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { SimHeaderData } from './headers.ts'
import { requestsHash } from './system-calls.ts'

/** What building the block decided: its roots, bloom and gas. */
export interface BuiltParts {
  readonly stateRoot: Uint8Array
  readonly transactionsTrie: Uint8Array
  readonly receiptTrie: Uint8Array
  readonly logsBloom: Uint8Array
  readonly gasUsed: bigint
  readonly blobGasUsed: bigint
  readonly withdrawalsRoot: Uint8Array | undefined
  readonly requestsHash: Uint8Array | undefined
}

export interface FinishedHeader {
  /** The header's fields as eth_simulateV1 shows them (the hash comes from `rlp`). */
  readonly fields: Omit<HeaderView, 'hash'>
  readonly rlp: Uint8Array
  readonly hash: Uint8Array
  /** The library's header of the same fields, built on first use: only a following block reads it. */
  libraryHeader(): BlockHeader
}

const ZERO32 = new Uint8Array(32)

export function finishHeader(data: SimHeaderData, parts: BuiltParts, common: Common): FinishedHeader {
  const fields: { -readonly [K in keyof Omit<HeaderView, 'hash'>]: Omit<HeaderView, 'hash'>[K] } = {
    parentHash: data.parentHash,
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: data.coinbase,
    stateRoot: parts.stateRoot,
    transactionsTrie: parts.transactionsTrie,
    receiptTrie: parts.receiptTrie,
    logsBloom: parts.logsBloom,
    difficulty: data.difficulty,
    number: data.number,
    gasLimit: data.gasLimit,
    gasUsed: parts.gasUsed,
    timestamp: data.timestamp,
    extraData: data.extraData,
    mixHash: data.mixHash,
    nonce: data.nonce,
  }
  const q = bigIntToMinimalBytes
  const raw: Uint8Array[] = [
    fields.parentHash, fields.uncleHash, fields.coinbase, fields.stateRoot, fields.transactionsTrie, fields.receiptTrie, fields.logsBloom,
    q(fields.difficulty), q(fields.number), q(fields.gasLimit), q(fields.gasUsed), q(fields.timestamp), fields.extraData, fields.mixHash, fields.nonce,
  ]
  if (common.isActivatedEIP(1559)) {
    const baseFee = data.baseFeePerGas
    if (baseFee === undefined) throw new Error('a London block without a base fee')
    raw.push(q((fields.baseFeePerGas = baseFee)))
  }
  if (common.isActivatedEIP(4895)) raw.push((fields.withdrawalsRoot = parts.withdrawalsRoot ?? KECCAK256_RLP))
  if (common.isActivatedEIP(4844)) {
    raw.push(q((fields.blobGasUsed = parts.blobGasUsed)))
    raw.push(q((fields.excessBlobGas = data.excessBlobGas ?? 0n)))
  }
  if (common.isActivatedEIP(4788)) raw.push((fields.parentBeaconBlockRoot = data.parentBeaconBlockRoot ?? ZERO32))
  if (common.isActivatedEIP(7685)) raw.push((fields.requestsHash = parts.requestsHash ?? requestsHash([])))
  if (common.isActivatedEIP(7928) || common.isActivatedEIP(7843)) throw new Error(`fork ${common.hardfork()} adds header fields this node does not build`)
  const rlp = encodeRlp(raw)
  let library: BlockHeader | undefined
  return {
    fields,
    rlp,
    hash: keccak256(rlp),
    libraryHeader: () => (library ??= createBlockHeader(fields, { common, skipConsensusFormatValidation: true })),
  }
}
