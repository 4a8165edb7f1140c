#!/usr/bin/env node
// Entry point of the `flashnode` command. Runs the production build (dist/flashnode.mjs, made by
// `npm run build`, which `npm install` and `npm start` run) when it is there and no source file is newer;
// otherwise the TypeScript sources through tsx's loader, so an edited checkout never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const built = `${root}dist/flashnode.mjs`

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

if (existsSync(built) && statSync(built).mtimeMs >= newestSource(`${root}src`)) {
  await import(built)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/main.ts')
}
