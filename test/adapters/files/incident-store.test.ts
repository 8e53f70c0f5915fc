/**
 * The CLI's incident state file: a conditional write by content hash; a stale version is refused, and a state
 * that does not parse is replaced.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileIncidentStore } from '../../../functions/adapters/files/incident-store.ts';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { emptyState } from '../../../functions/core/report/incident-state.ts';
import { buildFailedReport } from '../../nightly/fixtures/reports.ts';

const key = { collection: 'book', environment: 'prod' };

describe('FileIncidentStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-incidents-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  it('writes beside the reports and refuses a write naming a stale version', async () => {
    const store = new FileIncidentStore(dir);
    const first = await store.write(key, emptyState('book', 'prod'), null);
    expect(first).not.toBeNull();
    expect(await store.write(key, emptyState('book', 'prod'), null)).toBeNull();
    expect(await store.read(key)).toEqual({ state: emptyState('book', 'prod'), version: first });
    expect(path.relative(dir, path.join(dir, 'book', 'incidents-prod.json'))).toBe('book/incidents-prod.json');
  });

  it('replaces a state that does not parse instead of trusting it', async () => {
    const store = new FileIncidentStore(dir);
    await store.write(key, { ...emptyState('book', 'prod'), schema_version: '9' as '1' }, null);
    const settled = await settleIncidents({
      store,
      report: buildFailedReport(),
      reportLocation: 'x',
      newId: () => 'i',
    });
    expect(settled).toMatchObject({ ok: true, warning: expect.stringContaining('did not parse') });
    expect(settled.ok && settled.notices.map((x) => x.kind)).toEqual(['onset']);
  });
});
