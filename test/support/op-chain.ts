/**
 * An OP Stack variant of the tests' dev chain (dev-chain.ts): the genesis's `optimism` section and OP fork
 * times, and a test double of the L1Block predeploy at 0x4200…0015 whose only job is to store the
 * L1-attributes calldata of Ecotone/Isthmus layout into the slots the real contract uses (the monorepo's
 * storageLayout/L1Block.json and op-geth's slot constants: opstack/l1-block-storage.ts), so a block's own
 * L1-attributes deposit sets the parameters its transactions are charged with. The real predeploy bytecode
 * is another part of issue 41; this double is test code only. Also the CLI's own `--op-stack` dev chain
 * (`opStackCliConfig`), for tests that start a node as a user would.
 */

import type { TestContext } from 'node:test'
import { parseAbi } from 'viem'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCommandLine } from '../../src/cli/options.ts'
import { chooseGenesis } from '../../src/cli/chain-setup.ts'
import { sequencerSettingsOf } from '../../src/cli/node-config.ts'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode, type SequencerConfig } from '../../src/node/create-node.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { encodeDepositTransaction, l1InfoDepositSourceHash, userDepositSourceHash, type DepositTransaction } from '../../src/opstack/deposit-tx.ts'
import { encodeL1Info, type IsthmusL1Info } from '../../src/opstack/l1-attributes.ts'
import { hexToBytes } from '../../src/primitives/hex.ts'
import { L1_BLOCK_ADDRESS as L1_BLOCK, L1_INFO_DEPOSITOR_ADDRESS as DEPOSITOR } from '../../src/opstack/predeploy-addresses.ts'
import { FORKS_AT_GENESIS } from '../../src/node/op-dev-genesis.ts'
import { testGenesis } from './dev-chain.ts'
import { tempDir } from './temp-dir.ts'

export { L1_BLOCK, DEPOSITOR }

/**
 * The L1Block double's runtime: for each packed field, CALLDATALOAD at its offset, SHR to right-align it,
 * SSTORE into its slot: slot 3 ← bytes [4,20) (base fee scalar, blob base fee scalar, sequence number),
 * slot 0 ← [20,36) (timestamp, number), 1 ← basefee, 7 ← blob basefee, 2 ← hash, 4 ← batcher hash,
 * 8 ← [164,176) (operator fee scalar, constant).
 */
export const L1_BLOCK_DOUBLE =
  '60043560801c600355' + '60143560801c600055' + '6024356001' + '55' + '6044356007' + '55' + '6064356002' + '55' + '6084356004' + '55' + '60a43560a01c600855' + '00'

export type OpForkTimes = Partial<Record<'bedrockBlock' | 'regolithTime' | 'canyonTime' | 'deltaTime' | 'ecotoneTime' | 'fjordTime' | 'graniteTime' | 'holoceneTime' | 'isthmusTime' | 'jovianTime', number>>

/** Every OP fork through Isthmus at genesis (the dev chain's schedule without Jovian). */
export const ISTHMUS_AT_GENESIS: OpForkTimes = (({ jovianTime: _, ...rest }) => rest)(FORKS_AT_GENESIS)

/** Every OP fork through Jovian at genesis (the dev chain's schedule). */
export const JOVIAN_AT_GENESIS: OpForkTimes = { ...FORKS_AT_GENESIS }

/** Jovian's extraData: version 1, denominator u32, elasticity u32, minimum base fee u64. */
export function jovianExtraData(denominator: number, elasticity: number, minBaseFee: bigint): Uint8Array {
  const out = new Uint8Array(17)
  out.set(holoceneExtraData(denominator, elasticity))
  out[0] = 1
  new DataView(out.buffer).setBigUint64(9, minBaseFee)
  return out
}

/** Holocene's extraData: version 0, denominator u32, elasticity u32. */
export function holoceneExtraData(denominator: number, elasticity: number): Uint8Array {
  const out = new Uint8Array(9)
  const view = new DataView(out.buffer)
  view.setUint32(1, denominator)
  view.setUint32(5, elasticity)
  return out
}

/** The tests' dev chain as an OP Stack chain with these forks (Holocene's or Jovian's genesis extraData when it is on at genesis). */
export function opGenesis(forks: OpForkTimes, code: Readonly<Record<string, string>> = {}): GethGenesis {
  const g = testGenesis() as unknown as { config: Record<string, unknown>; alloc: Record<string, unknown>; extraData?: string }
  Object.assign(g.config, forks, { optimism: { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 } })
  g.alloc[L1_BLOCK] = { balance: '0x0', code: `0x${L1_BLOCK_DOUBLE}` }
  for (const [address, runtime] of Object.entries(code)) g.alloc[address] = { balance: '0x0', code: `0x${runtime}` }
  if (forks.holoceneTime !== undefined) g.extraData = '0x' + Buffer.from(holoceneExtraData(250, 6)).toString('hex')
  if (forks.jovianTime === 0) g.extraData = '0x' + Buffer.from(jovianExtraData(250, 6, 0n)).toString('hex')
  return g as unknown as GethGenesis
}

export async function opNode(t: TestContext, genesis: GethGenesis): Promise<FlashNode> {
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis })
  t.after(() => node.close())
  return node
}

/** Isthmus-layout L1 attributes with the given fee parameters. */
export function isthmusL1Info(fees: { baseFee: bigint; blobBaseFee: bigint; baseFeeScalar: bigint; blobBaseFeeScalar: bigint; operatorFeeScalar: bigint; operatorFeeConstant: bigint }): IsthmusL1Info {
  return {
    kind: 'isthmus',
    number: 100n,
    timestamp: 1_000n,
    blockHash: new Uint8Array(32).fill(0xab),
    sequenceNumber: 0n,
    batcherHash: new Uint8Array(32).fill(0xbc),
    ...fees,
  }
}

/** The L1-attributes deposit carrying `info` (from the depositor account to the L1Block predeploy). */
export function l1InfoDeposit(info: IsthmusL1Info): Uint8Array {
  return encodeDepositTransaction({
    sourceHash: l1InfoDepositSourceHash(info.blockHash, info.sequenceNumber),
    from: hexToBytes(DEPOSITOR),
    to: hexToBytes(L1_BLOCK),
    mint: 0n,
    value: 0n,
    gas: 1_000_000n,
    isSystemTx: false,
    data: encodeL1Info(info),
  })
}

let logIndex = 0n

/** A user deposit (a fresh source hash each). */
export function userDeposit(fields: Omit<DepositTransaction, 'sourceHash'>): Uint8Array {
  return encodeDepositTransaction({ sourceHash: userDepositSourceHash(new Uint8Array(32).fill(0x11), logIndex++), ...fields })
}

/**
 * The CLI's OP dev chain (`start --op-stack --op-l1 FILE --sealing manual --accounts 4`): its genesis and
 * sequencer settings, from the options a user would give; `l1` is written to FILE in `dir`.
 */
export function opStackCliConfig(dir: string, l1: Readonly<Record<string, bigint>>): { genesis: GethGenesis; sequencer: SequencerConfig } {
  const file = join(dir, 'l1.json')
  writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(l1).map(([k, v]) => [k, v.toString()]))))
  const { options } = parseCommandLine('start', ['--op-stack', '--op-l1', file, '--sealing', 'manual', '--accounts', '4'])
  return { genesis: chooseGenesis(options).genesis, sequencer: sequencerSettingsOf(options) }
}

/** The L1Block predeploy's getters (the monorepo's L1Block 1.7.0). */
export const L1_BLOCK_ABI = parseAbi([
  'function number() view returns (uint64)',
  'function timestamp() view returns (uint64)',
  'function basefee() view returns (uint256)',
  'function hash() view returns (bytes32)',
  'function sequenceNumber() view returns (uint64)',
  'function batcherHash() view returns (bytes32)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function blobBaseFee() view returns (uint256)',
  'function operatorFeeScalar() view returns (uint32)',
  'function operatorFeeConstant() view returns (uint64)',
  'function daFootprintGasScalar() view returns (uint16)',
])
