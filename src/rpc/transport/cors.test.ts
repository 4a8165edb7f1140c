import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isCorsEnabled, isOriginAllowed, isWebSocketOriginAllowed } from './cors.ts'

test('CORS is off without configuration', () => {
  assert.equal(isCorsEnabled(undefined), false)
  assert.equal(isCorsEnabled([]), false)
  assert.equal(isCorsEnabled(['https://app.example']), true)
})

test('origins match exactly, case-insensitively, or by wildcard', () => {
  assert.equal(isOriginAllowed('https://App.Example', ['https://app.example']), true)
  assert.equal(isOriginAllowed('https://app.example:8443', ['https://app.example']), false)
  assert.equal(isOriginAllowed('http://app.example', ['https://app.example']), false)
  assert.equal(isOriginAllowed('https://x.y', ['*']), true)
})

test('WebSocket origins: none, loopback pages and configured origins pass', () => {
  assert.equal(isWebSocketOriginAllowed(undefined, undefined), true)
  assert.equal(isWebSocketOriginAllowed('http://localhost:3000', undefined), true)
  assert.equal(isWebSocketOriginAllowed('http://127.0.0.1', undefined), true)
  assert.equal(isWebSocketOriginAllowed('https://[::1]:8080', undefined), true)
  assert.equal(isWebSocketOriginAllowed('https://evil.example', undefined), false)
  assert.equal(isWebSocketOriginAllowed('http://localhost.evil.example', undefined), false)
  assert.equal(isWebSocketOriginAllowed('null', undefined), false)
  assert.equal(isWebSocketOriginAllowed('https://app.example', ['https://app.example']), true)
  assert.equal(isWebSocketOriginAllowed('https://evil.example', ['*']), true)
})

test('WebSocket origins: the page\'s own origin (same host and port as the Host header) passes, another does not', () => {
  assert.equal(isWebSocketOriginAllowed('http://node.example:8545', undefined, 'node.example:8545'), true)
  assert.equal(isWebSocketOriginAllowed('https://Node.Example:8545', undefined, 'NODE.example:8545'), true)
  assert.equal(isWebSocketOriginAllowed('http://node.example:8546', undefined, 'node.example:8545'), false, 'another port is another origin')
  assert.equal(isWebSocketOriginAllowed('http://evil.example:8545', undefined, 'node.example:8545'), false)
  assert.equal(isWebSocketOriginAllowed('file://node.example:8545', undefined, 'node.example:8545'), false)
  assert.equal(isWebSocketOriginAllowed('http://node.example:8545', undefined), false, 'no Host: no same-origin')
})
