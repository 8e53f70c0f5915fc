/**
 * The run's deadline inside the engine: a cut names the deadline and what the run was still waiting on, and a
 * stage that resolved without doing its work reads "failed", not "ok".
 */
import { describe, expect, it } from 'vitest';
import type { EngineDeps } from '../../../functions/core/run/run-validation.ts';
import { runValidation } from '../../../functions/core/run/run-validation.ts';
import { DeadlineError, EmbeddingError } from '../../../functions/core/shared/errors.ts';
import { Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { nonEmpty } from '../../helpers/non-empty.ts';

const POINTS = [{ id: 'p1', vector: [1, 0, 0], payload: { chunk_text: 'nodes', source_url: 'https://b/docs/a' } }];
const OPTIONS = {
  suite: Suite.parse({ queries: [{ id: 'q', query_text: 'nodes' }] }),
  suiteSource: 'suite.json',
  collection: 'book',
  environment: 'test',
  requiredFields: [],
  coveragePathPrefix: '/docs/',
  searchConcurrency: 1,
};

function deps(overrides: Partial<EngineDeps>): EngineDeps {
  let ids = 0;
  return {
    index: new MemoryIndex(POINTS, { vectorSize: 3 }),
    embedder: new FakeEmbedder(),
    sitemap: { location: 'https://b/sitemap.xml', list: async () => ({ entries: [], issues: [] }) },
    clock: { now: () => new Date('2026-11-23T00:00:00Z'), monotonicMs: () => 0 },
    newId: () => `id-${++ids}`,
    ...overrides,
  };
}

describe('a run cut by its deadline', () => {
  it('says in the TIMEOUT finding that the deadline was reached and which step and dependency were pending', async () => {
    // Prepare
    const deadline = new AbortController();
    const hangingSitemap = {
      location: 'https://b/sitemap.xml',
      list: () => {
        setTimeout(() => deadline.abort(new DeadlineError('the run deadline (5 s) was reached')), 1);
        return new Promise<never>(() => undefined);
      },
    };

    // Act
    const report = await runValidation(deps({ sitemap: hangingSitemap, signal: deadline.signal }), OPTIONS);

    // Assess
    const timeout = report.errors.find((e) => e.error_type === 'TIMEOUT');
    expect(timeout?.message).toBe(
      'could not read the sitemap https://b/sitemap.xml: sitemap (the sitemap host) was cut: the run deadline (5 s) was reached',
    );
    expect(report.errors.filter((e) => e.error_type === 'TIMEOUT')).toHaveLength(1);
    expect(report.execution.stages.sitemap?.status).toBe('cut');
  });
});

describe('a stage that resolved without doing its work', () => {
  it('reads "failed" for the queries stage when no query could run', async () => {
    // Prepare
    const embedder = new FakeEmbedder();
    embedder.embedQueries = async () => {
      throw new EmbeddingError('Cohere embed answered 500: internal error', 'unavailable', { status: 500 });
    };

    // Act
    const report = await runValidation(deps({ embedder }), OPTIONS);

    // Assess
    expect(nonEmpty(report.query_results, 'query results').every((q) => q.status === 'ERROR')).toBe(true);
    expect(report.execution.stages.queries?.status).toBe('failed');
  });

  it('reads "ok" for the queries stage when the queries ran', async () => {
    // Act
    const report = await runValidation(deps({}), OPTIONS);

    // Assess
    expect(report.execution.stages.queries?.status).toBe('ok');
  });
});
