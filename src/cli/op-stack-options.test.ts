/**
 * `--op-stack` and `--op-l1` as the CLI reads them: the genesis and sequencer settings they give, the
 * combinations refused, the help that describes them, and the Ethereum dev chain left as it was without them.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { helpText, parseCommandLine, UsageError } from './options.ts'
import { chooseGenesis } from './chain-setup.ts'
import { sequencerSettingsOf } from './node-config.ts'
import { ChainRules } from '../execution/chain-config.ts'
import { CREATE2_DEPLOYER_ADDRESS, GAS_PRICE_ORACLE_ADDRESS, L1_BLOCK_ADDRESS, L2_TO_L1_MESSAGE_PASSER_ADDRESS } from '../opstack/predeploy-addresses.ts'
import { tempDir } from '../../test/support/temp-dir.ts'

const start = (...args: string[]) => parseCommandLine('start', args).options

function l1File(t: TestContext, content: unknown): string {
  const file = join(tempDir(t), 'l1.json')
  writeFileSync(file, JSON.stringify(content))
  return file
}

test('--op-stack: Base\'s EIP-1559 parameters, OP forks to Jovian from genesis, Jovian extraData, the predeploys and the create2Deployer', () => {
  const genesis = chooseGenesis(start('--op-stack')).genesis as unknown as { config: Record<string, unknown>; alloc: Record<string, unknown>; extraData: string }
  assert.deepEqual(genesis.config.optimism, { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 })
  const rules = new ChainRules(genesis as never)
  assert.equal(rules.opFork(0n, 0n), 'jovian')
  assert.equal(rules.op!.times.jovian, 0n)
  // jovian/exec-engine.md: version 1, denominator 250 (0xfa), elasticity 6, minimum base fee 0 (u64).
  assert.equal(genesis.extraData, '0x01000000fa000000060000000000000000')
  for (const address of [L1_BLOCK_ADDRESS, GAS_PRICE_ORACLE_ADDRESS, L2_TO_L1_MESSAGE_PASSER_ADDRESS, CREATE2_DEPLOYER_ADDRESS]) assert.ok(genesis.alloc[address] !== undefined, address)
  // Ethereum stays the default: no optimism section, no predeploys.
  const plain = chooseGenesis(start()).genesis as unknown as { config: Record<string, unknown>; alloc: Record<string, unknown> }
  assert.equal(plain.config.optimism, undefined)
  assert.equal(plain.alloc[L1_BLOCK_ADDRESS], undefined)
})

test('--op-l1 FILE: its values in the sequencer settings; unknown keys, bad values and use without --op-stack refused', (t) => {
  const file = l1File(t, { l1BaseFee: '0x10', baseFeeScalar: 12 })
  assert.deepEqual(sequencerSettingsOf(start('--op-stack', '--op-l1', file)).opL1, { l1BaseFee: 16n, baseFeeScalar: 12n })
  assert.throws(() => sequencerSettingsOf(start('--op-stack', '--op-l1', l1File(t, { l1Basefee: 1 }))), UsageError)
  assert.throws(() => sequencerSettingsOf(start('--op-stack', '--op-l1', l1File(t, { l1BaseFee: -1 }))), UsageError)
  assert.throws(() => chooseGenesis(start('--op-l1', file)), /--op-stack/)
  // Jovian's minimum base fee goes into the genesis's extraData (bytes [9, 17)), the DA scalar into L1Block.
  const jovian = l1File(t, { minBaseFee: 1_000_000, daFootprintGasScalar: 7 })
  assert.deepEqual(sequencerSettingsOf(start('--op-stack', '--op-l1', jovian)).opL1, { minBaseFee: 1_000_000n, daFootprintGasScalar: 7n })
  const genesis = chooseGenesis(start('--op-stack', '--op-l1', jovian)).genesis as unknown as { extraData: string }
  assert.equal(BigInt('0x' + genesis.extraData.slice(2 + 18)), 1_000_000n)
})

test('--op-l1 with a --genesis file: taken for a genesis with an optimism section, refused for an Ethereum one', (t) => {
  const l1 = l1File(t, { l1BaseFee: 7 })
  const dir = tempDir(t)
  const op = chooseGenesis(start('--op-stack')).genesis
  writeFileSync(join(dir, 'op.json'), JSON.stringify(op, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
  writeFileSync(join(dir, 'eth.json'), JSON.stringify(chooseGenesis(start()).genesis, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
  const opFile = start('--genesis', join(dir, 'op.json'), '--op-l1', l1)
  assert.deepEqual((chooseGenesis(opFile).genesis.config as unknown as Record<string, unknown>).optimism, { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 })
  assert.deepEqual(sequencerSettingsOf(opFile).opL1, { l1BaseFee: 7n })
  assert.throws(() => chooseGenesis(start('--genesis', join(dir, 'eth.json'), '--op-l1', l1)), /no optimism section/)
  // op-geth's genesis setup check: Isthmus implies Prague at the same time.
  const config = op.config as unknown as Record<string, unknown>
  writeFileSync(join(dir, 'late-prague.json'), JSON.stringify({ ...op, config: { ...config, pragueTime: 10 } }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
  assert.throws(() => chooseGenesis(start('--genesis', join(dir, 'late-prague.json'))), /pragueTime \(10\) must equal isthmusTime \(0\)/)
})

test('--op-stack refuses --genesis and a --coinbase (the SequencerFeeVault is the coinbase); --help describes it', () => {
  assert.throws(() => chooseGenesis(start('--op-stack', '--genesis', 'g.json')), /excludes --genesis/)
  assert.throws(() => sequencerSettingsOf(start('--op-stack', '--coinbase', '0x00000000000000000000000000000000000000aa')), /SequencerFeeVault/)
  const help = helpText('start')
  assert.match(help, /--op-stack .*Jovian/)
  assert.match(help, /--op-l1 FILE/)
})
