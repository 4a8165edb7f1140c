/**
 * Gas of representative sequences per fork, against the EIP tables (EIP-2200's and EIP-3529's SSTORE
 * vectors) and hand-computed sums of the Yellow Paper / EIP-150 / EIP-2929 / EIP-3860 prices.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { CONTRACT, runCode, TestHost } from './test-kit.ts'
import { Status } from './types.ts'
import type { ForkName } from './fork.ts'

const GAS = 1_000_000

function used(fork: ForkName, program: string | Uint8Array, options: Parameters<typeof runCode>[2] = {}): { gas: number; host: TestHost; status: Status; reason?: string } {
  const { result, host } = runCode(fork, program, { gas: GAS, ...options })
  return { gas: (options.gas ?? GAS) - result.gasLeft, host, status: result.status, reason: result.haltReason }
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
}

describe('SSTORE', () => {
  // EIP-2200 (Istanbul): code, gas used, refund, original value of slot 0
  const eip2200: [string, number, number, bigint][] = [
    ['0x60006000556000600055', 1612, 0, 0n],
    ['0x60006000556001600055', 20812, 0, 0n],
    ['0x60016000556000600055', 20812, 19200, 0n],
    ['0x60016000556002600055', 20812, 0, 0n],
    ['0x60016000556001600055', 20812, 0, 0n],
    ['0x60006000556000600055', 5812, 15000, 1n],
    ['0x60006000556001600055', 5812, 4200, 1n],
    ['0x60006000556002600055', 5812, 0, 1n],
    ['0x60026000556000600055', 5812, 15000, 1n],
    ['0x60026000556003600055', 5812, 0, 1n],
    ['0x60026000556001600055', 5812, 4200, 1n],
    ['0x60026000556002600055', 5812, 0, 1n],
    ['0x60016000556000600055', 5812, 15000, 1n],
    ['0x60016000556002600055', 5812, 0, 1n],
    ['0x60016000556001600055', 1612, 0, 1n],
  ]
  for (const [code, gas, refund, original] of eip2200) {
    test(`EIP-2200 ${code} original ${original}`, () => {
      const r = used('istanbul', fromHex(code), { storage: new Map([[0n, original]]) })
      assert.equal(r.status, Status.Success)
      assert.equal(r.gas, gas)
      assert.equal(r.host.refund, refund)
    })
  }
  // EIP-3529 (London), the slot already warm: same sequences
  const eip3529: [string, number, number, bigint][] = [
    ['0x60006000556000600055', 212, 0, 0n],
    ['0x60006000556001600055', 20112, 0, 0n],
    ['0x60016000556000600055', 20112, 19900, 0n],
    ['0x60016000556002600055', 20112, 0, 0n],
    ['0x60016000556001600055', 20112, 0, 0n],
    ['0x60006000556000600055', 3012, 4800, 1n],
    ['0x60006000556001600055', 3012, 2800, 1n],
    ['0x60006000556002600055', 3012, 0, 1n],
    ['0x60026000556000600055', 3012, 4800, 1n],
    ['0x60026000556003600055', 3012, 0, 1n],
    ['0x60026000556001600055', 3012, 2800, 1n],
    ['0x60026000556002600055', 3012, 0, 1n],
    ['0x60016000556000600055', 3012, 4800, 1n],
    ['0x60016000556002600055', 3012, 0, 1n],
    ['0x60016000556001600055', 212, 0, 1n],
  ]
  for (const [code, gas, refund, original] of eip3529) {
    test(`EIP-3529 ${code} original ${original}`, () => {
      const host = new TestHost('london')
      host.warmSlots.add(`${CONTRACT}:0`)
      const r = used('london', fromHex(code), { storage: new Map([[0n, original]]), host })
      assert.equal(r.gas, gas)
      assert.equal(r.host.refund, refund)
    })
  }
  test('a cold slot adds 2100 (Berlin); Frontier prices 20000 / 5000 and refunds 15000', () => {
    assert.equal(used('berlin', fromHex('0x60016000556001600055')).gas, 12 + 2100 + 20000 + 100)
    const set = used('frontier', fromHex('0x60016000556000600055'))
    assert.equal(set.gas, 12 + 20000 + 5000)
    assert.equal(set.host.refund, 15000)
    const reset = used('constantinople', fromHex('0x6001600055'), { storage: new Map([[0n, 5n]]) })
    assert.equal(reset.gas, 6 + 5000)
  })
  test('EIP-2200 sentry: SSTORE with 2300 gas or less left halts', () => {
    // PUSH1 PUSH1 = 6 gas, so 2306 leaves 2300 at SSTORE
    const r = used('istanbul', fromHex('0x6001600055'), { gas: 2306 })
    assert.equal(r.status, Status.Halt)
    assert.equal(r.reason, 'out of gas: not enough gas for reentrancy sentry')
    const ok = used('constantinople', fromHex('0x6000600055'), { gas: 5006 })
    assert.equal(ok.status, Status.Success)
  })
})

describe('access costs per fork', () => {
  const cases: [ForkName, number, number, number][] = [
    // fork, BALANCE, SLOAD, EXTCODESIZE (cold, first touch)
    ['frontier', 20, 50, 20],
    ['tangerineWhistle', 400, 200, 700],
    ['istanbul', 700, 800, 700],
    ['berlin', 2600, 2100, 2600],
  ]
  for (const [fork, balance, sload, extcodesize] of cases) {
    test(`${fork}: BALANCE ${balance}, SLOAD ${sload}, EXTCODESIZE ${extcodesize}`, () => {
      assert.equal(used(fork, 'PUSH1 0x77 BALANCE STOP').gas, 3 + balance)
      assert.equal(used(fork, 'PUSH1 0x07 SLOAD STOP').gas, 3 + sload)
      assert.equal(used(fork, 'PUSH1 0x77 EXTCODESIZE STOP').gas, 3 + extcodesize)
    })
  }
  test('Berlin: the second access is warm (100)', () => {
    assert.equal(used('berlin', 'PUSH1 0x77 BALANCE PUSH1 0x77 BALANCE STOP').gas, 6 + 2600 + 100)
    assert.equal(used('berlin', 'PUSH1 0x07 SLOAD PUSH1 0x07 SLOAD STOP').gas, 6 + 2100 + 100)
    assert.equal(used('berlin', 'PUSH1 0x77 EXTCODEHASH PUSH1 0x77 EXTCODESIZE STOP').gas, 6 + 2600 + 100)
    assert.equal(used('constantinople', 'PUSH1 0x77 EXTCODEHASH STOP').gas, 3 + 400)
  })
})

describe('arithmetic and memory', () => {
  test('EXP: 10 + 10 per exponent byte before Spurious Dragon, 50 after', () => {
    assert.equal(used('homestead', 'PUSH2 0x0100 PUSH1 0x02 EXP STOP').gas, 6 + 10 + 20)
    assert.equal(used('spuriousDragon', 'PUSH2 0x0100 PUSH1 0x02 EXP STOP').gas, 6 + 10 + 100)
    assert.equal(used('cancun', 'PUSH1 0x00 PUSH1 0x02 EXP STOP').gas, 6 + 10)
  })
  test('memory expansion: 3 per word plus words²/512 on the high-water mark', () => {
    // pushes + MSTORE's 3 + one word
    assert.equal(used('cancun', 'PUSH1 0x01 PUSH1 0x00 MSTORE STOP').gas, 6 + 3 + 3)
    // MSTORE at 0x3e0 → 32 words: 96 + 2
    assert.equal(used('cancun', 'PUSH1 0x01 PUSH2 0x03e0 MSTORE STOP').gas, 6 + 3 + 98)
    // then MLOAD below the mark costs nothing more; MSTORE8 at 0x400 grows to 33 words: 99 + 2 - 98 = 3
    assert.equal(used('cancun', 'PUSH1 0x01 PUSH2 0x03e0 MSTORE PUSH1 0x00 MLOAD PUSH1 0x01 PUSH2 0x0400 MSTORE8 STOP').gas, 6 + 3 + 98 + 3 + 3 + 6 + 3 + 3)
    // 1024 words: 3072 + 2048
    assert.equal(used('cancun', 'PUSH2 0x7fe0 MLOAD STOP').gas, 3 + 3 + 3072 + 2048)
    // MSTORE8 at 0x21 → 2 words
    assert.equal(used('cancun', 'MSIZE PUSH1 0x01 PUSH1 0x21 MSTORE8 MSIZE STOP').gas, 2 + 6 + 3 + 6 + 2)
  })
  test('offsets and sizes beyond any gas halt (gas uint64 overflow past geth\'s bound), not a crash', () => {
    const huge = '0x' + 'ff'.repeat(32)
    for (const program of [
      `PUSH32 ${huge} MLOAD`,
      `PUSH1 0x01 PUSH32 ${huge} MSTORE`,
      `PUSH32 ${huge} PUSH1 0x00 PUSH1 0x00 CALLDATACOPY`,
      `PUSH32 ${huge} PUSH1 0x00 RETURN`,
      `PUSH32 ${huge} PUSH1 0x00 KECCAK256`,
      `PUSH32 ${huge} PUSH1 0x00 PUSH1 0x00 MCOPY`,
      `PUSH32 ${huge} PUSH1 0x00 LOG0`,
      `PUSH1 0x00 PUSH1 0x00 PUSH32 ${huge} PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x01 CALL`,
      `PUSH32 ${huge} PUSH1 0x00 PUSH1 0x00 CREATE`,
    ]) {
      const r = used('cancun', program, { gas: 10_000_000 })
      assert.equal(r.status, Status.Halt, program)
      assert.equal(r.reason, 'gas uint64 overflow', program)
      assert.equal(r.gas, 10_000_000)
    }
    // below the bound but beyond the gas: out of gas
    const r = used('cancun', 'PUSH5 0x1000000000 MLOAD', { gas: 10_000_000 })
    assert.equal(r.reason, 'out of gas')
    assert.equal(r.gas, 10_000_000)
    // a zero size never expands, whatever the offset
    assert.equal(used('cancun', `PUSH1 0x00 PUSH32 ${huge} PUSH1 0x00 CALLDATACOPY STOP`).gas, 9 + 3)
    assert.equal(used('cancun', `PUSH1 0x00 PUSH32 ${huge} RETURN`).status, Status.Success)
  })
  test('KECCAK256 30 + 6 per word, copies 3 per word, initcode 2 per word (Shanghai)', () => {
    assert.equal(used('cancun', 'PUSH1 0x21 PUSH1 0x00 KECCAK256 STOP').gas, 6 + 30 + 12 + 6)
    assert.equal(used('cancun', 'PUSH1 0x21 PUSH1 0x00 PUSH1 0x00 CALLDATACOPY STOP').gas, 9 + 3 + 6 + 6)
    // CREATE of 0x21 bytes of zeros (initcode STOP...): 32000 + 2·2 + memory 6, the child returns its gas
    assert.equal(used('shanghai', 'PUSH1 0x21 PUSH1 0x00 PUSH1 0x00 CREATE STOP').gas, 9 + 32000 + 4 + 6)
    assert.equal(used('paris', 'PUSH1 0x21 PUSH1 0x00 PUSH1 0x00 CREATE STOP').gas, 9 + 32000 + 6)
    assert.equal(used('shanghai', 'PUSH1 0x00 PUSH1 0x21 PUSH1 0x00 PUSH1 0x00 CREATE2 STOP').gas, 12 + 32000 + 4 + 12 + 6)
  })
})

describe('CALL pricing', () => {
  const callTo = (target: string, value: string, gas = 'GAS'): string =>
    `PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 ${value} PUSH3 ${target} ${gas} CALL STOP`
  test('Berlin: cold 2600, warm 100; value 9000; new account 25000 only with value (Spurious Dragon)', () => {
    assert.equal(used('berlin', callTo('0x000077', '0x00')).gas, 18 + 2 + 2600)
    // the callee (no code) gives back all its gas, the 2300 stipend included
    assert.equal(used('berlin', callTo('0x000077', '0x01')).gas, 18 + 2 + 2600 + 9000 + 25000 - 2300)
    const host = new TestHost('berlin')
    host.setAccount(0x77n, { balance: 1n })
    assert.equal(used('berlin', callTo('0x000077', '0x01'), { host }).gas, 18 + 2 + 2600 + 9000 - 2300)
  })
  test('before Spurious Dragon a missing callee costs 25000 even without value; Frontier base 40, EIP-150 700', () => {
    // before EIP-150 GAS CALL asks for more than is left: ask for 0
    assert.equal(used('homestead', callTo('0x000077', '0x00', 'PUSH1 0x00')).gas, 18 + 3 + 40 + 25000)
    assert.equal(used('tangerineWhistle', callTo('0x000077', '0x00')).gas, 18 + 2 + 700 + 25000)
    assert.equal(used('spuriousDragon', callTo('0x000077', '0x00')).gas, 18 + 2 + 700)
  })
  test('EIP-150 passes at most all but one 64th; before it the requested gas must be available', () => {
    const { host } = runCode('tangerineWhistle', callTo('0x000077', '0x00', 'PUSH3 0xffffff'), { gas: 100_000 })
    const available = 100_000 - 18 - 3 - 700 - 25000
    assert.equal(host.calls.at(-1)!.gas, available - Math.floor(available / 64))
    const pre = used('homestead', callTo('0x000077', '0x00', 'PUSH3 0xffffff'), { gas: 100_000 })
    assert.equal(pre.status, Status.Halt)
    assert.equal(pre.reason, 'out of gas')
    const { host: valueHost } = runCode('cancun', callTo('0x000077', '0x01', 'PUSH1 0x00'))
    assert.equal(valueHost.calls.at(-1)!.gas, 2300) // the stipend alone
  })
  test('EIP-7702: a call to a delegated account also pays for the delegate (cold 2600, warm 100)', () => {
    const host = new TestHost('prague')
    const designator = Uint8Array.from([0xef, 0x01, 0x00, ...new Array(19).fill(0), 0x99])
    host.setAccount(0x77n, { code: designator })
    assert.equal(used('prague', callTo('0x000077', '0x00'), { host }).gas, 18 + 2 + 2600 + 2600)
    const warmHost = new TestHost('prague')
    warmHost.setAccount(0x77n, { code: designator })
    warmHost.warmAccounts.add(0x99n)
    assert.equal(used('prague', callTo('0x000077', '0x00'), { host: warmHost }).gas, 18 + 2 + 2600 + 100)
    const cancunHost = new TestHost('cancun')
    cancunHost.setAccount(0x77n, { code: designator })
    // before Prague the designator is plain code (0xef halts the callee, which burns what it was given)
    const cancun = used('cancun', callTo('0x000077', '0x00'), { host: cancunHost })
    assert.equal(cancun.gas, 18 + 2 + 2600 + cancun.host.calls.at(-1)!.gas)
  })
})

describe('SELFDESTRUCT pricing', () => {
  test('per fork: 0 in Frontier, 5000 + 25000 new beneficiary from EIP-150, cold +2600 from Berlin, refund 24000 before London', () => {
    const frontier = used('frontier', 'PUSH1 0x77 SELFDESTRUCT')
    assert.equal(frontier.gas, 3)
    assert.equal(frontier.host.refund, 24000)
    assert.equal(used('tangerineWhistle', 'PUSH1 0x77 SELFDESTRUCT').gas, 3 + 5000 + 25000)
    const berlin = used('berlin', 'PUSH1 0x77 SELFDESTRUCT')
    assert.equal(berlin.gas, 3 + 5000 + 2600 + 25000)
    assert.equal(berlin.host.refund, 24000)
    const london = used('london', 'PUSH1 0x77 SELFDESTRUCT')
    assert.equal(london.gas, 3 + 5000 + 2600 + 25000)
    assert.equal(london.host.refund, 0)
    // warm existing beneficiary (the contract itself), balance moves nowhere new
    assert.equal(used('london', `PUSH3 0x${CONTRACT.toString(16)} SELFDESTRUCT`).gas, 3 + 5000)
  })
})
