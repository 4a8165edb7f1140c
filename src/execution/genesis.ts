/**
 * Block 0 from a geth-format genesis: the allocation as a state diff, its state root, and the header with
 * the fields its fork requires (base fee, withdrawals root: on an OP chain from Isthmus the L2ToL1MessagePasser's
 * storage root, blob gas, beacon root, requests hash).
 */

import { createBlock } from '@ethereumjs/block'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import { sha256 } from '@noble/hashes/sha2.js'
import type { KvStore } from '../storage/db.ts'
import { messagePasserStorageRoot, withdrawalsRootIsMessagePasser } from './op-withdrawals-root.ts'
import { bytesToHex, hexToBytes, leftPad } from '../primitives/hex.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { computeStateRoot, EMPTY_TRIE_ROOT } from '../state/state-root.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { ChainRules, GethGenesis } from './chain-config.ts'
import type { ExecutedBlock } from './block-runner.ts'

const EMPTY_READER: StateReader = {
  getAccount: () => undefined,
  getStorage: () => new Uint8Array(0),
  getCode: () => new Uint8Array(0),
}

/** EIP-1559's INITIAL_BASE_FEE, geth's default for a genesis without baseFeePerGas. */
const EIP1559_INITIAL_BASE_FEE = 1_000_000_000n

const big = (v: string | number | null | undefined, fallback = 0n): bigint =>
  v === undefined || v === null || v === '' ? fallback : BigInt(v)

function normalizeHex(v: string): string {
  const digits = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v
  return `0x${digits.length % 2 ? '0' : ''}${digits}`.toLowerCase()
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0
  while (i < b.length && b[i] === 0) i++
  return b.subarray(i)
}

export function genesisDiff(genesis: GethGenesis): StateDiff {
  const accounts = new Map<string, Account>()
  const storage = new Map<string, Map<string, Uint8Array>>()
  const codes = new Map<string, Uint8Array>()
  for (const [rawAddress, entry] of Object.entries(genesis.alloc ?? {})) {
    const address = bytesToHex(leftPad(hexToBytes(normalizeHex(rawAddress)), 20))
    const e = entry as { balance?: string; nonce?: string; code?: string; storage?: Record<string, string> }
    let codeHash = KECCAK256_NULL
    if (e.code !== undefined && e.code !== '0x' && e.code !== '') {
      const code = hexToBytes(normalizeHex(e.code))
      codeHash = keccak256(code)
      codes.set(bytesToHex(codeHash), code)
    }
    accounts.set(address, new Account(big(e.nonce), big(e.balance), EMPTY_TRIE_ROOT, codeHash))
    const slots = new Map<string, Uint8Array>()
    for (const [k, v] of Object.entries(e.storage ?? {})) {
      const value = stripZeros(hexToBytes(normalizeHex(v)))
      if (value.length > 0) slots.set(bytesToHex(leftPad(hexToBytes(normalizeHex(k)), 32)), value)
    }
    if (slots.size > 0) storage.set(address, slots)
  }
  return { accounts, storage, wiped: new Set(), codes }
}

export async function buildGenesis(rules: ChainRules, kv: KvStore): Promise<ExecutedBlock> {
  const g = rules.genesis as GethGenesis & Record<string, string | undefined>
  const timestamp = big(g.timestamp)
  const common = rules.at(0n, timestamp)
  const diff = genesisDiff(g)
  const root = await computeStateRoot(kv, EMPTY_TRIE_ROOT, EMPTY_READER, diff)
  const has = (eip: number) => common.isActivatedEIP(eip)
  const block = createBlock(
    {
      header: {
        number: 0n,
        parentHash: new Uint8Array(32),
        coinbase: hexToBytes(normalizeHex(g.coinbase ?? '0x' + '00'.repeat(20))),
        stateRoot: root.root,
        difficulty: big(g.difficulty),
        gasLimit: big(g.gasLimit),
        gasUsed: big(g.gasUsed),
        timestamp,
        extraData: hexToBytes(normalizeHex(g.extraData ?? '0x')),
        mixHash: hexToBytes(normalizeHex(g.mixHash ?? `0x${'00'.repeat(32)}`)),
        nonce: leftPad(stripZeros(hexToBytes(normalizeHex(g.nonce ?? '0x0'))), 8),
        ...(has(1559) ? { baseFeePerGas: big(g.baseFeePerGas ?? undefined, EIP1559_INITIAL_BASE_FEE) } : {}),
        // OP Stack, Isthmus at genesis: the L2ToL1MessagePasser's storage root (op-geth core/genesis.go toBlockWithRoot).
        ...(has(4895) ? { withdrawalsRoot: withdrawalsRootIsMessagePasser(rules.op, timestamp) ? messagePasserStorageRoot(root, EMPTY_READER) : EMPTY_TRIE_ROOT } : {}),
        ...(has(4844) ? { blobGasUsed: big(g.blobGasUsed), excessBlobGas: big(g.excessBlobGas) } : {}),
        ...(has(4788) ? { parentBeaconBlockRoot: new Uint8Array(32) } : {}),
        ...(has(7685) ? { requestsHash: sha256(new Uint8Array(0)) } : {}),
      },
      ...(has(4895) ? { withdrawals: [] } : {}),
    },
    { common },
  )
  return {
    stored: {
      number: 0n,
      hash: block.hash(),
      headerRlp: block.header.serialize(),
      blockRlp: block.serialize(),
      senders: [],
      txHashes: [],
      receipts: [],
    },
    diff,
    root,
  }
}
