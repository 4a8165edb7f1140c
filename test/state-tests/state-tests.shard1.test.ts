/** The Ethereum state tests through our EVM: second shard (see shard.ts). */

import { defineShard } from './shard.ts'

defineShard(1)
