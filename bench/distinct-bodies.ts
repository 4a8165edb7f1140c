/**
 * Request bodies that name distinct token holders, for loads whose every request differs from the ones
 * before it (no input-keyed cache can answer them).
 *
 * A list walks a holder list in order from `start`, each body taking the next `perBody` holders, so a body
 * recurs only after `holders.length / perBody` requests; a list holds each distinct body once (the load
 * generator cycles it). Calldata is built once with a marker address and split around it (viem's encoder
 * costs ~20 µs a body: seconds for 100,000 of them); ids are 1, 2, ….
 */

import { encodeFunctionData, type Address, type Hex } from 'viem'
import { ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { rpcBody } from './rpc.ts'

const MARKER = `0x${'ab'.repeat(20)}` as Address

/** Calldata as a function of one address argument: head + address (40 hex digits, lower case) + tail. */
function withAddress(encode: (a: Address) => Hex): (a: Address) => Hex {
  const [head, tail, ...rest] = encode(MARKER).split(MARKER.slice(2))
  if (head === undefined || tail === undefined || rest.length > 0) throw new Error('the marker address must occur once in the calldata')
  return (a) => `${head}${a.slice(2).toLowerCase()}${tail}` as Hex
}

/** balanceOf(holder) calldata. */
export const balanceOfData = withAddress((a) => encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [a] }))

/** transfer(to, 1) calldata. */
export const transferOneData = withAddress((a) => encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [a, 1n] }))

/** Body i built from holders start + i·perBody … start + i·perBody + perBody − 1 (modulo the list). */
export function distinctBodies<T>(items: readonly T[], perBody: number, start: number, body: (id: number, take: (k: number) => T) => string): string[] {
  const n = items.length
  const count = Math.floor(n / perBody)
  return Array.from({ length: count }, (_, i) => body(i + 1, (k) => items[(start + i * perBody + k) % n]!))
}

/** eth_call balanceOf(holder) on the token at `tag`, one holder a request. */
export function balanceOfBodies(token: Address, holders: readonly Address[], tag: string, start: number): string[] {
  return distinctBodies(holders, 1, start, (id, h) => rpcBody(id, 'eth_call', [{ to: token, data: balanceOfData(h(0)) }, tag]))
}

/** eth_simulateV1 params: one block of `calls` transfers of 1 unit, holder k to holder k + 1, on `tag`. */
export function transferChainParams(token: Address, holder: (k: number) => Address, calls: number, tag: string): unknown[] {
  const list = Array.from({ length: calls }, (_, k) => ({ from: holder(k), to: token, input: transferOneData(holder(k + 1)) }))
  return [{ blockStateCalls: [{ calls: list }] }, tag]
}

/** eth_simulateV1 of `calls` chained transfers, each request with its own calls + 1 holders. */
export function simulateBodies(token: Address, holders: readonly Address[], calls: number, tag: string, start: number): string[] {
  return distinctBodies(holders, calls + 1, start, (id, h) => rpcBody(id, 'eth_simulateV1', transferChainParams(token, h, calls, tag)))
}
