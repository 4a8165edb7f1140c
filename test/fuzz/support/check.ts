/**
 * What every answer of the fuzz suite must be: a documented HTTP status, and for any status but 204 a
 * well-formed JSON-RPC response (`{"jsonrpc":"2.0","id":…}` with exactly one of `result` and `error`, an
 * error being an integer `code` and a non-empty `message`), or a non-empty array of them for a batch; and
 * nothing that leaks the server's insides (stack frames, file paths, module names) unless the request
 * itself carried that text. Internal errors (-32603) are allowed on the wire but counted, so a run can
 * report them: they mean a handler threw something that was not a typed error.
 */

import assert from 'node:assert/strict'

/** Statuses the transport documents (http-server.ts, connection-limit.ts, the endpoint policy). */
export const DOCUMENTED_STATUSES: ReadonlySet<number> = new Set([200, 204, 403, 404, 405, 413, 415, 429, 503])

const LEAKS: readonly RegExp[] = [
  /\n\s+at /,
  / {4}at /,
  /file:\/\//,
  /node_modules/,
  /node:internal/,
  /\/(work|home|tmp|usr|src)\/[\w.-]+/,
  /\.(ts|js|mjs):\d+/,
]

export interface Answer {
  readonly status: number
  readonly contentType: string | undefined
  readonly body: string
}

export interface Findings {
  /** Internal errors answered (-32603), with the request that caused them (truncated). */
  readonly internal: string[]
}

export const newFindings = (): Findings => ({ internal: [] })

type Message = Record<string, unknown>

export function assertNoLeak(body: string, request: string): void {
  for (const leak of LEAKS) {
    if (leak.test(body) && !leak.test(request)) assert.fail(`the answer leaks ${leak}: ${body.slice(0, 600)}`)
  }
}

export function assertResponseObject(value: unknown, findings: Findings, request: string): Message {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), `not a response object: ${JSON.stringify(value)?.slice(0, 300)}`)
  const msg = value as Message
  assert.equal(msg.jsonrpc, '2.0', 'jsonrpc must be "2.0"')
  assert.ok('id' in msg, 'a response has an id member')
  const id = msg.id
  assert.ok(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)), `bad id ${JSON.stringify(id)}`)
  const hasResult = 'result' in msg
  const hasError = 'error' in msg
  assert.ok(hasResult !== hasError, 'exactly one of result and error')
  const keys = Object.keys(msg).sort()
  assert.deepEqual(keys, hasResult ? ['id', 'jsonrpc', 'result'] : ['error', 'id', 'jsonrpc'])
  if (hasError) {
    const error = msg.error as Message
    assert.ok(typeof error === 'object' && error !== null && !Array.isArray(error), 'error is an object')
    assert.ok(Number.isSafeInteger(error.code), `error code ${JSON.stringify(error.code)} is an integer`)
    assert.ok(typeof error.message === 'string' && error.message.length > 0, 'error message is a non-empty string')
    for (const key of Object.keys(error)) assert.ok(['code', 'message', 'data'].includes(key), `unexpected error member ${key}`)
    if (error.code === -32603) findings.internal.push(`${String(error.message)} <- ${request.slice(0, 300)}`)
  }
  return msg
}

/** Checks one HTTP answer; returns the parsed JSON-RPC message(s), or null for 204. */
export function checkHttpAnswer(answer: Answer, request: string, findings: Findings): Message | Message[] | null {
  assert.ok(DOCUMENTED_STATUSES.has(answer.status), `undocumented HTTP status ${answer.status}: ${answer.body.slice(0, 300)}`)
  assertNoLeak(answer.body, request)
  if (answer.status === 204) {
    assert.equal(answer.body, '', '204 has no body')
    return null
  }
  assert.equal(answer.contentType, 'application/json')
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.body)
  } catch {
    assert.fail(`the body is not JSON: ${answer.body.slice(0, 300)}`)
  }
  if (Array.isArray(parsed)) {
    assert.equal(answer.status, 200, 'only a 200 carries a batch answer')
    assert.ok(parsed.length > 0, 'a batch answer is never empty')
    return parsed.map((item) => assertResponseObject(item, findings, request))
  }
  const msg = assertResponseObject(parsed, findings, request)
  if (answer.status !== 200) assert.ok('error' in msg, `HTTP ${answer.status} carries an error`)
  return msg
}
