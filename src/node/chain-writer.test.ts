import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { RLP } from '@ethereumjs/rlp'
import { createNode, DEFAULT_NODE_SETTINGS } from './create-node.ts'
import { splitRlpStream } from '../execution/block-codec.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import type { GethGenesis } from '../execution/chain-config.ts'
import { readRpcCompatChain, readRpcCompatGenesis, rpcCompatHeadHash } from '../../test/support/shared.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LmdbStore } from '../storage/db.ts'
import { ChainStore } from '../chain/chain-store.ts'
import { ChainRules } from '../execution/chain-config.ts'
import { ChainWriter } from './chain-writer.ts'
import { keys } from '../storage/keys.ts'

const genesis = readRpcCompatGenesis() as unknown as GethGenesis
const blocks = [...splitRlpStream(readRpcCompatChain())]

const open = (dataDir: string) => createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis })

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

test('the genesis we build is the parent of the chain file\'s first block', async (t) => {
  const node = await open(tempDir(t))
  t.after(() => node.close())
  const first = RLP.decode(blocks[0]!) as unknown as Uint8Array[][]
  const parentHash = first[0]![0]!
  const ours = await node.api.getBlock({ kind: 'number', number: 0n })
  assert.equal(bytesToHex(ours!.header.hash), bytesToHex(parentHash))
})

test('imports the whole chain, checking every block, and ends at the expected head', async (t) => {
  const node = await open(tempDir(t))
  t.after(() => node.close())
  const seen: bigint[] = []
  const result = await node.writer.importRlp(concat(blocks), (p) => seen.push(p.head))
  assert.equal(result.imported, blocks.length)
  assert.deepEqual(seen, blocks.map((_, i) => BigInt(i + 1)), 'progress reported per block')
  const head = await node.api.getBlock(LATEST)
  assert.equal(bytesToHex(head!.header.hash), rpcCompatHeadHash())
  for (const tag of ['safe', 'finalized'] as const) {
    const b = await node.api.getBlock({ kind: 'tag', tag })
    assert.equal(b!.header.number, head!.header.number, `${tag} follows the imported head`)
  }
})

test('a block with a wrong state root stops the import at the last good block, named in the error', async (t) => {
  const dir = tempDir(t)
  const node = await open(dir)
  const bad = 10
  const fields = RLP.decode(blocks[bad]!) as unknown as Uint8Array[][]
  const header = [...fields[0]!]
  header[3] = new Uint8Array(32).fill(0x42)
  const tampered = RLP.encode([header, ...fields.slice(1)] as never)
  await assert.rejects(node.writer.importRlp(concat([...blocks.slice(0, bad), tampered])), (e: Error) => {
    assert.match(e.message, new RegExp(`block ${bad + 1}\\b`))
    assert.match(e.message, /state ?root/i)
    return true
  })
  assert.equal(node.api.blockNumber(), BigInt(bad))
  await node.close()

  const reopened = await open(dir)
  t.after(() => reopened.close())
  assert.equal(reopened.api.blockNumber(), BigInt(bad), 'the last good block survives a restart')
  const resumed = await reopened.writer.importRlp(concat(blocks))
  assert.equal(resumed.skipped, bad, 'known blocks are skipped')
  assert.equal(reopened.api.blockNumber(), BigInt(blocks.length))
})

test('a different genesis for a data directory that holds a chain is refused', async (t) => {
  const dir = tempDir(t)
  const node = await open(dir)
  await node.close()
  const other = { ...genesis, extraData: '0x01' } as GethGenesis
  await assert.rejects(createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: dir, genesis: other }), /another chain/)
})

/** A directory that holds a chain (made by a node, then closed), and its block 0's hash. */
async function madeChain(t: TestContext): Promise<{ dir: string; hash: string }> {
  const dir = tempDir(t)
  const node = await open(dir)
  const hash = bytesToHex((await node.api.getBlock({ kind: 'number', number: 0n }))!.header.hash)
  await node.close()
  return { dir, hash }
}

test('a restart reads genesis from the database instead of building its state again', async (t) => {
  const { dir, hash } = await madeChain(t)
  const kv = new LmdbStore(dir)
  t.after(() => kv.close())
  const store = new ChainStore(kv, { soleWriter: true })
  const writer = new ChainWriter(kv, store, new ChainRules(JSON.parse(store.getMeta('genesis')!) as GethGenesis))
  const refuse = async (): Promise<never> => {
    throw new Error('genesis built again')
  }
  assert.equal(bytesToHex(await writer.initGenesis(refuse)), hash)
})

test('a directory from before the genesis was stored without its accounts opens and is upgraded', async (t) => {
  const { dir, hash } = await madeChain(t)
  const kv = new LmdbStore(dir)
  const store = new ChainStore(kv)
  const runtime = store.getMeta('genesis-rules')
  assert.deepEqual(JSON.parse(runtime!), { ...genesis, alloc: {} }, 'stored beside the whole genesis, without its accounts')
  const batch = kv.batch()
  batch.del(keys.meta('x:genesis-rules')) // as an older version left it
  kv.commit(batch)
  await kv.close()
  const again = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: dir }) // no genesis given: the stored one
  assert.equal(bytesToHex((await again.api.getBlock({ kind: 'number', number: 0n }))!.header.hash), hash)
  await again.close()
  const reopened = new LmdbStore(dir)
  t.after(() => reopened.close())
  assert.equal(new ChainStore(reopened).getMeta('genesis-rules'), runtime)
})
