/**
 * The debug namespace's raw reads, geth's DebugAPI: debug_getRawBlock, debug_getRawHeader (consensus RLP;
 * a sealed block only: the open, pre-confirmed block has no hash, so no encoding yet: `block not found` /
 * `header not found`), debug_getRawReceipts (each receipt's receipts-trie encoding, in order; the pending
 * block's pre-confirmed receipts too), debug_getRawTransaction (the signed transaction's canonical bytes, by
 * hash: sealed, pre-confirmed or pooled; "0x" for an unknown hash, as geth answers) and debug_getBadBlocks
 * (always []: the node keeps no refused blocks; a follower whose own replica of a block did not check out
 * imports the sequencer's sealed block instead and never holds the refused one as a block).
 * Endpoint policy keeps the whole namespace off public endpoints (rpc/policy/profiles.ts).
 */

import type { NodeApi } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseHash } from '../params/hex.ts'
import { consensusReceipt, firstListItem } from '../format/raw.ts'

export function debugMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    debug_getRawBlock: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumberOrHash)])
      const rlp = await node.rawBlock(id)
      if (rlp === null) throw new FlashnodeError('notFound', 'block not found')
      return bytesToHex(rlp)
    },
    debug_getRawHeader: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumberOrHash)])
      const rlp = await node.rawBlock(id)
      if (rlp === null) throw new FlashnodeError('notFound', 'header not found')
      return bytesToHex(firstListItem(rlp))
    },
    debug_getRawReceipts: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumberOrHash)])
      const receipts = await node.getBlockReceipts(id)
      if (receipts === null) throw new FlashnodeError('notFound', 'block not found')
      return receipts.map(({ receipt }) => bytesToHex(consensusReceipt(receipt)))
    },
    debug_getRawTransaction: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      const found = await node.getTransactionByHash(hash)
      return found === null ? '0x' : bytesToHex(found.tx.serialized)
    },
    debug_getBadBlocks: async (params) => {
      parseArgs(params, [])
      return []
    },
  }
}
