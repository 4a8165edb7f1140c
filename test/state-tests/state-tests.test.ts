/**
 * The Ethereum state tests (../shared/ethereum-tests/GeneralStateTests) through our EVM: first shard.
 * The others are state-tests.shard<N>.test.ts; shard.ts says how the corpus is split and filtered.
 */

import { defineShard } from './shard.ts'

defineShard(0)
