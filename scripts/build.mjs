// Builds the JavaScript the node runs in production: `dist/flashnode.mjs` (the CLI and everything it loads)
// and one file per worker thread, bundled by esbuild from src/ with the npm packages left as imports, plus
// the live view's page. `npm start`, the `flashnode` bin and every worker thread then run plain JavaScript,
// without tsx's loader in each thread (its cost: memory per thread and time at every start). Tests run the
// TypeScript sources through tsx and do not need this build; test/e2e/compiled-build.test.ts checks it.
//
// usage: node scripts/build.mjs [--outdir DIR] [--quiet]
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** What dist/ holds: the bundle's file name for each entry module. Worker file names are those that
 * src/node/thread-entry.ts resolves. */
export const ENTRIES = {
  flashnode: 'src/cli/main.ts',
  'execution-worker': 'src/node/execution/worker-main.ts',
  'recovery-worker': 'src/node/sender-recovery/recovery-main.ts',
  'hashing-worker': 'src/node/seal-hashing/hashing-main.ts',
}
const ASSETS = ['src/ui/live-view.html']

export async function buildDist(outdir) {
  mkdirSync(outdir, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ out, in: entry })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true, // a dynamic import (the NATS side, pino-pretty) stays a separate chunk, loaded only when imported
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  })
  for (const asset of ASSETS) copyFileSync(join(root, asset), join(outdir, asset.split('/').at(-1)))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' }, quiet: { type: 'boolean', default: false } } })
  const outdir = resolve(values.outdir ?? join(root, 'dist'))
  const started = Date.now()
  await buildDist(outdir)
  if (!values.quiet) console.log(`built ${outdir} in ${Date.now() - started} ms`)
}
