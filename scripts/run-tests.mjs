#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node's own test runner through tsx.
// (Node 20's --test takes no glob patterns, so the files are listed here.) Extra arguments are passed on,
// e.g. `npm test -- --test-name-pattern=import`.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

function find(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules' || name.startsWith('.')) continue
    if (statSync(path).isDirectory()) out.push(...find(path))
    else if (name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

const files = ['src', 'test'].flatMap((d) => find(d)).sort()
const args = ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...process.argv.slice(2), ...files]
const result = spawnSync(process.execPath, args, { stdio: 'inherit' })
process.exit(result.status ?? 1)
