/**
 * The Ethereum state tests (../shared/ethereum-tests/GeneralStateTests, Cancun-era) through our EVM: first
 * shard. The second is state-tests.shard1.test.ts; shard.ts says how a corpus is split and filtered.
 */

import { CANCUN_CORPUS } from './fixtures.ts'
import { CANCUN_SHARDS, defineShard } from './shard.ts'

defineShard('Ethereum state tests (Cancun corpus)', CANCUN_CORPUS, 0, CANCUN_SHARDS)
