// Stryker's configuration for one module of the mutation run; scripts/mutation.mjs sets MUTATION_MODULE
// and runs it (see docs/mutation.md). The module table is scripts/mutation-modules.mjs.
import { MODULES } from './scripts/mutation-modules.mjs'

const name = process.env.MUTATION_MODULE ?? 'state'
const mod = MODULES[name]
if (mod === undefined) throw new Error(`unknown mutation module ${name}`)

export default {
  mutate: mod.mutate,
  // The TAP runner with each mutant's test files run fastest first (scripts/stryker-fastest-first.mjs).
  testRunner: 'tap-fastest-first',
  plugins: ['@stryker-mutator/tap-runner', './scripts/stryker-fastest-first.mjs'],
  tap: {
    testFiles: mod.tests,
    // Each test file runs directly (not under --test, which would run it in a child process the hook never
    // sees); node's test runner prints TAP when its output is not a terminal.
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap'],
    forceBail: true,
  },
  // Coverage per test file: a mutant runs only the test files that executed its code.
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  ignorePatterns: ['/.flashnode', '/.flashnode-rpc-compat', '/.scratch', '/bench', '/tmp', '/docs'],
  reporters: ['clear-text', 'progress', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  logLevel: 'info',
}
