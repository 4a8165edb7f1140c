/** The Ethereum state tests (Cancun corpus) through our EVM: second shard (see shard.ts). */

import { CANCUN_CORPUS } from './fixtures.ts'
import { CANCUN_SHARDS, defineShard } from './shard.ts'

defineShard('Ethereum state tests (Cancun corpus)', CANCUN_CORPUS, 1, CANCUN_SHARDS)
