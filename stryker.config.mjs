// @ts-check
/**
 * Mutation testing of the pure core: `npm run mutation`. Figures, equivalent mutants and when to run it are in
 * docs/TESTING.md.
 *
 * No checker: TypeScript 7 has no JavaScript compiler API, so @stryker-mutator/typescript-checker cannot run.
 * vitest strips the types of each mutated file itself (no type check), so a mutant that would not type-check is
 * still run: it is killed when the tests see its effect (usually a throw), otherwise it counts as a survivor.
 * `npm run typecheck` guards the real code; the mutants are never type-checked.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // related: false, because the per-test coverage of the dry run already says which tests reach each mutant.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  checkers: [],
  // Stryker rewrites tsconfig.json's out-of-sandbox paths with TypeScript's JavaScript API, which TypeScript 7 does
  // not have (`ts.parseConfigFileTextToJson is not a function`). Our tsconfig.json has no `extends` or `references`
  // to rewrite, so Stryker is pointed at a file that does not exist and leaves the sandbox's copy as it is.
  tsconfigFile: 'no-tsconfig-rewrite.json',
  // vitest does not type-check, so the `// @ts-nocheck` Stryker would add to each file serves nothing.
  disableTypeChecks: false,
  // Every file of the core that decides a verdict, a number or a message. Left out, each for a reason:
  mutate: [
    'functions/core/**/*.ts',
    // interfaces and types only: nothing to mutate.
    '!functions/core/ports.ts',
    '!functions/core/checks/run-options.ts',
    '!functions/core/regression/detector.ts',
    // the HTML report's stylesheet: one CSS string, whose mutants would be the CSS text.
    '!functions/core/render/html/style.ts',
    // zod schemas of the report: their rules are pinned by test/core/report/report-schema.test.ts and the
    // end-to-end tests; mutants there would be the text of .describe() (documentation in the JSON Schema).
    '!functions/core/report/report.ts',
    '!functions/core/report/findings.ts',
    '!functions/core/report/query-validation.ts',
    '!functions/core/report/coverage-report.ts',
    '!functions/core/report/quality-metrics.ts',
    '!functions/core/report/validation-metrics.ts',
    '!functions/core/report/grounding-report.ts',
    // the use case: it wires the stages together and is tested end to end over HTTP (test/engine), too slow to
    // run per mutant; the verdicts it reports are decided in the files above.
    '!functions/core/run/run-validation.ts',
  ],
  ignorePatterns: ['cdk.out', 'dist', 'reports', 'reference', '.stryker-tmp*', 'test-artifacts'],
  // Static mutants (code that runs at import: constant tables, regex lists, zod schemas) cannot be traced to the
  // tests that reach them, so each would re-run every test; they are left out (reported as Ignored, not scored).
  // `STRYKER_STATIC=1 npx stryker run --mutate <file>` runs and scores them for one file (docs/TESTING.md); Stryker's
  // own --ignoreStatic flag can only switch them off. scripts/mutation-scores.ts counts the unrun ones beside the score.
  ignoreStatic: process.env.STRYKER_STATIC !== '1',
  // The machine has 2 cores shared with other work: three vitest workers keep both busy while one waits on I/O.
  concurrency: 3,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  clearTextReporter: { reportMutants: false, reportTests: false, reportScoreTable: true },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
