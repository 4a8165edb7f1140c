/**
 * Paths to the read-only material beside the repository (../shared), located from this file so tests run
 * from any clone with shared/ beside it.
 */

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url))
export const RPC_COMPAT_DIR = `${SHARED_DIR}rpc-compat/tests/`

export const readRpcCompatGenesis = (): Record<string, unknown> =>
  JSON.parse(readFileSync(`${RPC_COMPAT_DIR}genesis.json`, 'utf8')) as Record<string, unknown>

export const readRpcCompatChain = (): Uint8Array => new Uint8Array(readFileSync(`${RPC_COMPAT_DIR}chain.rlp`))

/** The head hash the rpc-compat suite expects after import (headfcu.json). */
export const rpcCompatHeadHash = (): string =>
  (JSON.parse(readFileSync(`${RPC_COMPAT_DIR}headfcu.json`, 'utf8')) as { params: [{ headBlockHash: string }] }).params[0].headBlockHash
