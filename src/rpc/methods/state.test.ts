import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { stateMethods } from './state.ts'

interface Case {
  readonly method: string
  readonly params: unknown[]
  readonly result?: unknown
  readonly error?: { code: number; message: string }
}

function recorded(dir: string, name: string): Case {
  const lines = readFileSync(new URL(`../../../../shared/rpc-compat/tests/${dir}/${name}`, import.meta.url), 'utf8').split('\n')
  const req = JSON.parse(lines.find((l) => l.startsWith('>>'))!.slice(3)) as { method: string; params: unknown[] }
  const res = JSON.parse(lines.find((l) => l.startsWith('<<'))!.slice(3)) as { result?: unknown; error?: Case['error'] }
  return { method: req.method, params: req.params, result: res.result, error: res.error }
}

const ADDR = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df'

for (const [dir, name] of [
  ['eth_getStorageAt', 'get-storage-default-block.io'],
  ['eth_getCode', 'get-code-default-block.io'],
  ['eth_getTransactionCount', 'get-nonce-default-block.io'],
] as const) {
  test(`${name}: an omitted block parameter reaches the node as latest`, async () => {
    const c = recorded(dir, name)
    const { node, calls } = fakeNode()
    await invoke(stateMethods(node), c.method, c.params)
    assert.equal(calls.length, 1)
    assert.deepEqual(calls[0]!.args.at(-1), { kind: 'tag', tag: 'latest' })
    assert.equal(bytesToHex(calls[0]!.args[0] as Uint8Array), c.params[0])
  })
}

test('get-storage.io: the slot reaches the node as 32 bytes and the value comes back as 32-byte hex', async () => {
  const c = recorded('eth_getStorageAt', 'get-storage.io')
  const { node, calls } = fakeNode()
  assert.equal(await invoke(stateMethods(node), c.method, c.params), c.result)
  assert.equal(bytesToHex(calls[0]!.args[1] as Uint8Array), `0x${'00'.repeat(32)}`)
})

for (const name of ['get-storage-invalid-key-too-large.io', 'get-storage-invalid-key.io']) {
  test(`${name}: error message exactly as recorded, node not called`, async () => {
    const c = recorded('eth_getStorageAt', name)
    const { node, calls } = fakeNode()
    await assert.rejects(
      invoke(stateMethods(node), c.method, c.params),
      (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message === c.error!.message,
    )
    assert.equal(calls.length, 0)
  })
}

test('a bad block argument is reported before the storage key, as geth decodes arguments first', async () => {
  const { node } = fakeNode()
  await assert.rejects(
    invoke(stateMethods(node), 'eth_getStorageAt', [ADDR, '0xasdf', 'newest']),
    (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message.startsWith('invalid argument 2: hex string without 0x prefix ('),
  )
})

test('block forms reach the node as BlockIds; results are encoded', async () => {
  const { node, calls } = fakeNode()
  const m = stateMethods(node)
  const hash = `0x${'ab'.repeat(32)}`
  assert.equal(await invoke(m, 'eth_getBalance', [ADDR, 'pending']), '0x10')
  assert.equal(await invoke(m, 'eth_getTransactionCount', [ADDR, '0x5']), '0x1')
  assert.equal(await invoke(m, 'eth_getCode', [ADDR, { blockHash: hash, requireCanonical: true }]), '0x6001')
  assert.equal(await invoke(m, 'eth_getBalance', [ADDR, null]), '0x10')
  assert.deepEqual(calls[0]!.args[1], { kind: 'tag', tag: 'pending' })
  assert.deepEqual(calls[1]!.args[1], { kind: 'number', number: 5n })
  const byHash = calls[2]!.args[1] as { kind: string; hash: Uint8Array; requireCanonical: boolean }
  assert.equal(byHash.kind, 'hash')
  assert.equal(bytesToHex(byHash.hash), hash)
  assert.equal(byHash.requireCanonical, true)
  assert.deepEqual(calls[3]!.args[1], { kind: 'tag', tag: 'latest' })
})

test('argument errors: bad address, too many, missing', async () => {
  const m = stateMethods(fakeNode().node)
  const rejects = (params: unknown[], message: string) =>
    assert.rejects(invoke(m, 'eth_getBalance', params), (e: unknown) => e instanceof FlashnodeError && e.message === message)
  await rejects(['0x12'], 'invalid argument 0: hex string has length 2, want 40 for common.Address')
  await rejects([ADDR, 'latest', 1], 'too many arguments, want at most 2')
  await rejects([], 'missing value for required argument 0')
})
