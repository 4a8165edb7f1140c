/**
 * eth_getProof(address, storageKeys, block): EIP-1186, through the node's proof port (NodeApi.proofs). The
 * block is required, as in geth (number, tag, hash or EIP-1898 object; `pending` proves against the open
 * block's pre-confirmed state). Checks in geth's order: the arguments, then the number of keys (at most
 * MAX_PROOF_SLOTS), then each key with eth_getStorageAt's rules and messages, all before any state is read.
 */

import type { NodeApi } from '../../node/api.ts'
import { MAX_PROOF_SLOTS } from '../../node/state-proofs.ts'
import { invalidParams } from '../../errors/errors.ts'
import { proofJson } from '../format/proof.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseAddress } from '../params/hex.ts'
import { jsonKind, typeError } from '../params/json.ts'
import { decodeStorageKey, parseStorageKeyText } from '../params/storage-key.ts'

/** geth's `[]string`: an array of strings (`null` reads as no keys). */
function parseStorageKeyTexts(raw: unknown): string[] {
  if (raw === null || raw === undefined) return []
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), '[]string')
  return raw.map(parseStorageKeyText)
}

const spec = [required(parseAddress), required(parseStorageKeyTexts), required(parseBlockNumberOrHash)] as const

/** How many bytes a key was written with (geth's DecodeStorageKey: an odd digit count gains a zero nibble). */
const keyByteLength = (text: string): number => (text.length - (text.startsWith('0x') || text.startsWith('0X') ? 2 : 0) + 1) >> 1

export function proofMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_getProof: async (params) => {
      const [address, texts, block] = parseArgs(params, spec)
      if (texts.length > MAX_PROOF_SLOTS) throw invalidParams(`too many storage keys requested (max ${MAX_PROOF_SLOTS}, got ${texts.length})`)
      const slots = texts.map(decodeStorageKey)
      return proofJson(await node.proofs.getProof(address, slots, block), texts.map(keyByteLength))
    },
  }
}
