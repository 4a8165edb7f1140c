/**
 * foundry's forge 1.7.1 (the npm package @foundry-rs/forge, its platform binary run with execFile and a
 * timeout), unmodified, against a real node: a project deployed with `forge script --broadcast` (forge's
 * default batch of sends, nonces counted by forge), and a test suite run with `forge test --fork-url` at
 * latest and at a block number. forge cannot fork the open (pre-confirmed) block: it pins a fork to a block
 * it fetches by number, which the open block has not until it is sealed; the test holds what forge says then.
 *
 * forge compiles with the tests' solc-js through test/support/solc-shim.mjs (`--use`), offline: nothing is
 * downloaded. The project needs no forge-std: the script and the tests reach forge's cheatcodes through a
 * small interface at their fixed address.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, parseAbi, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS } from '../../support/dev-chain.ts'
import { REPO_ROOT } from '../../support/node-process.ts'
import { foundryTool } from '../../support/foundry.ts'
import { liveNode, steppedNode, type ClientNode } from '../../support/clients.ts'
import { tempDir } from '../../support/temp-dir.ts'
import { VIEM_DEV_CHAIN } from '../../support/viem-chain.ts'

const FORGE = foundryTool('forge')
const SOLC_SHIM = join(REPO_ROOT, 'test', 'support', 'solc-shim.mjs')
const FORGE_TIMEOUT_MS = 120_000

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

function forge(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(FORGE, args, { cwd, timeout: FORGE_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1', ...env } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() })
    })
  })
}

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public number;
    function increment() public { number++; }
}
`

const CHEATS = `interface Vm {
    function startBroadcast() external;
    function stopBroadcast() external;
    function envAddress(string calldata) external view returns (address);
    function envUint(string calldata) external view returns (uint256);
}
`

const SCRIPT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import {Counter} from "../src/Counter.sol";
${CHEATS}
contract Deploy {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function run() external {
        vm.startBroadcast();
        Counter counter = new Counter();
        counter.increment();
        counter.increment();
        vm.stopBroadcast();
    }
}
`

const FORK_TEST = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import {Counter} from "../src/Counter.sol";
${CHEATS}
contract CounterForkTest {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function test_numberIsWhatTheChainHolds() public view {
        require(Counter(vm.envAddress("COUNTER")).number() == vm.envUint("WANT"), "number differs");
    }
    function test_incrementOnTheFork() public {
        Counter counter = Counter(vm.envAddress("COUNTER"));
        counter.increment();
        require(counter.number() == vm.envUint("WANT") + 1, "increment on the fork");
    }
}
`

/** A forge project with the counter, the deploy script and the fork tests, built once. */
async function project(t: TestContext): Promise<string> {
  const dir = tempDir(t, 'flashnode-forge-')
  for (const folder of ['src', 'script', 'test']) mkdirSync(join(dir, folder))
  writeFileSync(join(dir, 'foundry.toml'), '[profile.default]\nsrc = "src"\nout = "out"\nlibs = []\noffline = true\n')
  writeFileSync(join(dir, 'src', 'Counter.sol'), COUNTER)
  writeFileSync(join(dir, 'script', 'Deploy.s.sol'), SCRIPT)
  writeFileSync(join(dir, 'test', 'CounterFork.t.sol'), FORK_TEST)
  const built = await forge(dir, ['build', '--use', SOLC_SHIM])
  assert.equal(built.code, 0, `forge build: ${built.stderr || built.stdout}`)
  return dir
}

const counterAbi = parseAbi(['function number() view returns (uint256)', 'function increment()'])

function client(node: ClientNode) {
  return createPublicClient({ transport: http(node.url) })
}

interface Broadcast {
  transactions: { transactionType: string; contractAddress: string | null; hash: string }[]
  receipts: { status: string; transactionHash: string }[]
}

test('forge script --broadcast deploys and calls a contract through Flashnode', { skip: !existsSync(FORGE) && `no forge binary at ${FORGE}` }, async (t) => {
  const dir = await project(t)
  const node = await liveNode(t)
  const { privateKey, address } = ACCOUNTS[0]!
  const run = await forge(dir, ['script', 'script/Deploy.s.sol:Deploy', '--rpc-url', node.url, '--broadcast', '--private-key', privateKey, '--use', SOLC_SHIM])
  assert.equal(run.code, 0, `forge script: ${run.stderr || run.stdout}`)
  const chainId = (await client(node).getChainId()).toString()
  const broadcast = JSON.parse(readFileSync(join(dir, 'broadcast', 'Deploy.s.sol', chainId, 'run-latest.json'), 'utf8')) as Broadcast
  assert.deepEqual(broadcast.transactions.map((tx) => tx.transactionType), ['CREATE', 'CALL', 'CALL'])
  assert.deepEqual(broadcast.receipts.map((r) => BigInt(r.status)), [1n, 1n, 1n])
  const counter = broadcast.transactions[0]!.contractAddress as Address
  // The script's effects, read back at pending by another client.
  assert.equal(await client(node).readContract({ address: counter, abi: counterAbi, functionName: 'number', blockTag: 'pending' }), 2n)
  assert.equal(await client(node).getTransactionCount({ address: address as Address, blockTag: 'pending' }), 3)
})

test('forge test --fork-url runs a suite against Flashnode at latest, and at the open block once it is sealed', { skip: !existsSync(FORGE) && `no forge binary at ${FORGE}` }, async (t) => {
  const dir = await project(t)
  const node = await steppedNode(t)
  const account = privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex)
  const wallet = createWalletClient({ account, chain: VIEM_DEV_CHAIN, transport: http(node.url) })
  const artifact = JSON.parse(readFileSync(join(dir, 'out', 'Counter.sol', 'Counter.json'), 'utf8')) as { bytecode: { object: Hex } }
  // The counter deployed, incremented once and sealed (latest: 1), then incremented twice more and only
  // pre-confirmed (pending: 3).
  const deployHash = await wallet.deployContract({ abi: counterAbi, bytecode: artifact.bytecode.object })
  const increment = () => wallet.writeContract({ address: counter, abi: counterAbi, functionName: 'increment' })
  await node.step()
  const counter = (await client(node).getTransactionReceipt({ hash: deployHash })).contractAddress!
  await increment()
  await node.seal()
  await increment()
  await increment()
  await node.step()
  const latest = await client(node).getBlockNumber()
  assert.equal(await client(node).readContract({ address: counter, abi: counterAbi, functionName: 'number' }), 1n)
  assert.equal(await client(node).readContract({ address: counter, abi: counterAbi, functionName: 'number', blockTag: 'pending' }), 3n)

  const suite = (want: bigint, ...fork: string[]) =>
    forge(dir, ['test', '--fork-url', node.url, ...fork, '--use', SOLC_SHIM], { COUNTER: counter, WANT: want.toString() })
  const atLatest = await suite(1n)
  assert.equal(atLatest.code, 0, `forge test at latest: ${atLatest.stdout}\n${atLatest.stderr}`)
  assert.match(atLatest.stdout, /2 passed; 0 failed/)
  // The suite can fail: at latest the counter is not yet 3.
  const wrong = await suite(3n)
  assert.notEqual(wrong.code, 0)
  assert.match(wrong.stdout, /number differs/)
  // The open block by its number (latest + 1): forge pins a fork to a block it can fetch by number and no
  // newer than eth_blockNumber; the open block has no number-addressable header until it is sealed (null, as
  // geth answers for a block not yet sealed), so forge refuses it, naming both numbers (README: forge).
  const atOpen = await suite(3n, '--fork-block-number', (latest + 1n).toString())
  assert.notEqual(atOpen.code, 0)
  assert.match(`${atOpen.stdout}\n${atOpen.stderr}`, new RegExp(`failed to get block number: ${latest + 1n}; latest block number: ${latest}`))
  // Once sealed, the same block number forks what was pre-confirmed.
  await node.seal()
  const atSealed = await suite(3n, '--fork-block-number', (latest + 1n).toString())
  assert.equal(atSealed.code, 0, `forge test at block ${latest + 1n}: ${atSealed.stdout}\n${atSealed.stderr}`)
  assert.match(atSealed.stdout, /2 passed; 0 failed/)
  // Nothing a fork did reached the chain.
  assert.equal(await client(node).readContract({ address: counter, abi: counterAbi, functionName: 'number', blockTag: 'pending' }), 3n)
})
