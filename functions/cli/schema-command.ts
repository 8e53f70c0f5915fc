/** `ragwatch schema`: the ValidationReport's JSON Schema, generated from the same zod schema the engine fills. */
import { writeFile } from 'node:fs/promises';
import { buildReportJsonSchema } from '../core/report/report.ts';

/** Prints the schema, or writes it to `out`; returns the exit code. */
export async function writeSchema(options: { out?: string }): Promise<number> {
  const text = `${JSON.stringify(buildReportJsonSchema(), null, 2)}\n`;
  if (options.out) await writeFile(options.out, text, 'utf8');
  else process.stdout.write(text);
  return 0;
}
