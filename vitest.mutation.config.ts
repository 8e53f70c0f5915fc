import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant of the core (see stryker.config.json): the unit tests of the core and
 * of the agent, which reach the core through its ports with in-memory fakes and take seconds. The end-to-end tests
 * (test/engine, test/nightly, test/cli, test/adapters) start HTTP stand-ins per file and would make every mutant run
 * take seconds; they run in `npm test`, not here.
 */
export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts', 'test/agent/**/*.test.ts'],
  },
});
