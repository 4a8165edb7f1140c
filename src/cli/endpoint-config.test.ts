import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_LIMITS } from '../rpc/transport/limits.ts'
import { configFileHelp, endpointsFromOptions, FIELDS, parseEndpointsConfig, readEndpointsConfig } from './endpoint-config.ts'
import { parseCommandLine, UsageError } from './options.ts'

test('a config file with two endpoints, defaults filled in', () => {
  const endpoints = parseEndpointsConfig({
    endpoints: [
      {
        name: 'public', host: '0.0.0.0', port: 8545, profile: 'public',
        rateLimit: { requestsPerSecond: 20 }, allowedHosts: ['rpc.example.com'], cors: ['*'],
        limits: { maxConnections: 10, maxBatchItems: 50 }, websocket: false, preconfirmations: false,
      },
      { name: 'dedicated', port: 8546 },
    ],
  }, 'f.json')
  assert.deepEqual(endpoints, [
    {
      name: 'public', host: '0.0.0.0', port: 8545, profile: 'public',
      rateLimit: { requestsPerSecond: 20, burst: 200 }, allowedHosts: ['rpc.example.com'], cors: ['*'],
      limits: { maxConnections: 10, maxBatchItems: 50 }, websocket: false, preconfirmations: false, ui: false,
    },
    { name: 'dedicated', host: '127.0.0.1', port: 8546, profile: 'dedicated', allowedHosts: ['localhost'], limits: {}, websocket: true, preconfirmations: true, ui: true },
  ])
  assert.equal(parseEndpointsConfig({ endpoints: [{ name: 'p', port: 1, profile: 'public', rateLimit: false }] }, 'f')[0]!.rateLimit, false)
})

test('every error names the file and the field', () => {
  const one = (endpoint: unknown): unknown => ({ endpoints: [{ name: 'ok', port: 1 }, endpoint] })
  const cases: [unknown, RegExp][] = [
    [[], /^config file f\.json: \(top level\): must be an object/],
    [{ endpoints: [] }, /^config file f\.json: endpoints: must be a non-empty list/],
    [{ endpoints: [{ name: 'a', port: 1 }], extra: 1 }, /\(top level\)\.extra: unknown field \(allowed: endpoints\)/],
    [one({ name: 'b', port: '8545' }), /endpoints\[1\]\.port: must be a whole number from 0 to 65535, got "8545"/],
    [one({ name: 'b', port: 70000 }), /endpoints\[1\]\.port: must be a whole number from 0 to 65535, got 70000/],
    [one({ name: 'b' }), /endpoints\[1\]\.port: required/],
    [one({ port: 2 }), /endpoints\[1\]\.name: required/],
    [one({ name: 'b', port: 2, rateLimt: {} }), /endpoints\[1\]\.rateLimt: unknown field \(allowed: name, host, port, profile, rateLimit/],
    [one({ name: 'b', port: 2, profile: 'private' }), /endpoints\[1\]\.profile: must be one of dedicated, public, got "private"/],
    [one({ name: 'b', port: 2, rateLimit: { requestsPerSecond: -1 } }), /endpoints\[1\]\.rateLimit\.requestsPerSecond: must be a number above 0, got -1/],
    [one({ name: 'b', port: 2, rateLimit: { requestsPerSecond: 1, burst: 0 } }), /endpoints\[1\]\.rateLimit\.burst: must be a whole number above 0, got 0/],
    [one({ name: 'b', port: 2, rateLimit: true }), /endpoints\[1\]\.rateLimit: must be false or/],
    [one({ name: 'b', port: 2, limits: { maxBatchItems: 0 } }), /endpoints\[1\]\.limits\.maxBatchItems: must be a whole number above 0, got 0/],
    [one({ name: 'b', port: 2, limits: { maxBatch: 5 } }), /endpoints\[1\]\.limits\.maxBatch: unknown field/],
    [one({ name: 'b', port: 2, allowedHosts: 'localhost' }), /endpoints\[1\]\.allowedHosts: must be a list of non-empty strings/],
    [one({ name: 'b', port: 2, cors: [''] }), /endpoints\[1\]\.cors: must be a list of non-empty strings/],
    [one({ name: 'b', port: 2, websocket: 'yes' }), /endpoints\[1\]\.websocket: must be true or false/],
    [one({ name: 'b', port: 2, preconfirmations: 'off' }), /endpoints\[1\]\.preconfirmations: must be true or false, got "off"/],
    [one({ name: 'b', port: 2, ui: 1 }), /endpoints\[1\]\.ui: must be true or false, got 1/],
    [one({ name: 'ok', port: 2 }), /endpoints\[1\]\.name: "ok" is used by an earlier endpoint/],
    [one({ name: 'b', port: 1 }), /endpoints\[1\]\.port: 127\.0\.0\.1:1 is used by an earlier endpoint/],
    [one('x'), /endpoints\[1\]: must be an object/],
  ]
  for (const [raw, message] of cases) {
    assert.throws(() => parseEndpointsConfig(raw, 'f.json'), (e: unknown) => e instanceof UsageError && message.test(e.message), String(message))
  }
  assert.doesNotThrow(() => parseEndpointsConfig({ endpoints: [{ name: 'a', port: 0 }, { name: 'b', port: 0 }] }, 'f'), 'port 0 may repeat')
})

test('reading the file: unreadable and non-JSON files are named', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-config-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const bad = join(dir, 'bad.json')
  writeFileSync(bad, '{"endpoints": [')
  assert.throws(() => readEndpointsConfig(bad), new RegExp(`config file ${bad} is not JSON`))
  assert.throws(() => readEndpointsConfig(join(dir, 'missing.json')), /cannot read config file/)
  const good = join(dir, 'good.json')
  writeFileSync(good, JSON.stringify({ endpoints: [{ name: 'a', port: 0 }] }))
  assert.equal(readEndpointsConfig(good)[0]!.name, 'a')
})

test('the help describes exactly the fields the parser takes, and every limit', () => {
  const help = configFileHelp().join('\n')
  const described = [...help.matchAll(/^ {2}(\w+)\??: /gm)].map((m) => m[1])
  assert.deepEqual(described, FIELDS.map((f) => f.name))
  for (const limit of Object.keys(DEFAULT_LIMITS)) assert.match(help, new RegExp(`\\b${limit}=`), limit)
  for (const field of FIELDS) {
    const endpoint: Record<string, unknown> = { name: 'n', port: 1 }
    assert.doesNotThrow(() => {
      try {
        parseEndpointsConfig({ endpoints: [{ ...endpoint, [field.name]: null }] }, 'f')
      } catch (e) {
        if (/unknown field/.test((e as Error).message)) throw e
      }
    }, field.name)
  }
})

test('flags describe the single endpoint; with --config they are refused', () => {
  const flags = (args: string[]) => {
    const { options, given } = parseCommandLine('start', args)
    return endpointsFromOptions(options, given)
  }
  assert.deepEqual(flags(['--port', '0', '--profile', 'public', '--rate-limit', '5', '--cors', 'a,b']), [{
    name: 'default', host: '127.0.0.1', port: 0, profile: 'public', rateLimit: { requestsPerSecond: 5, burst: 50 },
    allowedHosts: ['localhost'], cors: ['a', 'b'], limits: {}, websocket: true, preconfirmations: true, ui: false,
  }])
  assert.equal(flags([])[0]!.ui, true, 'the live view: on by default')
  assert.equal(flags(['--no-ui'])[0]!.ui, false)
  assert.equal(flags(['--no-preconfirmations'])[0]!.preconfirmations, false)
  assert.throws(() => flags(['--config', 'x.json', '--no-preconfirmations']), /--no-preconfirmations cannot be combined with --config/)
  assert.equal(flags(['--profile', 'public', '--rate-limit', '0'])[0]!.rateLimit, false)
  assert.equal('rateLimit' in flags([])[0]!, false, 'the profile decides')
  assert.throws(() => flags(['--profile', 'open']), /--profile must be one of dedicated, public, got "open"/)
  assert.throws(() => flags(['--config', 'x.json', '--port', '0']), /--port cannot be combined with --config/)
  assert.deepEqual(flags(['--idle-timeout', '90000'])[0]!.limits, { idleTimeoutMs: 90_000 })
  assert.equal('newHeads' in flags([])[0]!, false, 'the endpoint\'s pending decides')
  assert.equal(flags(['--new-heads', 'block'])[0]!.newHeads, 'block')
  assert.equal(flags(['--new-heads', 'block', '--no-preconfirmations'])[0]!.newHeads, 'block')
  assert.throws(() => flags(['--new-heads', 'head']), /--new-heads must be one of block, flashblock, got "head"/)
  assert.throws(() => flags(['--new-heads', 'flashblock', '--no-preconfirmations']), /--new-heads flashblock needs pre-confirmations/)
  assert.throws(() => flags(['--config', 'x.json', '--new-heads', 'block']), /--new-heads cannot be combined with --config/)
  assert.throws(() => flags(['--idle-timeout', '0']), /--idle-timeout must be at least 1 ms, got 0/)
  assert.throws(() => flags(['--config', 'x.json', '--idle-timeout', '1000']), /--idle-timeout cannot be combined with --config/)
})

test('the live view: on but on public endpoints, a per-endpoint choice in a config file, and --no-ui turns it off everywhere', (t) => {
  const parsed = parseEndpointsConfig({ endpoints: [{ name: 'p', port: 1, profile: 'public' }, { name: 'pu', port: 2, profile: 'public', ui: true }, { name: 'd', port: 3, ui: false }, { name: 'e', port: 4 }] }, 'f')
  assert.deepEqual(parsed.map((e) => e.ui), [false, true, false, true])
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-config-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'endpoints.json')
  writeFileSync(file, JSON.stringify({ endpoints: [{ name: 'a', port: 0, profile: 'public', ui: true }, { name: 'b', port: 0 }] }))
  const withFlag = (args: string[]) => {
    const { options, given } = parseCommandLine('start', args)
    return endpointsFromOptions(options, given).map((e) => e.ui)
  }
  assert.deepEqual(withFlag(['--config', file]), [true, true])
  assert.deepEqual(withFlag(['--config', file, '--no-ui']), [false, false])
})

test('newHeads is an endpoint setting: absent (the cadence of the endpoint\'s pending), flashblock or block, never flashblock on sealed state', () => {
  const [absent, block, flash] = parseEndpointsConfig({ endpoints: [{ name: 'a', port: 1 }, { name: 'b', port: 2, newHeads: 'block' }, { name: 'c', port: 3, newHeads: 'flashblock' }] }, 'f')
  assert.equal(absent!.newHeads, undefined)
  assert.equal(block!.newHeads, 'block')
  assert.equal(flash!.newHeads, 'flashblock')
  assert.equal(parseEndpointsConfig({ endpoints: [{ name: 's', port: 1, preconfirmations: false, newHeads: 'block' }] }, 'f')[0]!.newHeads, 'block')
  assert.throws(() => parseEndpointsConfig({ endpoints: [{ name: 's', port: 1, newHeads: 'flashblocks' }] }, 'f.json'), /endpoints\[0\]\.newHeads: must be one of block, flashblock, got "flashblocks"/)
  assert.throws(() => parseEndpointsConfig({ endpoints: [{ name: 's', port: 1, preconfirmations: false, newHeads: 'flashblock' }] }, 'f.json'), /endpoints\[0\]\.newHeads: "flashblock" needs pre-confirmations/)
})
