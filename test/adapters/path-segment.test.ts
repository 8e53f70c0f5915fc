import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReportKey } from '../../functions/adapters/aws/s3-report-store.ts';
import { FileReportStore } from '../../functions/adapters/files/report-store.ts';
import { pathSegment } from '../../functions/adapters/path-segment.ts';
import { buildPassedReport } from '../nightly/fixtures/reports.ts';

describe('pathSegment', () => {
  it.each([
    ['book', 'book'],
    ['book..v2', 'book..v2'],
    ['..', '__'],
    ['.', '_'],
    ['../../etc', '.._.._etc'],
    ['a/b\\c', 'a_b_c'],
    ['книга', '_____'],
    ['', 'collection'],
  ])('maps %j to the single segment %j', (name, segment) => {
    expect(pathSegment(name)).toBe(segment);
  });
});

describe('report locations whatever the collection is called', () => {
  it('writes the report of a collection named ".." inside the report folder', async () => {
    // Prepare
    const root = await mkdtemp(path.join(tmpdir(), 'ragwatch-escape-'));
    const out = path.join(root, 'reports');

    // Act
    const { location } = await new FileReportStore(out).save({ ...buildPassedReport(), collection: '..' });

    // Assess
    expect(path.relative(out, location).startsWith('..')).toBe(false);
    expect(await readdir(root)).toEqual(['reports']);
  });

  it('keeps the S3 key of a collection named "../x" under reports/', () => {
    const key = buildReportKey({ ...buildPassedReport(), collection: '../x' });

    expect(key.split('/').slice(0, 2)).toEqual(['reports', '.._x']);
    expect(key.split('/')).not.toContain('..');
  });
});
