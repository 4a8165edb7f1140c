/**
 * foundry's cast 1.7.1 (the npm package @foundry-rs/cast, its platform binary run with execFile and a
 * timeout), unmodified, against a real node: what its users do every day.
 *
 * cast takes its nonce at `latest` (README: "Pre-confirmations and your client"): two sends in a row must
 * pass `--nonce $(cast nonce <address> --block pending)` on an endpoint with pre-confirmations, as every
 * send here does.
 *
 * - on the real clock: deploy with `cast send --create` waiting for its receipt, a call into it right after
 *   (cast estimates without naming a block), a second send right after, reads at `pending`;
 * - stepped: a receipt, transaction and block observed pre-confirmed, then sealed;
 * - each kind of revert from `cast call` under the contract's -32000 (the data, decoded with `cast
 *   decode-error`) and geth's 3 (the reason in the message, as cast prints it);
 * - `cast estimate` (a plain transfer is 21000) and `cast access-list`, used by a send at exactly its gas;
 * - `cast logs --subscribe` over WebSocket;
 * - on an endpoint without pre-confirmations, cast's own habits (no --nonce, reads at latest) work as is;
 * - `cast run <hash>` (a sealed transaction replayed on a fork of the node's state) and `cast call --trace`.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { ACCOUNTS } from '../../support/dev-chain.ts'
import { foundryTool } from '../../support/foundry.ts'
import { liveNode, probeArtifact, RECEIVER, steppedNode, trackListeners, ZERO_HASH, type ClientNode } from '../../support/clients.ts'

const CAST = foundryTool('cast')
const CAST_TIMEOUT_MS = 60_000

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

function cast(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(CAST, args, { timeout: CAST_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() })
    })
  })
}

async function ok(args: string[]): Promise<string> {
  const run = await cast(args)
  assert.equal(run.code, 0, `cast ${args.join(' ')}: ${run.stderr}`)
  return run.stdout
}

const json = async <T>(args: string[]): Promise<T> => JSON.parse(await ok([...args, '--json'])) as T

interface Receipt {
  status: string
  blockHash: string
  blockNumber: string
  contractAddress: string | null
  gasUsed: string
  transactionHash: string
  logs: { blockHash: string }[]
}

/** A sender with cast: every send names the pending nonce, as the README tells cast users to. */
function sender(node: ClientNode, key: number) {
  const { address, privateKey } = ACCOUNTS[key]!
  const rpc = ['--rpc-url', node.url]
  const nonce = () => ok(['nonce', address, '--block', 'pending', ...rpc])
  const send = async (args: string[], wait: boolean): Promise<string> =>
    ok(['send', '--private-key', privateKey, '--nonce', await nonce(), ...(wait ? ['--json', '--timeout', '30'] : ['--async']), ...rpc, ...args])
  return {
    address,
    rpc,
    /** Sends and waits for the receipt, as `cast send` does. */
    sendAndWait: async (args: string[]): Promise<Receipt> => JSON.parse(await send(args, true)) as Receipt,
    /** Sends and answers the hash without waiting (`--async`). */
    sendAsync: (args: string[]): Promise<string> => send(args, false),
  }
}

async function creation(): Promise<string> {
  const args = await ok(['abi-encode', 'constructor(uint256)', '5'])
  return probeArtifact().bytecode + args.slice(2)
}

test('cast on the real clock: deploy, call right after, a second send right after, reads at pending', async (t) => {
  const node = await liveNode(t)
  const s = sender(node, 0)
  const deployed = await s.sendAndWait(['--create', await creation()])
  assert.equal(deployed.status, '0x1')
  const address = deployed.contractAddress!
  assert.equal(await ok(['code', address, '--block', 'pending', ...s.rpc]), probeArtifact().deployedBytecode)
  for (let i = 0; i < 2; i++) {
    const r = await s.sendAndWait([address, 'increment()'])
    assert.equal(r.status, '0x1', 'estimated against the pre-confirmed contract, with the pending nonce')
    assert.equal(r.logs.length, 1)
  }
  assert.equal(await ok(['call', address, 'counter()(uint256)', '--block', 'pending', ...s.rpc]), '7')
})

test('cast: a receipt, transaction and block observed pre-confirmed, then sealed', async (t) => {
  const node = await steppedNode(t)
  const s = sender(node, 1)
  const hash = await s.sendAsync([RECEIVER, '--value', '1'])
  const latest = BigInt(await ok(['block-number', ...s.rpc]))
  await node.step()
  const receipt = await json<Receipt>(['receipt', hash, ...s.rpc])
  assert.deepEqual([receipt.status, receipt.blockHash, BigInt(receipt.blockNumber)], ['0x1', ZERO_HASH, latest + 1n])
  const tx = await json<{ blockHash: string; blockNumber: string; transactionIndex: string }>(['tx', hash, ...s.rpc])
  assert.deepEqual([tx.blockHash, BigInt(tx.blockNumber), tx.transactionIndex], [ZERO_HASH, latest + 1n, '0x0'])
  const block = await json<{ number: string; transactions: string[] }>(['block', 'pending', ...s.rpc])
  assert.deepEqual([BigInt(block.number), block.transactions], [latest + 1n, [hash]])
  const receipts = JSON.parse(await ok(['rpc', 'eth_getBlockReceipts', 'pending', ...s.rpc])) as Receipt[]
  assert.deepEqual(receipts.map((r) => [r.transactionHash, r.blockHash]), [[hash, ZERO_HASH]])

  await node.seal()
  const sealed = await json<Receipt>(['receipt', hash, ...s.rpc])
  const sealedBlock = await json<{ hash: string }>(['block', String(latest + 1n), ...s.rpc])
  assert.equal(sealed.blockHash, sealedBlock.hash)
  assert.notEqual(sealed.blockHash, ZERO_HASH)
})

async function steppedProbe(t: TestContext, key: number, revertCode = -32000) {
  const node = await steppedNode(t, revertCode)
  const s = sender(node, key)
  const hash = await s.sendAsync(['--create', await creation()])
  await node.step()
  const address = (await json<Receipt>(['receipt', hash, ...s.rpc])).contractAddress!
  return { node, s, address }
}

for (const revertCode of [-32000, 3]) {
  test(`cast call: each revert kind with revert code ${revertCode}, decoded with cast decode-error`, async (t) => {
    const { s, address } = await steppedProbe(t, 2, revertCode)
    const reverted = async (sig: string, ...args: string[]) => {
      const run = await cast(['call', address, sig, ...args, '--block', 'pending', '--from', s.address, ...s.rpc])
      assert.notEqual(run.code, 0, `${sig} reverted`)
      const data = /data: "(0x[0-9a-f]*)"/.exec(run.stderr)?.[1]
      assert.ok(data !== undefined, `the revert data is shown: ${run.stderr}`)
      return { message: run.stderr, data }
    }
    const decode = (sig: string, data: string) => ok(['decode-error', '--sig', sig, data])

    const reason = await reverted('failWithReason()')
    assert.equal(await decode('Error(string)', reason.data), '"probe: refused"')
    const panic = await reverted('failWithPanic(uint256)', '0')
    assert.equal(await decode('Panic(uint256)', panic.data), '18')
    const custom = await reverted('failWithCustom()')
    assert.equal((await decode('Unauthorized(address,uint256)', custom.data)).toLowerCase(), `${s.address.toLowerCase()}\n42`)
    if (revertCode === 3) {
      assert.match(reason.message, /error code 3: execution reverted: probe: refused, data:/)
      assert.match(panic.message, /error code 3: execution reverted: division or modulo by zero, data:/)
      assert.match(custom.message, /error code 3: execution reverted, data:/)
    } else {
      for (const r of [reason, panic, custom]) assert.match(r.message, /error code -32000: execution reverted, data:/)
    }
  })
}

test('cast estimate and cast access-list; a send with that list uses exactly the gas it reported', async (t) => {
  const { node, s, address } = await steppedProbe(t, 3)
  assert.equal(await ok(['estimate', RECEIVER, '--value', '1', '--from', s.address, ...s.rpc]), '21000')
  // Into the pre-confirmed contract. `cast estimate` asks at latest unless told (--block pending, as the README
  // says); `cast send` estimates without naming a block, which is pending here, and must not run out of gas.
  const estimate = BigInt(await ok(['estimate', address, 'increment()', '--from', s.address, '--block', 'pending', ...s.rpc]))
  const plain = await s.sendAsync([address, 'increment()'])
  await node.step()
  const plainReceipt = await json<Receipt>(['receipt', plain, ...s.rpc])
  assert.equal(plainReceipt.status, '0x1')
  assert.ok(estimate >= BigInt(plainReceipt.gasUsed), `estimate ${estimate} covers ${BigInt(plainReceipt.gasUsed)}`)
  const listed = await json<{ accessList: { address: string; storageKeys: string[] }[]; gasUsed: string }>([
    'access-list', address, 'increment()', '--from', s.address, '--block', 'pending', ...s.rpc,
  ])
  assert.deepEqual(listed.accessList, [{ address: address.toLowerCase(), storageKeys: [ZERO_HASH] }])
  const hash = await s.sendAsync([address, 'increment()', '--access-list', JSON.stringify(listed.accessList)])
  await node.step()
  const receipt = await json<Receipt>(['receipt', hash, ...s.rpc])
  assert.equal(receipt.status, '0x1')
  assert.equal(BigInt(receipt.gasUsed), BigInt(listed.gasUsed))
})

test('cast logs --subscribe over WebSocket delivers the contract\'s log once sealed', async (t) => {
  const { node, s, address } = await steppedProbe(t, 0)
  // cast prints nothing until a log comes: the test knows it has subscribed through the node's listeners.
  const listeners = trackListeners(node)
  // Text output: cast writes it line by line (its --json stream is not flushed until it exits).
  const child = spawn(CAST, ['logs', '--subscribe', '--address', address, '--rpc-url', node.ws], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => child.kill('SIGKILL'))
  let out = ''
  child.stdout.on('data', (d) => (out += String(d)))
  let err = ''
  child.stderr.on('data', (d) => (err += String(d)))
  const timer = setTimeout(() => child.kill('SIGKILL'), CAST_TIMEOUT_MS)
  t.after(() => clearTimeout(timer))
  await listeners.until('cast\'s logs subscription', () => listeners.open.size === 1)

  const hash = await s.sendAsync([address, 'increment()'])
  await node.step()
  await node.seal()
  const sealed = await json<Receipt>(['receipt', hash, ...s.rpc])
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes(hash)) resolve()
    }
    child.stdout.on('data', check)
    child.once('exit', () => (out.includes(hash) ? resolve() : reject(new Error(`cast logs ended without the log: ${out} ${err}`))))
    check()
  })
  const field = (name: string) => new RegExp(`${name}: (0x[0-9a-f]+)`).exec(out)?.[1]
  assert.deepEqual([field('transactionHash'), field('blockHash')], [hash, sealed.blockHash])
})

test('cast on an endpoint without pre-confirmations: its own habits (nonce and code at latest) just work', async (t) => {
  const node = await liveNode(t, -32000, false)
  const { privateKey, address: from } = ACCOUNTS[3]!
  const rpc = ['--rpc-url', node.url]
  // No --nonce and no --block anywhere: cast takes the nonce at latest and reads at latest.
  const send = async (args: string[]) => JSON.parse(await ok(['send', '--private-key', privateKey, '--json', '--timeout', '30', ...rpc, ...args])) as Receipt
  const deployed = await send(['--create', await creation()])
  assert.equal(deployed.status, '0x1')
  const address = deployed.contractAddress!
  assert.equal(await ok(['code', address, ...rpc]), probeArtifact().deployedBytecode, 'the receipt came with the sealed block')
  assert.equal(deployed.blockHash, await ok(['block', deployed.blockNumber, '--field', 'hash', ...rpc]))
  for (let i = 0; i < 2; i++) {
    const r = await send([address, 'increment()'])
    assert.equal(r.status, '0x1', 'a second send right after the first, nonce taken at latest')
    assert.notEqual(r.blockHash, ZERO_HASH)
  }
  assert.equal(await ok(['nonce', from, ...rpc]), await ok(['nonce', from, '--block', 'pending', ...rpc]))
  assert.equal(await ok(['call', address, 'counter()(uint256)', ...rpc]), '7')
  assert.equal(await ok(['call', address, 'counter()(uint256)', '--block', 'pending', ...rpc]), '7')
})

test('cast run <hash> replays a sealed transaction from the node\'s state, and cast call --trace traces a call', async (t) => {
  const { node, s, address } = await steppedProbe(t, 1)
  const hash = await s.sendAsync([address, 'increment()'])
  await node.seal()
  const receipt = await json<Receipt & { logs: { topics: string[] }[] }>(['receipt', hash, ...s.rpc])
  // cast replays the block up to the transaction on a fork of the node's state at the parent block.
  const replayed = await ok(['run', hash, ...s.rpc])
  assert.match(replayed, new RegExp(`Gas used: ${BigInt(receipt.gasUsed)}`), `cast run's gas is the receipt's: ${replayed}`)
  // cast names the function it knows the selector of, and shows the event the receipt holds
  assert.match(replayed, new RegExp(`${address}::increment\\(\\)`, 'i'), 'the call is traced')
  assert.match(replayed, new RegExp(`topic 0: ${receipt.logs[0]!.topics[0]}`), 'with the event its receipt holds')
  // A call traced at pending (the counter as pre-confirmed) ...
  const traced = await ok(['call', address, 'counter()(uint256)', '--trace', '--block', 'pending', ...s.rpc])
  const counter = BigInt(await ok(['call', address, 'counter()(uint256)', '--block', 'pending', ...s.rpc]))
  assert.match(traced, /counter\(\)|61bc221a/)
  assert.match(traced, new RegExp(`\\[Return\\] 0x${counter.toString(16).padStart(64, '0')}`), 'the traced call returns the counter')
  // ... and a revert shown as one.
  const reverted = await cast(['call', address, 'failWithReason()', '--trace', '--from', s.address, ...s.rpc])
  assert.match(`${reverted.stdout}\n${reverted.stderr}`, /Revert|probe: refused/)
})
