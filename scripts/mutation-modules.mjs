/**
 * The mutation run's modules (`npm run test:mutation`, scripts/mutation.mjs): for each, the source files
 * Stryker mutates and the test files that may kill their mutants.
 *
 * Each list is the module's own unit tests plus, where the module is only reached through the node (the
 * sequencer, the resolver), the tests that drive it through the node's public interface (in-process servers;
 * no child process). The lists are kept short: a surviving mutant runs every test file of the list that
 * executed it, and one end-to-end file costs 5 to 15 s per mutant on this machine. Within a list Stryker
 * runs, for each mutant, only the test files that executed its code in the dry run (coverage per test file).
 * Left out, and why:
 * - test/e2e/crash.test.ts, test/e2e/durability.test.ts, test/e2e/endpoints-cli.test.ts: they run the node
 *   in child processes; a child
 *   loads the mutated code, but its coverage is not reported back, so Stryker would never pick them for a
 *   mutant (and the crash test alone takes a minute).
 * - src/txpool/test-kit.ts, src/txpool/pool.bench.ts: test and benchmark helpers, not the pool.
 * Files moved by issue 16 keep their lists: the snapshot (now src/preconf/snapshot.ts) the sequencer's; its
 * views (src/preconf/views.ts) and what replaced node/pending.ts and node/sequencing.ts (the feed, the one
 * state reader, admission, the pool port, the sync send's wait) the resolver's.
 */

/** Tests of the node's public interface that reach every in-scope module. */
const NODE_E2E = ['test/e2e/foundation.test.ts', 'test/e2e/preconfirmations.test.ts']

export const MODULES = {
  state: {
    // The RLP encoder moved to primitives/ (chain/ and state/ both use it) and stays in this run.
    mutate: ['src/state/*.ts', '!src/state/*.test.ts', 'src/primitives/rlp-encode.ts'],
    tests: [
      'src/state/*.test.ts',
      'src/primitives/rlp-encode.test.ts',
      'src/sequencer/*.test.ts',
      'src/node/chain-writer.test.ts',
      'src/execution/block-builder.test.ts',
      // The archive reader's wipe-and-write order and the pending overlays are seen only through a node.
      'test/e2e/constructor-storage.test.ts',
      'test/e2e/pending-overlays.test.ts',
    ],
  },
  sequencer: {
    mutate: ['src/sequencer/*.ts', '!src/sequencer/*.test.ts', 'src/preconf/snapshot.ts'],
    tests: ['src/sequencer/*.test.ts', ...NODE_E2E, 'test/e2e/limits.test.ts', 'test/e2e/gas-left.test.ts'],
  },
  txpool: {
    mutate: ['src/txpool/*.ts', '!src/txpool/*.test.ts', '!src/txpool/test-kit.ts', '!src/txpool/pool.bench.ts'],
    tests: ['src/txpool/*.test.ts', 'src/node/pool-candidate.test.ts'],
  },
  resolver: {
    mutate: [
      'src/node/block-resolver.ts',
      'src/preconf/views.ts',
      'src/preconf/feed.ts',
      'src/preconf/state.ts',
      'src/node/admission.ts',
      'src/node/pool-port.ts',
      'src/node/receipt-wait.ts',
    ],
    tests: [
      'src/node/*.test.ts',
      'src/preconf/*.test.ts',
      'src/rpc/methods/receipts-node.test.ts',
      'src/sequencer/*.test.ts',
      ...NODE_E2E,
      'test/e2e/limits.test.ts',
      'test/e2e/simulate.test.ts',
      'test/e2e/endpoints.test.ts',
      'test/e2e/head-by-number.test.ts',
      'test/e2e/sync-send-timeout.test.ts',
    ],
  },
}
