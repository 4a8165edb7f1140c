import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FlashnodeError } from '../../errors/errors.ts'
import { RequestScope } from './request-scope.ts'

const timeout = (): FlashnodeError => new FlashnodeError('requestTimeout', 'request timed out')

test('listeners run once with the first reason; later aborts change nothing', () => {
  const scope = new RequestScope()
  const seen: string[] = []
  scope.onAbort((r) => seen.push(`a:${r.message}`))
  scope.onAbort((r) => seen.push(`b:${r.message}`))
  scope.abort(timeout())
  scope.abort(new FlashnodeError('internal', 'second'))
  assert.deepEqual(seen, ['a:request timed out', 'b:request timed out'])
  assert.equal(scope.reason?.message, 'request timed out')
})

test('a removed listener does not run; one added after the abort runs at once', () => {
  const scope = new RequestScope()
  let removedRan = false
  const remove = scope.onAbort(() => (removedRan = true))
  remove()
  scope.abort()
  assert.equal(removedRan, false)
  let lateRan = false
  scope.onAbort(() => (lateRan = true))
  assert.equal(lateRan, true)
})

test('the AbortSignal follows the scope whether it is made before or after the abort', () => {
  const early = new RequestScope()
  const signal = early.signal
  assert.equal(signal.aborted, false)
  early.abort(timeout())
  assert.equal(signal.aborted, true)
  assert.equal((signal.reason as Error).message, 'request timed out')

  const late = new RequestScope()
  late.abort(timeout())
  assert.equal(late.signal.aborted, true)
})

test('a child aborts with its parent, the parent not with its child', () => {
  const parent = new RequestScope()
  const overflowing = parent.child()
  overflowing.abort(new FlashnodeError('responseTooLarge', 'response too large'))
  assert.equal(parent.aborted, false)

  const siblings = [parent.child(), parent.child(), parent.child()]
  parent.abort(timeout())
  for (const child of siblings) assert.equal(child.reason?.message, 'request timed out')
  assert.equal(overflowing.reason?.message, 'response too large')
})

test('follow: an external signal aborts the scope, with its reason when it is a FlashnodeError', () => {
  const controller = new AbortController()
  const scope = new RequestScope()
  scope.follow(controller.signal)
  controller.abort()
  assert.equal(scope.reason?.message, 'request aborted')

  const already = new AbortController()
  already.abort(timeout())
  const second = new RequestScope()
  second.follow(already.signal)
  assert.equal(second.reason?.message, 'request timed out')
})

test('follow: once unfollowed, the external signal holds no listener and no longer aborts the scope', () => {
  const connection = new AbortController()
  let listeners = 0
  const signal = connection.signal
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++
    add(...args)
  }) as typeof signal.addEventListener
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners--
    remove(...args)
  }) as typeof signal.removeEventListener

  for (let i = 0; i < 100; i++) new RequestScope().follow(signal)()
  assert.equal(listeners, 0, 'a finished request leaves nothing behind on a long-lived connection')
  const finished = new RequestScope()
  finished.follow(signal)()
  connection.abort()
  assert.equal(finished.aborted, false)
})
