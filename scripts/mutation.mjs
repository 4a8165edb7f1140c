#!/usr/bin/env node
// The mutation run (docs/mutation.md): `npm run test:mutation -- [module ...] [stryker options]`.
// Modules: state, sequencer, txpool, resolver (scripts/mutation-modules.mjs); none named: all four, in turn.
// Options after the names go to Stryker as they are, e.g. `-- txpool --mutate src/txpool/heap.ts` or
// `-- state --incremental`. Prints the score of each module (and of each of its files) at the end.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, lstatSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'
import { MODULES } from './mutation-modules.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const names = []
while (args.length > 0 && !args[0].startsWith('-')) names.push(args.shift())
for (const n of names) if (!(n in MODULES)) throw new Error(`unknown module ${n}; modules: ${Object.keys(MODULES).join(', ')}`)
const modules = names.length > 0 ? names : Object.keys(MODULES)

// Stryker runs the tests in a copy of the project at .stryker-tmp/sandbox-*, where a test's `../shared`
// (the material beside the repository) would be .stryker-tmp/shared: point that at the real one.
const tmp = join(root, '.stryker-tmp')
function linkShared() {
  mkdirSync(tmp, { recursive: true })
  const link = join(tmp, 'shared')
  const shared = resolve(root, '..', 'shared')
  if (!lstatSafe(link) && existsSync(shared)) symlinkSync(shared, link)
}

function lstatSafe(p) {
  try {
    return lstatSync(p)
  } catch {
    return undefined
  }
}

const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

function score(mutants) {
  let detected = 0
  let undetected = 0
  for (const m of mutants) {
    if (DETECTED.has(m.status)) detected++
    else if (UNDETECTED.has(m.status)) undetected++
  }
  const valid = detected + undetected
  return { detected, undetected, valid, pct: valid === 0 ? 100 : (100 * detected) / valid }
}

const summary = []
let failed = false
for (const name of modules) {
  console.log(`\n=== mutation run: ${name}`)
  linkShared()
  const report = join(root, 'reports/mutation', `${name}.json`)
  rmSync(report, { force: true })
  const r = spawnSync(process.execPath, [join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', 'stryker.config.mjs', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_MODULE: name, MUTATION_TIMES_FILE: join(tmp, `${name}-times.json`) },
  })
  if (r.status !== 0) failed = true
  if (!existsSync(report)) {
    summary.push(`${name}: no report (stryker exited ${r.status})`)
    continue
  }
  const files = JSON.parse(readFileSync(report, 'utf8')).files
  const all = Object.values(files).flatMap((f) => f.mutants)
  const s = score(all)
  summary.push(`${name.padEnd(10)} ${s.pct.toFixed(2).padStart(6)}%  (${s.detected} detected of ${s.valid}; ${s.undetected} survived or not covered)`)
  for (const [file, f] of Object.entries(files)) {
    const fs = score(f.mutants)
    summary.push(`  ${file.padEnd(40)} ${fs.pct.toFixed(2).padStart(6)}%  (${fs.detected}/${fs.valid})`)
  }
}
console.log('\nMutation scores (detected = killed or timed out, over killed + timed out + survived + no coverage):')
for (const line of summary) console.log(line)
process.exit(failed ? 1 : 0)
