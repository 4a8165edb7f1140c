import { test } from 'node:test'
import assert from 'node:assert/strict'
import { acceptsHtml } from './accept.ts'

test('a browser\'s Accept asks for HTML; curl, JSON clients and q=0 do not', () => {
  assert.equal(acceptsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8'), true)
  assert.equal(acceptsHtml('application/json, TEXT/HTML;q=0.5'), true)
  assert.equal(acceptsHtml(undefined), false)
  assert.equal(acceptsHtml('*/*'), false)
  assert.equal(acceptsHtml('application/json'), false)
  assert.equal(acceptsHtml('text/*'), false)
  assert.equal(acceptsHtml('text/html;q=0'), false)
  assert.equal(acceptsHtml('text/htmlx'), false)
})
