/**
 * Recovers the sender and the gas figures of the everyday transaction shapes without building the library's
 * transaction object (prepared.ts assembles the record either way): a legacy,
 * access-list or EIP-1559 call or transfer to an address, with an empty access list. For these, the signing
 * message is the decoded fields re-encoded (EIP-155 / EIP-2718), the sender comes from the native ecrecover,
 * and the gas figures are the calldata counts times the fork's parameters. That is ~70 µs less per
 * transaction than the library path on an admission worker, where every transaction pays it.
 *
 * Exactness is by refusal, not by imitation of error wording: `recoverDirect` answers undefined for
 * anything it does not take (other types, creations, access lists, forks with gas rules beyond Prague's
 * and Osaka's, and every value the library's constructor or signature check would refuse), and the caller
 * then takes the library path, which throws or builds as before. So what this answers is what the library
 * path would have made, field for field (direct-prepare.test.ts checks both paths against each other).
 * Never: admission checks (validate.ts), state, or wording errors.
 */

import type { Common } from '@ethereumjs/common'
import { RLP, type NestedUint8Array } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import { nativeEcrecover } from '../execution/crypto.ts'
import { bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import type { ParsedTx } from './decode.ts'
import type { Recovered } from './prepared.ts'

const MAX_UINT64 = (1n << 64n) - 1n
const MAX_UINT256 = (1n << 256n) - 1n
/** secp256k1's group order over two: a higher `s` is refused from Homestead on (EIP-2). */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/** What the direct path needs of a fork, read from its Common once. */
interface ForkGas {
  /** False where the fork prices transactions in ways this module does not compute. */
  readonly supported: boolean
  readonly chainId: bigint
  readonly typed1: boolean
  readonly typed2: boolean
  readonly txGas: bigint
  readonly zeroByteGas: bigint
  readonly nonZeroByteGas: bigint
  /** EIP-7623's price per calldata token, or undefined before Prague. */
  readonly floorPerToken: bigint | undefined
  /** EIP-7825's cap on a transaction's gas limit, or undefined before Osaka. */
  readonly maxTxGas: bigint | undefined
}

const forkGas = new WeakMap<Common, ForkGas>()

function gasOf(common: Common): ForkGas {
  let g = forkGas.get(common)
  if (g === undefined) {
    const on = (eip: number): boolean => common.isActivatedEIP(eip)
    g = {
      // EIP-2780 (recipient gas), 7976/7981 (floor tokens) and 8037 (state gas) change these figures.
      supported: common.gteHardfork('spuriousDragon') && ![2780, 7976, 7981, 8037].some(on),
      chainId: common.chainId(),
      typed1: on(2930),
      typed2: on(1559),
      txGas: common.param('txGas'),
      zeroByteGas: common.param('txDataZeroGas'),
      nonZeroByteGas: common.param('txDataNonZeroGas'),
      floorPerToken: on(7623) ? common.param('totalCostFloorPerToken') : undefined,
      maxTxGas: on(7825) ? common.param('maxTransactionGasLimit') : undefined,
    }
    forkGas.set(common, g)
  }
  return g
}

/** The sender and gas figures of `parsed` under `common`'s fork, or undefined: then the library path decides. */
export function recoverDirect(parsed: ParsedTx, common: Common): Recovered | undefined {
  const g = gasOf(common)
  if (!g.supported || parsed.to === undefined || parsed.type > 2) return undefined
  if ((parsed.type === 1 && !g.typed1) || (parsed.type === 2 && !g.typed2)) return undefined
  if (parsed.nonce === MAX_UINT64 || parsed.gasLimit * parsed.feeCap > MAX_UINT256) return undefined
  if (parsed.tipCap > parsed.feeCap) return undefined
  if (g.maxTxGas !== undefined && parsed.gasLimit > g.maxTxGas) return undefined
  const signed = signedMessage(parsed, g.chainId)
  if (signed === undefined) return undefined
  let publicKey: Uint8Array
  try {
    publicKey = nativeEcrecover(keccak256(signed.message), signed.recovery, signed.r, signed.s)
  } catch {
    return undefined
  }
  const sender = keccak256(publicKey).slice(12)
  const data = parsed.values[parsed.type === 0 ? 5 : parsed.type + 5] as Uint8Array
  let zeros = 0
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  const nonZeros = data.length - zeros
  return {
    sender,
    senderHex: bytesToHex(sender),
    senderPublicKey: publicKey,
    intrinsicGas: g.txGas + BigInt(zeros) * g.zeroByteGas + BigInt(nonZeros) * g.nonZeroByteGas,
    floorDataGas: g.floorPerToken === undefined ? 0n : g.txGas + g.floorPerToken * BigInt(zeros + 4 * nonZeros),
  }
}

interface SignedMessage {
  /** The bytes whose keccak was signed. */
  readonly message: Uint8Array
  readonly recovery: bigint
  readonly r: Uint8Array
  readonly s: Uint8Array
}

/**
 * The signing preimage and signature of a decoded transaction, or undefined for what the library would refuse
 * or treats otherwise: a typed transaction of another chain, a non-empty access list, a y-parity other than
 * 0/1, a legacy `v` that is neither 27/28 nor EIP-155 for this chain, or a high `s`.
 * The decoder checked the integers are canonical, so re-encoding the decoded fields gives the library's bytes.
 */
function signedMessage(parsed: ParsedTx, chainId: bigint): SignedMessage | undefined {
  const v = parsed.values as Uint8Array[]
  const n = v.length
  const r = v[n - 2]!
  const s = v[n - 1]!
  if (bytesToBigInt(s) > HALF_ORDER) return undefined
  const sigV = bytesToBigInt(v[n - 3]!)
  if (parsed.type === 0) {
    if (sigV === 27n || sigV === 28n) return { message: RLP.encode(v.slice(0, 6)), recovery: sigV - 27n, r, s }
    const recovery = sigV - chainId * 2n - 35n
    if (recovery !== 0n && recovery !== 1n) return undefined
    return { message: RLP.encode([...v.slice(0, 6), bigIntToUnpaddedBytes(chainId), new Uint8Array(), new Uint8Array()]), recovery, r, s }
  }
  if (parsed.chainId !== chainId || sigV > 1n) return undefined
  const accessList = (parsed.values as NestedUint8Array)[n - 4] as NestedUint8Array
  if (accessList.length !== 0) return undefined
  const body = RLP.encode(v.slice(0, n - 3))
  const message = new Uint8Array(body.length + 1)
  message[0] = parsed.type
  message.set(body, 1)
  return { message, recovery: sigV, r, s }
}
