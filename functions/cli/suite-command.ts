/**
 * `ragwatch suite`: golden-query suites. `suite normalize <file>` prints a suite written in any seed's form (the
 * project's, seed 003's request form, seed 004's benchmark form) in the project's own form, as JSON on stdout. What
 * it prints is exactly what `ragwatch run` would load; defaults are not spelled out. `suite generate` is its own file.
 */
import type { Command } from 'commander';
import { readSuiteText } from '../adapters/files/suite-file.ts';
import type { Env } from '../core/config.ts';
import { parseSuiteFile } from '../core/suite/suite.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { registerSuiteGenerate } from './suite-generate-command.ts';

/** Adds `suite` to the program, with `normalize` and `generate`. */
export function registerSuite(program: Command, env: Env): void {
  const suite = program.command('suite').description('golden-query suites: generate, normalize');
  suite
    .command('normalize')
    .description("print a suite written with any seed's names (003 requests, 004 benchmark) in the project's own form")
    .argument('<file>', 'the suite, JSON or YAML')
    .action(async (file: string) => {
      process.exitCode = await normalizeSuite(file, (text) => process.stdout.write(text));
    });
  registerSuiteGenerate(suite, env);
}

/** Prints the suite in the project's form; returns the exit code (a bad suite throws an InputError: exit 2). */
async function normalizeSuite(file: string, write: (text: string) => void): Promise<ExitCode> {
  const { written, form } = parseSuiteFile(await readSuiteText(file), file);
  write(`${JSON.stringify(written, null, 2)}\n`);
  if (form !== 'project')
    process.stderr.write(`ragwatch: ${file} is in the ${describeForm(form)}; printed in the project's form\n`);
  return EXIT.ok;
}

function describeForm(form: string): string {
  return form === 'request-003' ? 'seed 003 request form' : 'seed 004 benchmark form';
}
