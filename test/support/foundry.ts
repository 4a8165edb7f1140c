/**
 * The foundry tools the client tests run (the npm packages @foundry-rs/cast and @foundry-rs/forge): the
 * platform binary a package installed, else its npm wrapper in node_modules/.bin.
 */

import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from './node-process.ts'

export function foundryTool(name: 'cast' | 'forge'): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  try {
    const pkg = createRequire(import.meta.url).resolve(`@foundry-rs/${name}-${process.platform}-${arch}/package.json`)
    const bin = join(dirname(pkg), 'bin', name)
    if (existsSync(bin)) return bin
  } catch {
    // the wrapper below
  }
  return join(REPO_ROOT, 'node_modules', '.bin', name)
}
