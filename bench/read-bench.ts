/**
 * Scenario "read": state reads at `latest`, the most common load on a public RPC endpoint.
 *   - eth_call balanceOf(holder) on the token, cycling through 64 holders (a different account's storage
 *     on consecutive requests). The 64 answers repeat within a block, so Flashnode's call-result cache
 *     answers most of them (the row's name says so; the distinct scenario has the same call without cache
 *     hits); the other three rows have no result cache;
 *   - eth_getStorageAt of the same holders' balance slots (state access without the EVM);
 *   - eth_getCode of the token and the four Prague system contracts, cycled;
 *   - eth_getTransactionCount of the 64 holders;
 *   - eth_getProof of the token with 10 of the holders' balance slots, a different window each request.
 * Each peer's answer is checked against the genesis before it is measured.
 *
 * `readCases` builds the same four cases for any block tag and expected state; the pending-reads scenario
 * reuses it at `pending` with the pool idle and with 1,000 transactions waiting.
 */

import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt, createAccountFromRLP } from '@ethereumjs/util'
import { bytesToHex, encodeFunctionData, hexToBytes, keccak256, type Address, type Hex } from 'viem'
import { balanceSlot, deployedCode, ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import type { BenchChain } from './genesis.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Scenario, ScenarioContext } from './scenario.ts'
import { SYSTEM_CONTRACTS } from './system-contracts.ts'

export const HOLDERS = 64

/** What holder 0 should read as in the state being measured. */
export interface ReadExpectation {
  tokenBalance: bigint
  nonce: bigint
}

function expectWord(got: unknown, want: bigint, what: string): void {
  if (typeof got !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(got)) throw new Error(`${what}: not a 32-byte word: ${String(got)}`)
  if (BigInt(got) !== want) throw new Error(`${what}: ${BigInt(got)} instead of ${want}`)
}

function expectQuantity(got: unknown, want: bigint, what: string): void {
  if (typeof got !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(got)) throw new Error(`${what}: not a quantity: ${String(got)}`)
  if (BigInt(got) !== want) throw new Error(`${what}: ${BigInt(got)} instead of ${want}`)
}

/**
 * The four read cases at `tag`; `suffix` is appended to each row name (e.g. ", 1,000 txs in the pool"),
 * `expect` gives holder 0's balance and nonce as the peer should answer them, and `extra` adds fields
 * (peers, prepare) to every case.
 */
export function readCases(
  chain: BenchChain,
  tag: 'latest' | 'pending',
  suffix: string,
  expect: (run: CaseRun) => ReadExpectation,
  extra: Partial<BenchCase> = {},
): BenchCase[] {
  const holders = chain.accounts.slice(0, HOLDERS).map((a) => a.address)
  const first = holders[0]!
  const contracts: Address[] = [chain.token, ...SYSTEM_CONTRACTS.map((c) => c.address)]
  const callParams = (holder: Hex): unknown[] => [
    { to: chain.token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [holder] }) },
    tag,
  ]
  const checked = (check: (run: CaseRun) => Promise<void>) => async (run: CaseRun) => {
    await extra.prepare?.(run) // the state must be in place before its answer is checked
    await check(run)
  }
  const { prepare: _prepare, ...rest } = extra
  return [
    {
      ...rest,
      name: `eth_call balanceOf @${tag}${suffix} (64 holders repeat: mostly Flashnode result-cache hits)`,
      bodies: () => holders.map((h, i) => rpcBody(i + 1, 'eth_call', callParams(h))),
      check: checked(async (run) => {
        expectWord(await rpcCall(run.node.url, 'eth_call', callParams(first)), expect(run).tokenBalance, 'balanceOf(holder 0)')
        const stranger = '0x000000000000000000000000000000000000dEaD'
        expectWord(await rpcCall(run.node.url, 'eth_call', callParams(stranger)), 0n, 'balanceOf(stranger)')
      }),
    },
    {
      ...rest,
      name: `eth_getStorageAt balance slot @${tag}${suffix} (64 holders repeat: Flashnode's state-history cache)`,
      bodies: () => holders.map((h, i) => rpcBody(i + 1, 'eth_getStorageAt', [chain.token, balanceSlot(h), tag])),
      check: checked(async (run) => {
        const got = await rpcCall(run.node.url, 'eth_getStorageAt', [chain.token, balanceSlot(first), tag])
        expectWord(got, expect(run).tokenBalance, 'balance slot of holder 0')
      }),
    },
    {
      ...rest,
      name: `eth_getCode token + system contracts @${tag}${suffix} (5 contracts repeat: Flashnode's code cache)`,
      bodies: () => contracts.map((a, i) => rpcBody(i + 1, 'eth_getCode', [a, tag])),
      check: checked(async (run) => {
        const got = await rpcCall(run.node.url, 'eth_getCode', [chain.token, tag])
        if (typeof got !== 'string' || got.toLowerCase() !== deployedCode.toLowerCase()) {
          throw new Error(`eth_getCode(token): ${String(got).slice(0, 40)}… is not the token's code`)
        }
      }),
    },
    {
      ...rest,
      name: `eth_getTransactionCount @${tag}${suffix} (64 holders repeat: Flashnode's state-history cache)`,
      bodies: () => holders.map((h, i) => rpcBody(i + 1, 'eth_getTransactionCount', [h, tag])),
      check: checked(async (run) => {
        expectQuantity(await rpcCall(run.node.url, 'eth_getTransactionCount', [first, tag]), expect(run).nonce, 'nonce of holder 0')
      }),
    },
  ]
}

/** Storage keys per eth_getProof request. */
const PROOF_SLOTS = 10

/**
 * eth_getProof of the token with 10 holders' balance slots @tag: request i asks holders i … i+9 (of the 64),
 * so consecutive requests differ. Checked before it is measured: holder 0's slot proves `balance(run)` (the
 * genesis balance at latest), and both proofs verify (the account's from its first node, the slot's from the
 * storage hash answered). `extra` adds fields (peers, prepare) as readCases' does.
 */
export function proofCase(
  chain: BenchChain,
  tag = 'latest',
  suffix = '',
  balance: (run: CaseRun) => bigint = () => chain.tokenBalance,
  extra: Partial<BenchCase> = {},
): BenchCase {
  const holders = chain.accounts.slice(0, HOLDERS).map((a) => a.address)
  const slotsFrom = (i: number): Hex[] => Array.from({ length: PROOF_SLOTS }, (_, k) => balanceSlot(holders[(i + k) % HOLDERS]!))
  return {
    ...(extra.peers !== undefined ? { peers: extra.peers } : {}),
    name: `eth_getProof token + ${PROOF_SLOTS} balance slots @${tag}${suffix} (a different window of the 64 holders each request; they repeat: Flashnode's proof node cache)`,
    bodies: () => holders.map((_, i) => rpcBody(i + 1, 'eth_getProof', [chain.token, slotsFrom(i), tag])),
    check: async (run) => {
      await extra.prepare?.(run) // the state must be in place before its answer is checked
      const got = (await rpcCall(run.node.url, 'eth_getProof', [chain.token, slotsFrom(0), tag])) as {
        accountProof: Hex[]
        storageHash: Hex
        storageProof: { value: Hex; proof: Hex[] }[]
      }
      if (got.storageProof.length !== PROOF_SLOTS) throw new Error(`eth_getProof: ${got.storageProof.length} storage proofs`)
      expectQuantity(got.storageProof[0]!.value, balance(run), 'proved balance slot of holder 0')
      // The proofs verified (@ethereumjs/mpt) from their own first node: Anvil's headers carry no state root
      // (its genesis block names the empty trie's), so the header is not what a proof is checked against here.
      const leaf = await verifyMerkleProof(hexToBytes(keccak256(chain.token)), got.accountProof.map((n) => hexToBytes(n)), { root: hexToBytes(keccak256(got.accountProof[0]!)) })
      if (leaf === null || bytesToHex(createAccountFromRLP(leaf).storageRoot) !== got.storageHash) throw new Error('eth_getProof: the account proof does not prove the storage hash answered')
      const slot = await verifyMerkleProof(hexToBytes(keccak256(balanceSlot(holders[0]!))), got.storageProof[0]!.proof.map((n) => hexToBytes(n)), { root: hexToBytes(got.storageHash) })
      if (slot === null || bytesToBigInt(RLP.decode(slot) as Uint8Array) !== balance(run)) throw new Error('eth_getProof: the storage proof does not prove the balance answered')
    },
  }
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  return [...readCases(chain, 'latest', '', () => ({ tokenBalance: chain.tokenBalance, nonce: 0n })), proofCase(chain)]
}

export const readBench: Scenario = {
  name: 'read',
  title: `state reads at latest, ${HOLDERS} holders cycled`,
  genesis: { accounts: HOLDERS },
  cases,
}
