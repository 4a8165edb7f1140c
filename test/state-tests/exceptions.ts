/**
 * What an expected exception of the state tests means in our EVM's words. A fixture's `expectException`
 * names one or more of execution-spec-tests' TransactionException values (`A|B`: either will do); our EVM
 * refuses a transaction with geth's error text (src/evm/transaction.ts), so each name maps onto the start of
 * the texts geth gives for that refusal. A refusal whose text matches none of the expected names' texts is a
 * failure: the transaction was refused, but for another reason.
 *
 * A transaction that no encoding can hold (build.ts TxBuildError: a field past 256 bits) meets only the
 * names that are about its encoding or about such a value.
 *
 * A name missing from this table is reported as unknown (never passed), so a new corpus's names show up as
 * failures to map rather than as silent passes.
 */

/** Each exception name onto the refusal texts (their starts) that mean it. */
const REASONS: Readonly<Record<string, readonly RegExp[]>> = {
  INSUFFICIENT_ACCOUNT_FUNDS: [/^insufficient funds for gas \* price \+ value/, /^insufficient funds for transfer/],
  INTRINSIC_GAS_TOO_LOW: [/^intrinsic gas too low/],
  INTRINSIC_GAS_BELOW_FLOOR_GAS_COST: [/^insufficient gas for floor data gas cost/],
  SENDER_NOT_EOA: [/^sender not an eoa/],
  NONCE_IS_MAX: [/^nonce has max value/],
  INSUFFICIENT_MAX_FEE_PER_GAS: [/^max fee per gas less than block base fee/],
  PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS: [/^max priority fee per gas higher than max fee per gas/],
  INSUFFICIENT_MAX_FEE_PER_BLOB_GAS: [/^max fee per blob gas less than block blob gas fee/],
  INITCODE_SIZE_EXCEEDED: [/^max initcode size exceeded/],
  GAS_ALLOWANCE_EXCEEDED: [/^gas limit reached/],
  GAS_LIMIT_EXCEEDS_MAXIMUM: [/^transaction gas limit too high/],
  TYPE_3_TX_PRE_FORK: [/^transaction type not supported/],
  TYPE_3_TX_ZERO_BLOBS: [/^blob transaction missing blob hashes/],
  TYPE_3_TX_CONTRACT_CREATION: [/^blob transaction of type create/],
  TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH: [/^blob \d+ has invalid hash version/],
  // Past the per-transaction cap (EIP-7594, Osaka) or, before it, past the block's blob gas.
  TYPE_3_TX_BLOB_COUNT_EXCEEDED: [/^blob transaction has too many blobs/, /^blob gas limit reached/],
  // From Osaka a transaction past the block's blob gas (9 blobs) is past the per-transaction cap (6) too,
  // which geth checks first.
  TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED: [/^blob gas limit reached/, /^blob transaction has too many blobs/],
  TYPE_4_TX_CONTRACT_CREATION: [/^EIP-7702 transaction cannot be used to create contract/],
  TYPE_4_EMPTY_AUTHORIZATION_LIST: [/^EIP-7702 transaction with empty auth list/],
  TYPE_4_TX_PRE_FORK: [/^transaction type not supported/],
}

/** Names an unencodable transaction (TxBuildError) may stand for. */
const ENCODING_NAMES: ReadonlySet<string> = new Set(['RLP_INVALID_VALUE', 'GASLIMIT_PRICE_PRODUCT_OVERFLOW', 'INSUFFICIENT_ACCOUNT_FUNDS'])

function names(expected: string): string[] {
  return expected.split('|').map((n) => n.trim().replace(/^TransactionException\./, ''))
}

/**
 * Why a refusal with text `reason` does not meet `expected`, or undefined when it does. `reason` undefined
 * means the transaction could not be encoded at all.
 */
export function exceptionMismatch(expected: string, reason: string | undefined): string | undefined {
  const wanted = names(expected)
  const unknown = wanted.filter((n) => REASONS[n] === undefined && !ENCODING_NAMES.has(n))
  if (unknown.length === wanted.length) return `expected ${expected}: no refusal text is known for ${unknown.join(', ')} (exceptions.ts)`
  if (reason === undefined) {
    return wanted.some((n) => ENCODING_NAMES.has(n)) ? undefined : `expected ${expected}, but the transaction could not be encoded`
  }
  const met = wanted.some((n) => (REASONS[n] ?? []).some((text) => text.test(reason)))
  return met ? undefined : `expected ${expected}, refused for another reason: ${reason}`
}
