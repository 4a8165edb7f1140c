/**
 * The transaction pool's public surface: admission and the pool data structure (see pool.ts).
 */

export { TxPool, type AddResult, type DropReason, type NewStateOptions, type PoolEvents, type TxPoolOptions, type TxStatus } from './pool.ts'
export { BestTxs } from './best.ts'
export { DEFAULT_POOL_CONFIG, resolvePoolConfig, type PoolConfig } from './config.ts'
export { decodeTx, materialize, parseTx, type ParsedTx, type PooledTx, type TxFields } from './decode.ts'
export type { AdmissionRules, PendingEnv } from './validate.ts'
export { TransactionRejected } from './messages.ts'
