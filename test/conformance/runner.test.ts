/**
 * Unit tests of the case loader and the runner, against a tiny in-process fake node: a JSON-RPC HTTP
 * server that checks it receives each case's request verbatim, in order, one at a time, and answers with
 * whatever the test wants (the expected response, a mutated one, garbage, or nothing).
 */

import assert from 'node:assert/strict'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { type Case, loadCases, parseCase } from './cases.ts'
import { firstDifference } from './compare.ts'
import { describeFailure, formatSummary, runConformance, tallyByMethod } from './runner.ts'

interface Seen {
  body: string
  contentType: string | undefined
  method: string | undefined
}

/** Starts a fake node; `answer` gets the index of the request and its body and writes the response. */
async function fakeNode(
  answer: (index: number, body: string, res: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[]; maxInFlight: () => number; close: () => Promise<void> }> {
  const seen: Seen[] = []
  let inFlight = 0
  let maxInFlight = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    res.on('close', () => inFlight--)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      seen.push({ body, contentType: req.headers['content-type'], method: req.method })
      answer(seen.length - 1, body, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function json(res: ServerResponse, value: unknown): void {
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(value))
}

describe('cases', () => {
  test('loads all 123 shared cases, per method as the README counts them', () => {
    const cases = loadCases()
    assert.equal(cases.length, 123)
    assert.deepEqual(
      tallyByMethod(cases.map((c) => ({ case: c, passed: false, ms: 0 }))).map((t) => [t.method, t.total]),
      [
        ['eth_call', 6],
        ['eth_getBlockReceipts', 8],
        ['eth_getCode', 4],
        ['eth_getStorageAt', 5],
        ['eth_getTransactionCount', 4],
        ['eth_sendRawTransaction', 5],
        ['eth_simulateV1', 91],
      ],
    )
    for (const c of cases) {
      assert.equal((JSON.parse(c.request) as { method: string }).method, c.method, c.path)
      assert.equal(c.path, `${c.method}/${c.name}.io`)
      assert.equal(typeof c.expected, 'object')
    }
    const contract = cases.find((c) => c.path === 'eth_call/call-contract.io')!
    assert.equal(contract.description, 'performs a basic contract call with default settings')
    assert.equal(
      contract.request,
      '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"from":"0x0000000000000000000000000000000000000000","input":"0xff01","to":"0x17e7eedce4ac02ef114a7ed9fe6e2f33feba1667"},"latest"]}',
    )
    assert.deepEqual(contract.expected, { jsonrpc: '2.0', id: 1, result: '0xffee' })
    // The pool cases arrive in the order the README relies on (nonces 2, 3, 1, 0 after the blob tx).
    assert.deepEqual(
      cases.filter((c) => c.method === 'eth_sendRawTransaction').map((c) => c.name),
      [
        'send-access-list-transaction',
        'send-blob-tx',
        'send-dynamic-fee-access-list-transaction',
        'send-dynamic-fee-transaction',
        'send-legacy-transaction',
      ],
    )
  })

  test('orders folders, then files, by code units (not locale, not the joined path)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rpc-compat-cases-'))
    try {
      const io = (m: string) => `// d\n>> {"jsonrpc":"2.0","id":1,"method":"${m}"}\n<< {"jsonrpc":"2.0","id":1,"result":null}\n`
      for (const [folder, files] of [
        ['m', ['b.io', 'B.io', 'a-b.io', 'a.io', 'notes.txt']],
        ['m-x', ['z.io']],
        ['M', ['a.io']],
      ] as const) {
        await mkdir(join(dir, folder))
        for (const f of files) await writeFile(join(dir, folder, f), io(folder))
      }
      await writeFile(join(dir, 'genesis.json'), '{}')
      // '-' < '.' byte-wise, so a-b.io comes before a.io; 'B' < 'a'; folder 'm' (all of it) before 'm-x'.
      assert.deepEqual(
        loadCases(dir).map((c) => c.path),
        ['M/a.io', 'm/B.io', 'm/a-b.io', 'm/a.io', 'm/b.io', 'm-x/z.io'],
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('parses comments, keeps the request verbatim, and rejects malformed files', () => {
    const c = parseCase('eth_x/y.io', '// first line\n//second\r\n>> {"a": 1,  "b":2}\r\n<< {"ok":true}\n')
    assert.deepEqual(c, {
      method: 'eth_x',
      name: 'y',
      path: 'eth_x/y.io',
      description: 'first line\nsecond',
      request: '{"a": 1,  "b":2}',
      expected: { ok: true },
    })
    assert.throws(() => parseCase('m/a.io', '// only a comment\n'), /m\/a\.io: no '>>' request line/)
    assert.throws(() => parseCase('m/a.io', '>> {}\n'), /no '<<' expected-response line/)
    assert.throws(() => parseCase('m/a.io', '>> {}\n>> {}\n<< {}\n'), /m\/a\.io:2: more than one '>>' line/)
    assert.throws(() => parseCase('m/a.io', '<< {}\n>> {}\n'), /'<<' line before the '>>' line/)
    assert.throws(() => parseCase('m/a.io', '>> {}\n<< {nope}\n'), /expected response is not valid JSON/)
    assert.throws(() => parseCase('m/a.io', '>> {\n<< {}\n'), /request is not valid JSON/)
    assert.throws(() => parseCase('m/a.io', 'junk\n>> {}\n<< {}\n'), /m\/a\.io:1: unexpected line/)
  })
})

describe('runner', () => {
  let cases: Case[]
  before(() => {
    cases = loadCases()
  })

  test('a node that answers every case as expected passes all; requests are verbatim, in order, one at a time', async () => {
    const node = await fakeNode((i, _body, res) => {
      // Answer slowly enough that overlapping requests would be noticed.
      setTimeout(() => json(res, cases[i]!.expected), 1)
    })
    try {
      const results = await runConformance(node.url, { cases })
      assert.equal(results.length, 123)
      assert.deepEqual(
        results.filter((r) => !r.passed).map((r) => r.case.path),
        [],
      )
      assert.deepEqual(
        node.seen.map((s) => s.body),
        cases.map((c) => c.request),
      )
      for (const s of node.seen) {
        assert.equal(s.method, 'POST')
        assert.equal(s.contentType, 'application/json')
      }
      assert.equal(node.maxInFlight(), 1)
      assert.equal(results[0]!.httpStatus, 200)
      const summary = formatSummary(results)
      assert.match(summary, /^eth_call: 6\/6 passed$/m)
      assert.match(summary, /^eth_simulateV1: 91\/91 passed$/m)
      assert.match(summary, /^total: 123\/123 passed$/m)
      assert.doesNotMatch(summary, /failures/)
    } finally {
      await node.close()
    }
  })

  test('failures carry their first difference; the summary lists them; skips are annotated', async () => {
    const picked = cases.filter((c) => c.method === 'eth_call')
    const node = await fakeNode((i, _body, res) => {
      const c = picked[i]!
      if (c.name === 'call-contract') return json(res, { jsonrpc: '2.0', id: 1, result: '0xffEE' })
      if (c.name === 'call-callenv') return json(res, { jsonrpc: '2.0', id: 1, result: '0x', extra: true })
      if (c.name === 'call-revert-abi-error') {
        // geth's message is not required, the code is.
        return json(res, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution reverted', data: '0x08c379a0' } })
      }
      if (c.name === 'call-revert-abi-panic') {
        const expected = c.expected as { error: Record<string, unknown> }
        return json(res, { ...expected, error: { ...expected.error, message: 'something else entirely' } })
      }
      if (c.name === 'call-eip7702-delegation') {
        res.statusCode = 500
        return res.end('internal error')
      }
      json(res, c.expected)
    })
    try {
      const results = await runConformance(node.url, {
        cases,
        filter: (c) => c.method === 'eth_call',
        skip: { 'eth_call/call-contract.io': 'reason A', 'eth_call/call-callenv-options-eip1559.io': 'reason B' },
      })
      assert.deepEqual(
        results.map((r) => [r.case.name, r.passed]),
        [
          ['call-callenv-options-eip1559', true],
          ['call-callenv', false],
          ['call-contract', false],
          ['call-eip7702-delegation', false],
          ['call-revert-abi-error', false],
          ['call-revert-abi-panic', true],
        ],
      )
      const byName = new Map(results.map((r) => [r.case.name, r]))
      assert.equal(byName.get('call-contract')!.difference?.path, '$.result')
      assert.equal(byName.get('call-contract')!.skipReason, 'reason A')
      assert.equal(byName.get('call-callenv-options-eip1559')!.skipReason, 'reason B')
      assert.equal(byName.get('call-callenv')!.difference?.kind, 'extra')
      assert.equal(byName.get('call-revert-abi-error')!.difference?.path, '$.error.code')
      assert.equal(byName.get('call-eip7702-delegation')!.httpStatus, 500)
      assert.match(byName.get('call-eip7702-delegation')!.error!, /HTTP 500, body is not JSON: "internal error"/)

      const summary = formatSummary(results)
      assert.match(summary, /^eth_call: 2\/6 passed$/m)
      assert.match(summary, /^total: 2\/6 passed \(1 failing on the skip list\)$/m)
      assert.match(summary, /failures \(4\):/)
      assert.match(summary, /eth_call\/call-contract \[skipped: reason A\]\n {4}\$\.result: value differs: expected "0xffee", got "0xffEE"/)
      assert.match(summary, /eth_call\/call-revert-abi-error\n {4}\$\.error\.code: value differs: expected 3, got -32000/)
    } finally {
      await node.close()
    }
  })

  test('a failure where an error came instead of a result says so', () => {
    const c = cases.find((x) => x.path === 'eth_call/call-contract.io')!
    const actual = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_call does not exist' } }
    const difference = firstDifference(c.expected, actual)!
    assert.equal(
      describeFailure({ case: c, passed: false, difference, actual, ms: 0 }),
      '$.result: missing field (expected "0xffee") (the node answered with error {"code":-32601,"message":"the method eth_call does not exist"})',
    )
  })

  test('an unreachable or silent node fails cases with a reason instead of hanging', async () => {
    const one = cases.filter((c) => c.path === 'eth_call/call-contract.io')
    const node = await fakeNode(() => {}) // never answers
    try {
      const [timedOut] = await runConformance(node.url, { cases: one, timeoutMs: 200 })
      assert.equal(timedOut!.passed, false)
      assert.match(timedOut!.error!, /no response within 200 ms/)
    } finally {
      await node.close()
    }
    const [refused] = await runConformance(node.url, { cases: one, timeoutMs: 5_000 })
    assert.equal(refused!.passed, false)
    assert.match(refused!.error!, /^request failed: /)
    assert.match(formatSummary([refused!]), /eth_call\/call-contract\n {4}request failed: /)
  })
})
