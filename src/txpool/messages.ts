/**
 * The rejection texts of the pool, worded exactly as geth words them (core/txpool/errors.go, core/error.go,
 * core/txpool/validation.go, core/txpool/legacypool, internal/ethapi), because clients (viem, ethers) classify
 * errors by message text.
 *
 * Owns: the wording and the number formatting (decimal integers; Go's `%.2f` for ether amounts).
 * Every function returns a `TransactionRejected` (a FlashnodeError of kind `transactionRejected`, -32000 at the
 * rpc layer) named by its key here, except
 * `undecodable()`, which is an invalid-params error (-32602). Never put state or policy here: only text.
 */

import { FlashnodeError } from '../errors/errors.ts'

/** A refusal of the pool, with the name of its rule (a bounded label: the metrics count admissions by it). */
export class TransactionRejected extends FlashnodeError {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super('transactionRejected', message)
  }
}

const reject = (reason: string, message: string): TransactionRejected => new TransactionRejected(reason, message)

export const rejections = {
  alreadyKnown: () => reject('alreadyKnown', 'already known'),
  replaceUnderpriced: () => reject('replaceUnderpriced', 'replacement transaction underpriced'),
  underpriced: () => reject('underpriced', 'transaction underpriced'),
  poolFull: () => reject('poolFull', 'txpool is full'),
  futureReplacePending: () => reject('futureReplacePending', 'future transaction tries to replace pending'),
  accountLimit: (pooled: number) => reject('accountLimit', `account limit exceeded: pooled ${pooled} txs`),
  nonceTooLow: (next: bigint, nonce: bigint) => reject('nonceTooLow', `nonce too low: next nonce ${next}, tx nonce ${nonce}`),
  nonceMax: () => reject('nonceMax', 'nonce has max value'),
  insufficientFunds: (balance: bigint, cost: bigint) =>
    reject('insufficientFunds', `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`),
  insufficientFundsQueued: (balance: bigint, queued: bigint, cost: bigint) =>
    reject('insufficientFundsQueued', 
      `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx cost ${cost}, overshot ${queued + cost - balance}`,
    ),
  insufficientFundsBumped: (balance: bigint, queued: bigint, bump: bigint) =>
    reject('insufficientFundsBumped', 
      `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx bumped ${bump}, overshot ${queued + bump - balance}`,
    ),
  intrinsicGas: (gas: bigint, needed: bigint) => reject('intrinsicGas', `intrinsic gas too low: gas ${gas}, minimum needed ${needed}`),
  floorDataGas: (gas: bigint, needed: bigint) =>
    reject('floorDataGas', `insufficient gas for floor data gas cost: gas ${gas}, minimum needed ${needed}`),
  blockGasLimit: () => reject('blockGasLimit', 'exceeds block gas limit'),
  gasLimitTooHigh: (cap: bigint, gas: bigint) => reject('gasLimitTooHigh', `transaction gas limit too high (cap: ${cap}, tx: ${gas})`),
  tipAboveFeeCap: () => reject('tipAboveFeeCap', 'max priority fee per gas higher than max fee per gas'),
  feeCapBelowBaseFee: (sender: string, feeCap: bigint, baseFee: bigint) =>
    reject('feeCapBelowBaseFee', `max fee per gas less than block base fee: address ${sender}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`),
  tipBelowMinimum: (tip: bigint, min: bigint) =>
    reject('tipBelowMinimum', `transaction gas price below minimum: gas tip cap ${tip}, minimum needed ${min}`),
  blobFeeBelowMinimum: (fee: bigint, min: bigint) =>
    reject('blobFeeBelowMinimum', `transaction gas price below minimum: blob fee cap ${fee}, minimum needed ${min}`),
  invalidChainId: (have: bigint, want: bigint) =>
    reject('invalidChainId', `invalid sender: invalid chain id for signer: have ${have} want ${want}`),
  invalidSignature: () => reject('invalidSignature', 'invalid sender: invalid transaction v, r, s values'),
  unprotected: () => reject('unprotected', 'only replay-protected (EIP-155) transactions allowed over RPC'),
  typeNotSupported: () => reject('typeNotSupported', 'transaction type not supported'),
  typeNotActive: (type: number, fork: string) =>
    reject('typeNotActive', `transaction type not supported: type ${type} rejected, pool not yet in ${fork}`),
  oversized: (size: number, limit: number) => reject('oversized', `oversized data: transaction size ${size}, limit ${limit}`),
  initCodeTooLarge: (size: number, limit: bigint) =>
    reject('initCodeTooLarge', `max initcode size exceeded: code size ${size} limit ${limit}`),
  feeCapExceeded: (feeEther: number, capEther: number) =>
    reject('feeCapExceeded', `tx fee (${goFixed2(feeEther)} ether) exceeds the configured cap (${goFixed2(capEther)} ether)`),
  missingSidecar: () => reject('missingSidecar', 'missing sidecar in blob transaction'),
  blobLimit: (count: number, limit: number) =>
    reject('blobLimit', `transaction blob limit exceeded: blob count ${count}, limit ${limit}`),
  blobHashCount: (commitments: number, hashes: number) =>
    reject('blobHashCount', `invalid number of ${commitments} blob commitments compared to ${hashes} blob hashes`),
  sidecarVersion: (want: number, got: number) =>
    reject('sidecarVersion', `Wrong sidecar format: unexpected sidecar version, want: ${want}, got: ${got}`),
  kzg: (detail: string) => reject('kzg', `KZG verification error: ${detail}`),
  emptyAuthList: () => reject('emptyAuthList', 'set code tx must have at least one authorization tuple'),
} as const

/** -32602: the bytes are not a signed transaction. */
export const undecodable = (): FlashnodeError =>
  new FlashnodeError('invalidParams', 'failed to decode signed transaction')

/**
 * Go's `fmt.Sprintf("%.2f", x)` for a finite x (a fee in ether: at most about 2e78): correct rounding of the
 * double's exact value, ties to even (JS `toFixed` rounds exact ties up), and plain digits however large (JS
 * switches to exponent form at 1e21).
 */
export function goFixed2(x: number): string {
  if (Math.abs(x) >= 1e21) return `${BigInt(x)}.00` // a double this large is an integer
  // An exact tie (x*100 = k + 1/2) needs x = j/8 with j odd: 25 must divide the numerator of k/200 for a
  // double to hold it. Multiplying by 8 is exact, so this test is too.
  const eighths = x * 8
  if (Number.isInteger(eighths) && eighths % 2 !== 0) {
    const down = Math.floor(x * 100)
    const even = down % 2 === 0 ? down : down + 1
    return (even / 100).toFixed(2)
  }
  return x.toFixed(2)
}
