import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { LogFields, Logger } from '../primitives/logger.ts'
import { clock, figures, progressLine, startProgress, type ProgressTerminal } from './progress.ts'

function fakeTerminal(isTTY: boolean, columns = 100): ProgressTerminal & { text: string } {
  return {
    isTTY,
    columns,
    text: '',
    write(s: string) {
      this.text += s
      return true
    },
  }
}

function fakeLog(): Logger & { lines: { fields: LogFields; message: string }[] } {
  const lines: { fields: LogFields; message: string }[] = []
  const info = (fields: LogFields, message: string) => void lines.push({ fields, message })
  return { lines, info, debug: info, warn: info, error: info }
}

test('figures: percent, rate since the start, time left at that rate', () => {
  assert.deepEqual(figures(250, 1000, 5_000), { done: 250, total: 1000, percent: 25, rate: 50, etaSeconds: 15, elapsedSeconds: 5 })
  assert.deepEqual(figures(0, 1000, 5_000), { done: 0, total: 1000, percent: 0, rate: null, etaSeconds: null, elapsedSeconds: 5 })
  assert.equal(figures(1, 3, 0).rate, null, 'no time passed: no rate')
  assert.equal(figures(0, 0, 10).percent, 100, 'nothing to do is done')
  assert.equal(clock(75), '1:15')
  assert.equal(clock(3725), '1:02:05')
  assert.equal(clock(0.4), '0:00')
})

test('the terminal line: a bar as wide as the room allows, the figures, never wider than the terminal', () => {
  const line = progressLine('import a.rlp', 'blocks', figures(500, 1000, 4_000), 120)
  assert.match(line, /^import a\.rlp \[#{20}-{20}\]  50\.0%  500\/1000 blocks  125 blocks\/s  ETA 0:04$/)
  const narrow = progressLine('import a.rlp', 'blocks', figures(500, 1000, 4_000), 60)
  assert.ok(narrow.length <= 60, narrow)
  assert.doesNotMatch(narrow, /\[/, 'no room for a bar: the figures alone')
})

test('on a terminal: one line redrawn in place at most every 100 ms, then a newline; nothing logged', () => {
  let now = 0
  const terminal = fakeTerminal(true)
  const log = fakeLog()
  const p = startProgress({ job: 'import a.rlp', total: 100, unit: 'blocks', terminal, log, now: () => now })
  for (let done = 1; done <= 100; done++) {
    now += 10 // a block every 10 ms: 100 updates over 1 s
    p.update(done)
  }
  p.finish()
  const draws = terminal.text.split('\r').filter((s) => s !== '')
  assert.equal(draws.length, 10 + 1, 'every 100 ms, and the final one')
  assert.ok(draws.every((d) => d.endsWith('\x1b[K') || d.endsWith('\x1b[K\n')), 'each clears the rest of the line')
  assert.match(draws.at(-1)!, /100\.0%  100\/100 blocks  100 blocks\/s  ETA 0:00\x1b\[K\n$/)
  assert.match(draws[4]!, / 50\.0%  50\/100 blocks  100 blocks\/s  ETA 0:01/)
  assert.equal(log.lines.length, 0)
  p.update(100)
  assert.equal(terminal.text.split('\r').length - 1, 11, 'nothing after finish')
})

test('a terminal that reports no width (0 columns, as some pseudo-terminals do) is drawn 80 wide', () => {
  const terminal = fakeTerminal(true, 0)
  const p = startProgress({ job: 'import a.rlp', total: 10, unit: 'blocks', terminal, log: fakeLog(), now: () => 1_000 })
  p.finish(5)
  assert.match(terminal.text, /^\rimport a\.rlp \[#+-+\]  50\.0%/)
})

test('elsewhere: a log line every 5 s or every tenth of the work, whichever comes first, and a last one', () => {
  let now = 0
  const terminal = fakeTerminal(false)
  const log = fakeLog()
  const p = startProgress({ job: 'import a.rlp', total: 1000, unit: 'blocks', terminal, log, now: () => now })
  // Slow at first (a block per 100 ms: the 5 s rule), then fast (a block per ms: the tenth rule).
  for (let done = 1; done <= 100; done++) {
    now += 100
    p.update(done)
  }
  for (let done = 101; done <= 1000; done++) {
    now += 1
    p.update(done)
  }
  p.finish()
  assert.equal(terminal.text, '', 'nothing drawn')
  const done = log.lines.map((l) => l.fields.done)
  assert.deepEqual(done, [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1000])
  assert.deepEqual(log.lines.map((l) => l.message), [...Array(11).fill('progress'), 'done'])
  assert.deepEqual(log.lines[0]!.fields, { job: 'import a.rlp', unit: 'blocks', done: 50, total: 1000, percent: 5, rate: 10, etaSeconds: 95, elapsedSeconds: 5 })
  assert.equal(log.lines.at(-1)!.fields.percent, 100)
  assert.equal(log.lines.at(-1)!.fields.etaSeconds, 0)
})
