#!/usr/bin/env node
// A `solc` executable for forge (`forge build --use <this file>`) over the npm package `solc` (solc-js, the
// devDependency the tests compile with): forge asks `--version` and then compiles through `--standard-json`
// on standard input, and nothing else. So forge compiles offline, without downloading a native solc (no
// install step here may download anything beyond the npm registry). Test code only.
import { createRequire } from 'node:module'

const solc = createRequire(import.meta.url)('solc')
const args = process.argv.slice(2)
if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`)
} else if (args.includes('--standard-json')) {
  let input = ''
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', (chunk) => (input += chunk))
  process.stdin.on('end', () => process.stdout.write(solc.compile(input)))
} else {
  process.stderr.write(`solc-shim: only --version and --standard-json are served (got ${args.join(' ')})\n`)
  process.exit(2)
}
