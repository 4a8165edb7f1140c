import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hostName, isHostAllowed } from './host-check.ts'

test('hostName strips ports and brackets', () => {
  assert.equal(hostName('localhost:8545'), 'localhost')
  assert.equal(hostName('Example.COM'), 'example.com')
  assert.equal(hostName('[::1]:8545'), '::1')
  assert.equal(hostName('[::1]'), '::1')
  assert.equal(hostName('::1'), '::1')
})

test('localhost and IP literals are allowed by default', () => {
  for (const host of ['localhost', 'localhost:8545', 'LOCALHOST:1', '127.0.0.1:8545', '10.1.2.3', '[::1]:8545', undefined, '']) {
    assert.equal(isHostAllowed(host), true, String(host))
  }
})

test('other names are refused by default', () => {
  for (const host of ['evil.com', 'evil.com:8545', 'localhost.evil.com', '127.0.0.1.evil.com', 'sub.localhost']) {
    assert.equal(isHostAllowed(host), false, host)
  }
})

test('a configured list and the wildcard', () => {
  assert.equal(isHostAllowed('rpc.example.org:443', ['rpc.example.org']), true)
  assert.equal(isHostAllowed('localhost', ['rpc.example.org']), false)
  assert.equal(isHostAllowed('anything.at.all', ['*']), true)
})
