/**
 * The floor of the intake: µs of CPU per sender recovery, through the node's own path (execution/crypto.ts
 * nativeEcrecover: the secp256k1 package's native binding), one thread, over signatures that differ call to
 * call (200 keys and messages, signed with the same binding). Every accepted eth_sendRawTransaction pays one
 * on a recovery worker, so `rate × this` is the CPU the signatures alone take.
 *   nice node --import tsx bench/recover-cost.ts [calls]
 */

import { createRequire } from 'node:module'
import { randomBytes } from 'node:crypto'
import { nativeEcrecover } from '../src/execution/crypto.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

const calls = Number(process.argv[2] ?? 20_000)
const signed = Array.from({ length: 200 }, () => {
  const key = randomBytes(32)
  const msg = randomBytes(32)
  const { signature, recid } = secp256k1.ecdsaSign(msg, key)
  return { msg, v: BigInt(27 + recid), r: signature.subarray(0, 32), s: signature.subarray(32, 64) }
})
for (let round = 1; round <= 3; round++) {
  const before = process.cpuUsage()
  for (let i = 0; i < calls; i++) {
    const x = signed[i % signed.length]!
    nativeEcrecover(x.msg, x.v, x.r, x.s)
  }
  const used = process.cpuUsage(before)
  console.log(`round ${round}: ${((used.user + used.system) / calls).toFixed(1)} µs of CPU per recovery (${calls} calls)`)
}
