/**
 * Typed errors shared by every layer.
 *
 * Services throw `FlashnodeError` with a `kind`; they never pick JSON-RPC codes. The one table that turns
 * kinds into codes lives in `rpc/error-codes.ts` and is checked for completeness by the compiler (it is a
 * `Record<ErrorKind, …>`). Messages follow geth's wording because clients (viem, ethers) classify errors by
 * their text. `data` carries machine-readable detail (e.g. revert bytes as 0x-hex).
 *
 * Never throw object literals; never put a stack trace in a message.
 */

export const ERROR_KINDS = [
  /** A parameter failed validation. Message names the argument: `invalid argument 0: …`. */
  'invalidParams',
  /** The request envelope is not a valid JSON-RPC request. */
  'invalidRequest',
  /** Unknown method, or a method not served on this endpoint. */
  'methodNotFound',
  /** A method the node serves, refused by this endpoint's profile (eth_getBlockReceipts on public: HTTP 403). */
  'forbidden',
  /** The EVM reverted; `data` holds the revert bytes. */
  'executionReverted',
  /** Another EVM failure (out of gas, invalid opcode, …) or a call precondition (insufficient funds, …). */
  'executionFailed',
  /** A transaction was refused by the pool (nonce too low, already known, underpriced, …). */
  'transactionRejected',
  /** Execution ran past its time limit. */
  'executionTimeout',
  /** The request ran past its deadline. */
  'requestTimeout',
  /** The named block / transaction does not exist where existence is required. */
  'notFound',
  /** A configured limit was exceeded (batch size, response size, simulate limits, …). */
  'limitExceeded',
  /** A response grew past the configured response limit. */
  'responseTooLarge',
  /** Something went wrong inside the node; the message is safe to show, details are logged. */
  'internal',
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

export class FlashnodeError extends Error {
  readonly kind: ErrorKind
  readonly data: unknown
  /** Overrides the code the kind maps to (eth_simulateV1's -380xx, the revert code setting, …). */
  readonly code: number | undefined

  constructor(kind: ErrorKind, message: string, opts: { data?: unknown; code?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'FlashnodeError'
    this.kind = kind
    this.data = opts.data
    this.code = opts.code
  }
}

export const invalidParams = (message: string): FlashnodeError => new FlashnodeError('invalidParams', message)

export const invalidArgument = (index: number, reason: string): FlashnodeError =>
  new FlashnodeError('invalidParams', `invalid argument ${index}: ${reason}`)

export const internalError = (message: string, cause?: unknown): FlashnodeError =>
  new FlashnodeError('internal', message, { cause })

export const isFlashnodeError = (e: unknown): e is FlashnodeError => e instanceof FlashnodeError
