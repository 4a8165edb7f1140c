/**
 * Bounded transfer load against a node process that is expected to die under it (the kill -9 tests): signed
 * EIP-1559 transfers from the first four dev accounts, one at a time over HTTP, until a count or a time is
 * reached or the node stops answering. Returns how many were accepted.
 */

import { parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, DEV_CHAIN_ID } from './dev-chain.ts'
import { rpc } from './node-process.ts'

export const LOAD_SENDERS = ACCOUNTS.slice(0, 4).map((a) => privateKeyToAccount(a.privateKey as Hex))
/** CLI arguments giving a node process the load's senders and chain id. */
export const LOAD_NODE_ARGS = ['--accounts', String(LOAD_SENDERS.length), '--chain-id', String(DEV_CHAIN_ID)]

export async function sendTransfersUntilDeath(url: string, bounds: { maxTxs: number; runMs: number }): Promise<number> {
  const nonces = LOAD_SENDERS.map(() => 0)
  const started = Date.now()
  let sent = 0
  try {
    for (; sent < bounds.maxTxs && Date.now() - started < bounds.runMs; sent++) {
      const i = sent % LOAD_SENDERS.length
      const raw = await LOAD_SENDERS[i]!.signTransaction({
        chainId: Number(DEV_CHAIN_ID),
        type: 'eip1559',
        to: '0x00000000000000000000000000000000000000aa',
        value: 1n,
        nonce: nonces[i]!,
        gas: 21_000n,
        maxFeePerGas: parseGwei('50'),
        maxPriorityFeePerGas: parseGwei('1'),
      })
      await rpc(url, 'eth_sendRawTransaction', [raw])
      nonces[i]! += 1
    }
  } catch {
    // The node died under us: that is the point.
  }
  return sent
}
