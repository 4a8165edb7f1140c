/**
 * The layer order of docs/architecture.md, held: every module under src/ imports only from its own folder
 * or from a folder of a lower layer, never upwards and never sideways (two folders of one layer stay
 * independent). The imports are read from the source text (static `import`/`export … from`, `import '…'`,
 * dynamic `import('…')`); only relative paths between src/ folders count. Every src/ folder must have a place
 * in the table, so a new folder is placed on purpose. Tests, test kits and benchmarks may import anything
 * (a test builds a whole node), but no module may import them. The database package is imported by
 * storage/ alone.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Top to bottom; a layer may import from the layers below it. docs/architecture.md says what each owns. */
export const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  ['rpc', 'ui'],
  ['node'],
  ['follower', 'format'],
  ['sequencer', 'simulate', 'stream'],
  ['preconf', 'txpool'],
  ['execution'],
  ['evm', 'opstack'],
  ['state'],
  ['chain'],
  ['storage'],
  ['primitives', 'errors'],
]

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')

/** Test and benchmark code inside src/: free to import anything, importable by tests only. */
const isTestCode = (path: string): boolean => /\.(test|bench)\.ts$/.test(path) || /(^|\/)(test-kit|fake-node)\.ts$/.test(path)

/** The module specifiers a source text imports. */
export function importsOf(source: string): string[] {
  const out: string[] = []
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g]
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]!)
  return out
}

/** The src/ folder of a path relative to src/ ('' for a file at the top). */
const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '')

function rankOf(folder: string): number | undefined {
  const i = LAYERS.findIndex((layer) => layer.includes(folder))
  return i === -1 ? undefined : i
}

/** Why `from` (a path relative to src/) may not import `to`, or undefined when it may. */
export function violation(from: string, to: string): string | undefined {
  if (!isTestCode(from) && isTestCode(to)) return 'a module imports test code'
  if (isTestCode(from)) return undefined
  const a = folderOf(from)
  const b = folderOf(to)
  if (a === b) return undefined
  const ra = rankOf(a)
  const rb = rankOf(b)
  if (ra === undefined || rb === undefined) return `folder ${ra === undefined ? a : b}/ has no layer`
  if (ra === rb) return `${a}/ and ${b}/ are one layer: they stay independent`
  if (ra > rb) return `${a}/ is below ${b}/`
  return undefined
}

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (/\.(ts|mjs)$/.test(name)) out.push(path)
  }
  return out
}

const toSrc = (path: string): string => relative(SRC, path).split(sep).join('/')

test('every src/ folder has a layer', () => {
  const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory())
  assert.deepEqual(folders.filter((f) => rankOf(f) === undefined), [])
  assert.ok(folders.length >= 12, `found ${folders.length} folders under ${SRC}`)
})

test('no module imports against the layer order', () => {
  const problems: string[] = []
  let edges = 0
  for (const file of sourceFiles(SRC)) {
    const from = toSrc(file)
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue
      const target = resolve(dirname(file), spec)
      if (!target.startsWith(SRC + sep)) {
        if (!isTestCode(from)) problems.push(`${from} imports ${spec}, outside src/`)
        continue
      }
      edges++
      const why = violation(from, toSrc(target))
      if (why !== undefined) problems.push(`${from} imports ${toSrc(target)}: ${why}`)
    }
  }
  assert.ok(edges > 500, `read ${edges} imports between src/ files`)
  assert.deepEqual(problems, [])
})

test('the database package is imported by storage/ alone', () => {
  const importers = sourceFiles(SRC).filter((file) => importsOf(readFileSync(file, 'utf8')).includes('lmdb'))
  assert.deepEqual(importers.map(toSrc), ['storage/db.ts'])
})

test('the rule itself: upward, sideways and test imports are refused; downward and within a folder pass', () => {
  assert.deepEqual(
    importsOf(`import { a } from './a.ts'\nimport type { B } from "../b/b.ts"\nexport { c } from '../c.ts'\nimport './d.ts'\nawait import('../e.ts')`),
    ['./a.ts', '../b/b.ts', '../c.ts', './d.ts', '../e.ts'],
  )
  assert.equal(violation('node/x.ts', 'sequencer/y.ts'), undefined)
  assert.equal(violation('node/x.ts', 'node/execution/y.ts'), undefined)
  assert.equal(violation('execution/x.ts', 'node/api.ts'), 'execution/ is below node/')
  assert.equal(violation('sequencer/x.ts', 'simulate/y.ts'), 'sequencer/ and simulate/ are one layer: they stay independent')
  assert.equal(violation('chain/x.ts', 'txpool/test-kit.ts'), 'a module imports test code')
  assert.equal(violation('chain/x.test.ts', 'node/create-node.ts'), undefined)
  assert.equal(violation('nowhere/x.ts', 'chain/y.ts'), 'folder nowhere/ has no layer')
})
