import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createEVM } from '@ethereumjs/evm'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { encodeFunctionData, decodeFunctionResult, getAddress, type Hex } from 'viem'
import { createNode, DEFAULT_NODE_SETTINGS } from '../node/create-node.ts'
import { hexToBytes, bytesToHex } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import { ERC20_ABI, deployedCode, genesisAllocFor } from '../../test/fixtures/erc20/index.ts'
import { testGenesis, ACCOUNTS } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { Rng } from '../../test/support/rng.ts'
import { jumpAnalysis, jumpAnalysisScans } from './jump-analysis-cache.ts'

/** Code with PUSH1..PUSH32 (some cut off by the end), JUMPDESTs inside and outside push data, and noise. */
function randomCode(rng: Rng, length: number): Uint8Array {
  const code = rng.bytes(length)
  for (let i = 0; i < length; i += 1 + rng.int(6)) code[i] = rng.int(3) === 0 ? 0x5b : 0x60 + rng.int(32)
  return code
}

function assertSameAnalysis(code: Uint8Array, evm: Awaited<ReturnType<typeof createEVM>>, label: string): void {
  const cached = jumpAnalysis(evm, code, true)
  const library = jumpAnalysis(evm, code, false)
  assert.deepEqual(cached.jumps, library.jumps, `${label}: JUMPDEST bitmap`)
  assert.deepEqual(cached.pushes, library.pushes, `${label}: PUSH values`)
  assert.equal(cached.opcodesCached.length, library.opcodesCached.length, `${label}: opcode entries`)
  for (let i = 0; i < code.length; i++) assert.equal(cached.opcodesCached[i], library.opcodesCached[i], `${label}: opcode entry at ${i}`)
}

test('the cached jump analysis equals the library scan for each code and each EVM (fork), and is made once per pair', async () => {
  const rng = new Rng(11)
  const evms = [
    await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) }),
    await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Berlin }) }),
  ]
  const codes = [hexToBytes(deployedCode), ...Array.from({ length: 20 }, (_, i) => randomCode(rng, 1 + i * 97))]
  codes.push(Uint8Array.from(codes[5]!).reverse()) // the same length as another, other bytes
  for (const [e, evm] of evms.entries()) {
    for (const [c, code] of codes.entries()) {
      const before = jumpAnalysisScans()
      assertSameAnalysis(code, evm, `EVM ${e}, code ${c}`)
      assert.equal(jumpAnalysisScans(), before + 1, `EVM ${e}, code ${c}: one scan the first time`)
      jumpAnalysis(evm, Uint8Array.from(code), true)
      assert.equal(jumpAnalysisScans(), before + 1, `EVM ${e}, code ${c}: a copy of the same code is not scanned again`)
    }
  }
})

test('eth_call into a contract scans its code once, then reuses the analysis across calls', async (t) => {
  const token = getAddress('0x00000000000000000000000000000000000e20c0')
  const holders = ACCOUNTS.map((a, i) => ({ address: a.address as Hex, balance: 1000n * BigInt(i + 1) }))
  const genesis = testGenesis()
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    callCacheEntries: 0,
    dataDir: tempDir(t),
    genesis: { ...genesis, alloc: { ...genesis.alloc, ...genesisAllocFor(token, holders) } },
  })
  t.after(() => node.close())
  const balanceOf = async (holder: Hex): Promise<bigint> => {
    const data = encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [holder] })
    const out = await node.api.call({ to: hexToBytes(token), data: hexToBytes(data) }, LATEST)
    return decodeFunctionResult({ abi: ERC20_ABI, functionName: 'balanceOf', data: bytesToHex(out) as Hex }) as bigint
  }
  const before = jumpAnalysisScans()
  assert.equal(await balanceOf(holders[0]!.address), 1000n)
  const afterFirst = jumpAnalysisScans()
  assert.ok(afterFirst > before, 'the first call scans the code (through the cache)')
  for (const [i, h] of holders.entries()) assert.equal(await balanceOf(h.address), 1000n * BigInt(i + 1))
  assert.equal(jumpAnalysisScans(), afterFirst, 'later calls into the same code reuse its analysis')
})
