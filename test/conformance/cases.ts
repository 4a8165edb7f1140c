/**
 * Loader for the rpc-compat conformance cases (../shared/rpc-compat/tests/<method>/<name>.io).
 *
 * A case file is `//` comment lines (the description), one `>> request` line and one `<< expected` line.
 * The request is kept as the raw string so the runner can send it byte for byte; the expected response is
 * parsed. Cases come back in the reference harness's order: method folders sorted, then files within each
 * folder sorted, both by plain code-unit comparison (like Go's filepath.Walk), never by locale. The order
 * matters: the eth_sendRawTransaction cases fill the node's pool in that order.
 *
 * The shared folder sits beside the repository (CI clones the repo next to it), so the default directory is
 * resolved relative to this file, never as an absolute path.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** `<repo>/../shared/rpc-compat/tests/`, located from test/conformance/. */
export const DEFAULT_CASES_DIR = fileURLToPath(new URL('../../../shared/rpc-compat/tests/', import.meta.url))

export interface Case {
  /** The folder name, e.g. `eth_call`. */
  readonly method: string
  /** The file name without `.io`, e.g. `call-contract`. */
  readonly name: string
  /** `<method>/<file>`, e.g. `eth_call/call-contract.io`: the key used by the skip list. */
  readonly path: string
  /** The comment lines without their `//` prefix, joined with newlines. */
  readonly description: string
  /** The `>>` line's JSON exactly as written in the file: sent verbatim. */
  readonly request: string
  /** The `<<` line, parsed. */
  readonly expected: unknown
}

/** Plain code-unit order (what Go's sort.Strings does); `localeCompare` would fold case. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Parses one `.io` file's text; `path` only labels errors and the result. */
export function parseCase(path: string, text: string): Case {
  const slash = path.lastIndexOf('/')
  const method = path.slice(0, slash)
  const name = path.slice(slash + 1).replace(/\.io$/, '')
  const comments: string[] = []
  let request: string | undefined
  let expectedText: string | undefined
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '')
    const where = `${path}:${i + 1}`
    if (line.trim() === '') continue
    if (line.startsWith('//')) {
      if (request !== undefined) throw new Error(`${where}: comment after the request line`)
      comments.push(line.slice(2).replace(/^ /, ''))
    } else if (line.startsWith('>>')) {
      if (request !== undefined) throw new Error(`${where}: more than one '>>' line`)
      request = line.slice(2).trim()
    } else if (line.startsWith('<<')) {
      if (request === undefined) throw new Error(`${where}: '<<' line before the '>>' line`)
      if (expectedText !== undefined) throw new Error(`${where}: more than one '<<' line`)
      expectedText = line.slice(2).trim()
    } else {
      throw new Error(`${where}: unexpected line (not '//', '>>' or '<<')`)
    }
  }
  if (request === undefined) throw new Error(`${path}: no '>>' request line`)
  if (expectedText === undefined) throw new Error(`${path}: no '<<' expected-response line`)
  try {
    JSON.parse(request)
  } catch (err) {
    throw new Error(`${path}: the request is not valid JSON: ${(err as Error).message}`)
  }
  let expected: unknown
  try {
    expected = JSON.parse(expectedText)
  } catch (err) {
    throw new Error(`${path}: the expected response is not valid JSON: ${(err as Error).message}`)
  }
  return { method, name, path, description: comments.join('\n'), request, expected }
}

/** Every `<method>/*.io` under `dir`, parsed, in lexical path order. Files at the top level are ignored. */
export function loadCases(dir: string = DEFAULT_CASES_DIR): Case[] {
  const cases: Case[] = []
  const methods = readdirSync(dir)
    .filter((entry) => statSync(join(dir, entry)).isDirectory())
    .sort(byCodeUnits)
  for (const method of methods) {
    const files = readdirSync(join(dir, method))
      .filter((file) => file.endsWith('.io'))
      .sort(byCodeUnits)
    for (const file of files) {
      cases.push(parseCase(`${method}/${file}`, readFileSync(join(dir, method, file), 'utf8')))
    }
  }
  if (cases.length === 0) throw new Error(`no rpc-compat cases found under ${dir}`)
  return cases
}
