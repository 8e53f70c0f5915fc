/**
 * docs/DATA-MODEL.md cannot drift: every seed field is in its tables, and every place a row names exists in the
 * schemas (report, suite), the configuration or the source file it points at.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../../functions/core/checks/steps.ts';
import { renderQueryRowsCsv } from '../../functions/core/render/report-csv.ts';
import { REPORT_SCHEMA_VERSION, ValidationReport } from '../../functions/core/report/report.ts';
import { Suite } from '../../functions/core/suite/suite.ts';
import { hasSchemaPath } from '../helpers/schema-path.ts';
import { buildFailedReport, buildQuery } from '../nightly/fixtures/reports.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const DOC = read('docs/DATA-MODEL.md');

interface Row {
  seed: string;
  entity: string;
  field: string;
  where: string[];
  how: string;
}
const ROWS: Row[] = DOC.split('\n')
  .filter((line) => /^\| 00\d \|/.test(line))
  .map((line) => {
    const [seed = '', entity = '', field = '', where = '', how = ''] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    return { seed, entity, field, where: [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''), how };
  });
const lastSegment = (name: string) => name.split('.').at(-1) ?? name;

/** The fields each seed declares, read from its own text (each seed lists fields its own way). */
function seedFields(seed: string): string[] {
  const file = readdirSync(path.join(ROOT, 'docs', 'seeds')).find((f) => f.startsWith(`${seed}_`)) ?? '';
  const text = read(path.join('docs', 'seeds', file));
  const patterns: Record<string, RegExp> = {
    '000': /^\s+- (\w+): /gm,
    '001': /^\| (\w+) \| (?:str|float|int|bool|dict|list\[[\w ]+\]|TestQuery|CoverageReport|QualityMetrics) \|/gm,
    '002': /^\s+- `(\w+)` \(/gm,
    '003': /^\s*- (?:\*\*(\w+)\*\*|`(\w+)`) \(/gm,
    '004': /^- `(\w+): /gm,
  };
  const pattern = patterns[seed];
  if (!pattern) return [];
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? ''))];
}

function exists(target: string): boolean {
  const [kind, ...rest] = target.split(':');
  const name = rest.join(':');
  if (kind === 'report') return hasSchemaPath(ValidationReport, name);
  if (kind === 'suite') return hasSchemaPath(Suite, name);
  if (kind === 'env') return read('functions/core/config.ts').includes(`'${name}'`);
  if (kind === 'code') {
    const [file = '', token = ''] = name.split(':');
    return read(file).includes(token);
  }
  return false;
}

describe('docs/DATA-MODEL.md', () => {
  it('has a row for every field each seed declares', () => {
    for (const seed of ['000', '001', '002', '003', '004']) {
      const documented = new Set(ROWS.filter((r) => r.seed === seed).map((r) => lastSegment(r.field)));
      const declared = seedFields(seed);
      expect(declared.length, `fields read from seed ${seed}`).toBeGreaterThan(10);
      expect(
        declared.filter((f) => !documented.has(f)),
        `seed ${seed} fields without a row`,
      ).toEqual([]);
    }
  });

  it('says for every row how the field lives on: same, renamed, derived, or left out with a reason', () => {
    const bad = ROWS.filter(
      (r) =>
        !/^(?:same|renamed|derived|left out: .+)/.test(r.how) ||
        r.how.startsWith('left out') !== (r.where.length === 0),
    );
    expect(bad).toEqual([]);
  });

  it('names only places that exist in the report and suite schemas, the configuration and the code', () => {
    const missing = ROWS.flatMap((r) =>
      r.where.filter((t) => !exists(t)).map((t) => `${r.seed} ${r.entity}.${r.field}: ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it('keeps the seed’s name wherever it says "same"', () => {
    const renamed = ROWS.filter((r) => r.how.startsWith('same'))
      .filter(
        (r) =>
          !r.where.some(
            (t) =>
              lastSegment(
                t
                  .split(':')
                  .at(-1)
                  ?.replace(/\[\]|\{\}/g, '') ?? '',
              ) === lastSegment(r.field),
          ),
      )
      .map((r) => `${r.seed} ${r.entity}.${r.field}`);
    expect(renamed).toEqual([]);
  });

  describe('the schema_version 2 renames', () => {
    const section = DOC.slice(DOC.indexOf('schema_version 2 (`REPORT_SCHEMA_VERSION`'));
    const renames = section
      .split('\n')
      .filter((line) => line.startsWith('| `') || line.startsWith('| CSV'))
      .map((line) => {
        const [from = '', to = ''] = line.slice(1, -1).split(' | ');
        const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
        return { from: names(from), to: names(to), csv: from.trim().startsWith('CSV') };
      });
    const csvHeader = renderQueryRowsCsv({ ...buildFailedReport(), query_results: [buildQuery({ id: 'q' })] })
      .split('\r\n')[0]
      ?.split(',');

    it('are the current version', () => {
      expect(REPORT_SCHEMA_VERSION).toBe('2');
      expect(renames).toHaveLength(7);
    });

    it('name report fields that exist under the new name and no longer under the old one', () => {
      const fields = renames.filter((r) => r.to[0]?.startsWith('report:'));
      expect(fields.length).toBe(4);
      for (const { from, to } of fields) {
        expect(hasSchemaPath(ValidationReport, (to[0] ?? '').slice('report:'.length)), to[0]).toBe(true);
        expect(hasSchemaPath(ValidationReport, (from[0] ?? '').slice('report:'.length)), from[0]).toBe(false);
      }
    });

    it('name the stage keys the steps now have, and none of the old ones', () => {
      const stages = renames.find((r) => r.from[0] === 'report:execution.stages');
      expect(Object.keys(STEPS)).toEqual(expect.arrayContaining(stages?.to ?? ['?']));
      expect(Object.keys(STEPS).filter((k) => stages?.from.includes(k))).toEqual([]);
      expect(Object.keys(STEPS).filter((k) => !/^[a-z][a-z0-9_]*$/.test(k))).toEqual([]);
    });

    it('name CSV columns the CSV now has, and none of the old ones', () => {
      const columns = renames.filter((r) => r.csv);
      expect(columns).toHaveLength(2);
      for (const { from, to } of columns) {
        for (const name of to.filter((n) => !n.includes('...'))) expect(csvHeader, name).toContain(name);
        for (const name of from.filter((n) => !n.includes('...'))) expect(csvHeader, name).not.toContain(name);
      }
    });
  });
});
