/**
 * LmdbStore over a real directory: any directory name opens as a directory, including one whose name looks
 * like a file with an extension (`chain.v2`, mkdtemp's `tmp.Xa81`), and what was committed is there after a
 * reopen.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LmdbStore } from './db.ts'

for (const name of ['chain.v2', 'tmp.Xa81', '.flashnode', 'plain']) {
  test(`a data directory named ${name} opens, keeps its data inside it, and reopens`, async (t) => {
    const dir = join(tempDir(t), name)
    const key = new Uint8Array([1, 2, 3])
    const first = new LmdbStore(dir)
    const batch = first.batch()
    batch.put(key, new Uint8Array([42]))
    first.commit(batch)
    await first.close()

    assert.ok(statSync(dir).isDirectory())
    assert.ok(readdirSync(dir).includes('data.mdb'), `the database file is inside ${name}/`)
    const again = new LmdbStore(dir)
    t.after(() => again.close())
    assert.deepEqual([...(again.get(key) ?? [])], [42])
  })
}
