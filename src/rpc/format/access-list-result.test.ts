import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatAccessListResult } from './access-list-result.ts'

const ADDR = new Uint8Array(20).fill(0xbb)
const KEY = new Uint8Array(32).fill(0x01)

test('eth_createAccessList result: error only when the call failed', () => {
  const ok = formatAccessListResult({ accessList: [{ address: ADDR, storageKeys: [KEY] }], gasUsed: 0x5208n })
  assert.deepEqual(ok, { accessList: [{ address: `0x${'bb'.repeat(20)}`, storageKeys: [`0x${'01'.repeat(32)}`] }], gasUsed: '0x5208' })
  const failed = formatAccessListResult({ accessList: [], gasUsed: 0x6000n, error: 'execution reverted' })
  assert.deepEqual(Object.keys(failed), ['accessList', 'error', 'gasUsed'])
  assert.equal(failed.error, 'execution reverted')
})
