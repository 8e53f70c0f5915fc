import { describe, expect, it } from 'vitest';
import { settleIncidents } from '../../../functions/core/incident/settle-incidents.ts';
import { prefetchIncidentState } from '../../../functions/core/post-run/prefetch.ts';
import { emptyState } from '../../../functions/core/report/incident-state.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { buildFailedReport } from '../../nightly/fixtures/reports.ts';

const own = { collection: 'book', environment: 'prod' };

describe('prefetchIncidentState', () => {
  it('reads the run’s own state at once, before anyone asks', () => {
    // Prepare
    const store = new MemoryIncidentStore();

    // Act
    prefetchIncidentState(store, own);

    // Assess
    expect(store.reads).toBe(1);
    expect(store.keys).toEqual([own]);
  });

  it('answers the first read of the run’s own state with what it read early', async () => {
    // Prepare
    const store = new MemoryIncidentStore();
    store.put(emptyState('book', 'prod'));
    const prefetched = prefetchIncidentState(store, own);
    store.put(emptyState('book', 'changed later'));

    // Act
    const read = await prefetched.read({ ...own });

    // Assess
    expect(read).toEqual({ state: emptyState('book', 'prod'), version: 'v1' });
    expect(store.reads).toBe(1);
  });

  it('reads another collection’s or environment’s state from the store as asked', async () => {
    // Prepare
    const store = new MemoryIncidentStore();
    const prefetched = prefetchIncidentState(store, own);

    // Act
    await prefetched.read({ collection: 'book', environment: 'staging' });
    await prefetched.read({ collection: 'guide', environment: 'prod' });

    // Assess
    expect(store.keys).toEqual([
      own,
      { collection: 'book', environment: 'staging' },
      { collection: 'guide', environment: 'prod' },
    ]);
  });

  it('passes writes to the store', async () => {
    // Prepare
    const store = new MemoryIncidentStore();
    const prefetched = prefetchIncidentState(store, own);

    // Act
    const version = await prefetched.write(own, emptyState('book', 'prod'), null);

    // Assess
    expect(version).toBe('v1');
    expect(store.writes).toEqual([{ state: emptyState('book', 'prod'), replaced: null }]);
  });

  it('keeps a failed early read from going unhandled, and fails the read that asks for it', async () => {
    // Prepare
    const store = new MemoryIncidentStore();
    store.read = async () => {
      throw new Error('AccessDenied');
    };

    // Act
    const prefetched = prefetchIncidentState(store, own);
    await new Promise((resolve) => setTimeout(resolve, 10));

    // Assess
    await expect(prefetched.read(own)).rejects.toThrow('AccessDenied');
  });

  it('reads the store again after its first answer, so a write that lost a race is retried on the winner’s state', async () => {
    // Prepare: another run writes the state just before this run's first write
    let raced = false;
    const store = new MemoryIncidentStore((s) => {
      if (raced) return;
      raced = true;
      s.put(emptyState('book', 'prod'));
    });
    const prefetched = prefetchIncidentState(store, own);

    // Act
    const settled = await settleIncidents({
      store: prefetched,
      report: buildFailedReport(),
      reportLocation: 's3://b/k.json',
      newId: () => 'incident-1',
    });

    // Assess
    expect(settled).toMatchObject({ ok: true, notices: [{ kind: 'onset', track: 'quality' }] });
    expect(store.reads).toBe(2);
    expect(store.writes.map((w) => w.replaced)).toEqual(['v1']);
  });
});
