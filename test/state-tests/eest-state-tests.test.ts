/**
 * execution-spec-tests' Prague and Osaka state tests (../shared/eest-state-tests, v5.4.0) through our EVM,
 * by the same runner as the Cancun corpus: every post check, each expected refusal for its reason.
 */

import { EEST_CORPUS } from './fixtures.ts'
import { defineShard } from './shard.ts'

defineShard('Prague and Osaka state tests (execution-spec-tests)', EEST_CORPUS, 0, 1)
