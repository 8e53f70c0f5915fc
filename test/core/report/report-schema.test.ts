import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildReportJsonSchema } from '../../../functions/core/report/report.ts';

describe('the report JSON Schema', () => {
  it('in docs/ is the one generated from the report types (regenerate with `npm run ragwatch -- schema -o docs/report.schema.json`)', async () => {
    const committed = JSON.parse(await readFile(new URL('../../../docs/report.schema.json', import.meta.url), 'utf8'));

    expect(committed).toEqual(buildReportJsonSchema());
  });
});
