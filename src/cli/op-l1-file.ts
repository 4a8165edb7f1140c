/**
 * --op-l1 FILE: the L1 values of an OP Stack chain's sequencer (the `--op-stack` dev chain, or a `--genesis` file with
 * an `optimism` section), a small JSON object, e.g.
 * `{"l1BaseFee": "30000000000", "l1BlobBaseFee": 1, "baseFeeScalar": 2269, "blobBaseFeeScalar": 1055762,
 *   "operatorFeeScalar": 0, "operatorFeeConstant": 0, "daFootprintGasScalar": 400, "minBaseFee": 1000000}`:
 * every key optional, each a non-negative integer (a JSON number, or a decimal or 0x string for big values);
 * an unknown key is refused. What is given goes into the genesis's L1Block (a new chain) and into every
 * block's L1-attributes deposit (daFootprintGasScalar 0: Jovian's default, 400); `minBaseFee` (Jovian's
 * system-config minimum base fee, wei) into the genesis's and every block's extraData. What is not given keeps
 * opstack/dev-genesis.ts's BASE_LIKE_DEV_L1 and a minimum base fee of 0 (a new chain) or the chain's current
 * value.
 */

import { readFileSync } from 'node:fs'
import type { L1ValueOverrides } from '../sequencer/op-opening.ts'
import { UsageError } from './options.ts'

const KEYS = ['l1BaseFee', 'l1BlobBaseFee', 'baseFeeScalar', 'blobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant', 'daFootprintGasScalar', 'minBaseFee'] as const

function integer(file: string, key: string, value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value)
  throw new UsageError(`--op-l1 ${file}: ${key} must be a non-negative integer, got ${JSON.stringify(value)}`)
}

export function readOpL1File(file: string): L1ValueOverrides {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new UsageError(`--op-l1 ${file}: ${(e as Error).message}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--op-l1 ${file}: expected a JSON object`)
  const out: Record<string, bigint> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (!(KEYS as readonly string[]).includes(key)) throw new UsageError(`--op-l1 ${file}: unknown key ${key} (known: ${KEYS.join(', ')})`)
    out[key] = integer(file, key, value)
  }
  return out as L1ValueOverrides
}
