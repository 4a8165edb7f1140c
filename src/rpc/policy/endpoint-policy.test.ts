import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { endpointPolicy } from './endpoint-policy.ts'
import { PROFILES } from './profiles.ts'

const handler: MethodHandler = async () => null
const table: MethodTable = new Map(
  ['eth_call', 'eth_getBlockReceipts', 'eth_simulateV1', 'eth_subscribe', 'net_version', 'web3_clientVersion',
    'base_transactionStatus', 'evm_mine', 'flashnode_flashblock', 'debug_traceCall'].map((name) => [name, handler]),
)
const names = (t: MethodTable): string[] => [...t.keys()].sort()

test('dedicated serves every method of the node, forbids nothing and has no rate limit', () => {
  const policy = endpointPolicy(table, { profile: 'dedicated', preconfirmations: true })
  assert.deepEqual(names(policy.methods), [...names(table), 'rpc_modules'].sort())
  assert.equal(policy.forbidden.size, 0)
  assert.equal(policy.rateLimiter, undefined)
  assert.equal(policy.gate, undefined, 'nothing to check: no gate at all')
})

test('public serves the public namespaces only, and refuses eth_getBlockReceipts', () => {
  const policy = endpointPolicy(table, { profile: 'public', preconfirmations: true })
  assert.deepEqual(names(policy.methods), [
    'base_transactionStatus', 'eth_call', 'eth_simulateV1', 'eth_subscribe', 'net_version', 'rpc_modules', 'web3_clientVersion',
  ])
  assert.deepEqual([...policy.forbidden], ['eth_getBlockReceipts'])
  assert.deepEqual(policy.rateLimiter?.limit, PROFILES.public.rateLimit)
})

test('rpc_modules answers the namespaces the endpoint serves, as geth does ("rpc" included)', async () => {
  const ctx = { signal: new AbortController().signal, endpoint: 'test' }
  const modules = async (profile: 'public' | 'dedicated') => endpointPolicy(table, { profile, preconfirmations: true }).methods.get('rpc_modules')!([], ctx)
  const namespaces = (profile: keyof typeof PROFILES) =>
    [...new Set([...endpointPolicy(table, { profile, preconfirmations: true }).methods.keys()].map((m) => m.split('_')[0]!))].sort()
  for (const profile of ['public', 'dedicated'] as const) {
    const answer = (await modules(profile)) as Record<string, string>
    assert.deepEqual(Object.keys(answer).sort(), namespaces(profile), profile)
    assert.ok(Object.values(answer).every((v) => v === '1.0'))
  }
  assert.equal('debug' in ((await modules('public')) as object), false, 'public serves no debug_')
  assert.equal('debug' in ((await modules('dedicated')) as object), true)
})

test('without pre-confirmations eth_simulateV1 is served by no profile', () => {
  for (const profile of ['public', 'dedicated'] as const) {
    const policy = endpointPolicy(table, { profile, preconfirmations: false })
    assert.equal(policy.methods.has('eth_simulateV1'), false, profile)
    assert.equal(policy.methods.has('eth_call'), true, profile)
  }
})

test('the rate limit is a setting: replaced, turned off, or added to dedicated', () => {
  const limit = { requestsPerSecond: 5, burst: 7 }
  assert.deepEqual(endpointPolicy(table, { profile: 'public', preconfirmations: true, rateLimit: limit }).rateLimiter?.limit, limit)
  assert.equal(endpointPolicy(table, { profile: 'public', preconfirmations: true, rateLimit: false }).rateLimiter, undefined)
  assert.deepEqual(endpointPolicy(table, { profile: 'dedicated', preconfirmations: true, rateLimit: limit }).rateLimiter?.limit, limit)
})

test('the gate: rate first (one token per item, forbidden ones too); a forbidden method is refused with 403', () => {
  let now = 0
  const policy = endpointPolicy(table, {
    profile: 'public',
    preconfirmations: true,
    rateLimit: { requestsPerSecond: 1, burst: 3 },
    now: () => now,
  })
  const gate = policy.gate!('10.0.0.1')
  assert.equal(gate.beforeParse(), undefined)
  assert.equal(gate.admit(['eth_call', 'eth_getBlockReceipts']), undefined, 'two tokens')
  assert.equal(gate.refuse('eth_call'), undefined)
  const forbidden = gate.refuse('eth_getBlockReceipts')
  assert.equal(forbidden?.status, 403)
  assert.equal(forbidden?.error.kind, 'forbidden')
  assert.equal(forbidden?.error.message, 'eth_getBlockReceipts is not available on public endpoints: use a dedicated endpoint')
  assert.equal(gate.admit([undefined]), undefined, 'the third token')
  const limited = gate.admit(['eth_call'])
  assert.equal(limited?.status, 429)
  assert.equal(limited?.error.kind, 'limitExceeded')
  assert.equal(limited?.error.message, 'rate limit exceeded: 1 requests per second per client (burst 3)')
  assert.deepEqual(limited?.headers, { 'Retry-After': '1' })
  assert.equal(gate.beforeParse()?.status, 429, 'an empty bucket is refused before parsing')
  assert.equal(policy.gate!('10.0.0.2').admit(['eth_call']), undefined, 'another client has its own bucket')
  now += 1000
  assert.equal(gate.beforeParse(), undefined)
  assert.equal(gate.admit(['eth_call']), undefined)
  const huge = gate.admit(new Array<string>(4).fill('eth_call'))
  assert.match(huge!.error.message, /a batch of 4 requests is more than the burst of 3/)
  assert.equal(huge!.headers, undefined, 'no Retry-After for what can never pass')
})
