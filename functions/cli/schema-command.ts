/** `ragwatch schema`: the ValidationReport's JSON Schema, generated from the same zod schema the engine fills. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { buildReportJsonSchema, REPORT_SCHEMA_VERSION } from '../core/report/report.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { unwritableOutput } from './inputs.ts';
import { printJson } from './json-output.ts';

/** Adds `schema` to the program. */
export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of the ValidationReport (or write it to a file)')
    .option('-o, --out <file>', 'write to this file')
    .option('--json', 'with -o: say what was written as one JSON object on stdout (without -o the schema is the JSON)')
    .action(async (flags: { out?: string; json?: boolean }) => {
      process.exitCode = await writeSchema(flags);
    });
}

/** Prints the schema, or writes it to `out`; returns the exit code. */
async function writeSchema(options: { out?: string; json?: boolean }): Promise<ExitCode> {
  const text = `${JSON.stringify(buildReportJsonSchema(), null, 2)}\n`;
  if (options.out) {
    const out = options.out;
    await writeFile(out, text, 'utf8').catch((error: unknown) => {
      throw unwritableOutput('-o', out, error);
    });
    if (options.json)
      printJson({ out: path.resolve(out), schema_version: REPORT_SCHEMA_VERSION, bytes: Buffer.byteLength(text) });
  } else process.stdout.write(text);
  return EXIT.ok;
}
