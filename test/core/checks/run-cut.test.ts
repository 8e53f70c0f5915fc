/** runValidation when its signal aborts mid-run: the pending checks are cut and a report still comes back. */
import { describe, expect, it } from 'vitest';
import { runValidation } from '../../../functions/core/run/run-validation.ts';
import { Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';

const POINTS = [{ id: 'p1', vector: [1, 0, 0], payload: { chunk_text: 'nodes', source_url: 'https://b/docs/a' } }];

describe('a run whose signal aborts', () => {
  it('cuts the hanging sitemap step, reports it as cut and still returns a FAILED-lifecycle report', async () => {
    const abort = new AbortController();
    let ids = 0;
    const report = await runValidation(
      {
        index: new MemoryIndex(POINTS, { vectorSize: 3 }),
        embedder: new FakeEmbedder(),
        sitemap: {
          location: 'https://b/sitemap.xml',
          // The sitemap never answers; the run's deadline fires while it waits.
          list: () => {
            setTimeout(() => abort.abort(), 1);
            return new Promise<never>(() => undefined);
          },
        },
        clock: { now: () => new Date('2026-11-23T00:00:00Z'), monotonicMs: () => 0 },
        newId: () => `id-${++ids}`,
        signal: abort.signal,
      },
      {
        suite: Suite.parse({ queries: [{ id: 'q', query_text: 'nodes' }] }),
        suiteSource: 'suite.json',
        collection: 'book',
        environment: 'test',
        requiredFields: [],
        coveragePathPrefix: '/docs/',
        searchConcurrency: 1,
      },
    );
    expect(report.execution.stages.sitemap?.status).toBe('cut');
    expect(report.execution.stages.queries?.status).toBe('ok');
    expect(report.lifecycle.map((e) => e.state)).toContain('FAILED');
    expect(report.errors.find((e) => e.error_type === 'TIMEOUT')).toMatchObject({
      message: expect.stringContaining('sitemap (the sitemap host) was cut'),
      details: { sitemap_url: 'https://b/sitemap.xml' },
    });
    expect(report.coverage_report).toBeNull();
  });
});
