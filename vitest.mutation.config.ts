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
    // One module graph per worker instead of one per test file: the whole set runs in ~7 s instead of ~28 s, which is
    // what a static mutant (one whose code runs at import, so every test runs against it) costs each time.
    isolate: false,
  },
});
