/**
 * Stryker test runner `tap-fastest-first`: the TAP runner (@stryker-mutator/tap-runner, options under `tap`),
 * except that a mutant's covering test files run fastest first, as timed by the dry run.
 *
 * Why: the TAP runner runs one node process per test file, in the order coverage listed them, so a mutant
 * that a one-second unit test kills was often first given to a ten-second end-to-end test. The dry run and
 * the mutant runs happen in different runner processes, so the dry run's times go through a file
 * (MUTATION_TIMES_FILE, set by scripts/mutation.mjs). Order only: which tests run is Stryker's choice.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin'
import { createTapTestRunnerFactory } from '@stryker-mutator/tap-runner'

const createTapTestRunner = createTapTestRunnerFactory()

function createFastestFirst(injector) {
  const inner = createTapTestRunner(injector)
  const timesFile = process.env.MUTATION_TIMES_FILE
  let times
  const timeOf = (id) => {
    if (times === undefined) {
      try {
        times = new Map(Object.entries(JSON.parse(readFileSync(timesFile, 'utf8'))))
      } catch {
        times = new Map()
      }
    }
    return times.get(id) ?? Number.MAX_SAFE_INTEGER
  }
  return {
    capabilities: () => inner.capabilities(),
    init: () => inner.init(),
    dispose: () => inner.dispose?.(),
    async dryRun(options) {
      const result = await inner.dryRun(options)
      if (result.status === 'complete' && timesFile !== undefined) {
        writeFileSync(timesFile, JSON.stringify(Object.fromEntries(result.tests.map((t) => [t.id, t.timeSpentMs]))))
      }
      return result
    },
    mutantRun(options) {
      const testFilter = options.testFilter === undefined ? undefined : [...options.testFilter].sort((a, b) => timeOf(a) - timeOf(b))
      return inner.mutantRun({ ...options, testFilter })
    },
  }
}
createFastestFirst.inject = tokens(commonTokens.injector)

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'tap-fastest-first', createFastestFirst)]
