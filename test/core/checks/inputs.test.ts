import { describe, expect, it } from 'vitest';
import { groundedAnswers } from '../../../functions/core/grounding/inputs.ts';
import type { ProgressEvent } from '../../../functions/core/ports.ts';
import { collectionProfile } from '../../../functions/core/quality/inputs.ts';
import { bookCatalog, collectionDescription, searchedQueries } from '../../../functions/core/queries/inputs.ts';
import { sitemapListing } from '../../../functions/core/sitemap/inputs.ts';
import { createFakeChat } from '../../agent/fakes.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { buildRunContext } from '../../fakes/run-context.ts';

const points = ['a', 'b', 'c'].map((p, i) => ({
  id: `p${i}`,
  vector: [1, 0, 0],
  payload: { chunk_text: p, source_url: `https://b/docs/${p}`, module_name: 'Module 1', chapter_id: `m1/${p}` },
}));

describe('the run’s shared inputs', () => {
  it('runs each input once as a named, timed step, however many checks ask for it', async () => {
    const handle = buildRunContext({ points });
    const { ctx } = handle;
    await Promise.all([
      ctx.input(collectionDescription),
      ctx.input(collectionDescription),
      ctx.input(collectionProfile),
      ctx.input(sitemapListing),
    ]);
    await ctx.input(sitemapListing);
    await handle.settleAll();
    expect(Object.keys(handle.stages())).toEqual(['describe', 'profile', 'sitemap']);
    expect(handle.index.calls.filter((c) => c === 'describe')).toHaveLength(1);
    expect(handle.sitemapCalls).toHaveLength(1);
  });

  it('passes the run’s abort signal to the sitemap source, and none when the run has none', async () => {
    const controller = new AbortController();
    const withSignal = buildRunContext({ points, deps: { signal: controller.signal } });
    await withSignal.ctx.input(sitemapListing);
    expect(withSignal.sitemapCalls).toEqual([{ signal: controller.signal }]);
    const without = buildRunContext({ points });
    await without.ctx.input(sitemapListing);
    expect(without.sitemapCalls).toEqual([{}]);
  });

  it('profiles the collection in pages of the configured size, 1000 by default, against the required fields', async () => {
    const paged = buildRunContext({
      points,
      options: { scrollPageSize: 2, requiredFields: ['chunk_text', 'token_count'] },
    });
    const profile = await paged.ctx.input(collectionProfile);
    expect(profile).toMatchObject({ totalPoints: 3, completePoints: 0 });
    expect(paged.index.calls.filter((c) => c === 'scroll')).toHaveLength(2);
    const whole = buildRunContext({ points });
    expect(await whole.ctx.input(collectionProfile)).toMatchObject({ totalPoints: 3, completePoints: 3 });
    expect(whole.index.calls.filter((c) => c === 'scroll')).toHaveLength(1);
  });

  it('reads the book’s catalog in pages of the configured size, 1000 by default', async () => {
    const paged = buildRunContext({ points, options: { scrollPageSize: 2 } });
    expect(await paged.ctx.input(bookCatalog)).toMatchObject({ modules: ['Module 1'] });
    expect(paged.index.calls.filter((c) => c === 'scroll')).toHaveLength(2);
    const whole = buildRunContext({ points });
    expect(await whole.ctx.input(bookCatalog)).toMatchObject({ modules: ['Module 1'] });
    expect(whole.index.calls.filter((c) => c === 'scroll')).toHaveLength(1);
  });

  it('reads the catalog for the query step only when the suite names a module or chapter', async () => {
    const naming = buildRunContext({
      points,
      suite: { queries: [{ id: 'q1', query_text: 'a', expected_module: 'Module 1' }] },
    });
    await naming.ctx.input(searchedQueries);
    await naming.settleAll();
    expect(Object.keys(naming.stages())).toContain('catalog');
    const plain = buildRunContext({ points });
    await plain.ctx.input(searchedQueries);
    await plain.settleAll();
    expect(Object.keys(plain.stages()).sort()).toEqual(['describe', 'queries']);
  });

  it('reports the query step’s progress to the run’s listener', async () => {
    const events: ProgressEvent[] = [];
    const { ctx } = buildRunContext({ points, deps: { progress: (e) => events.push(e) } });
    await ctx.input(searchedQueries);
    expect(events).toContainEqual({ kind: 'queries', done: 1, total: 1 });
  });

  it('searches a question the query step did not fetch with the agent’s own embedder and index, when wired', async () => {
    // The module filter names a module the index does not have: the query step does not search it, the agent does.
    const suite = { queries: [{ id: 'q1', query_text: 'a', agent: true, filters: { module: 'Module 9' } }] };
    const chat = createFakeChat({
      text: 'I cannot answer.',
      citations: [],
      billedUnits: { inputTokens: 1, outputTokens: 1 },
    });
    const agentSearch = { embedder: new FakeEmbedder(), index: new MemoryIndex(points) };
    const wired = buildRunContext({ points, suite, deps: { chat, agentSearch } });
    await wired.ctx.input(groundedAnswers);
    expect(agentSearch.embedder.calls).toEqual([['a']]);
    expect(agentSearch.index.calls).toContain('searchBatch');
    expect(wired.embedder.calls).toEqual([['a']]);
    expect(wired.index.calls).not.toContain('searchBatch');
    // Without it, the agent searches with the run's own.
    const plain = buildRunContext({ points, suite, deps: { chat } });
    await plain.ctx.input(groundedAnswers);
    expect(plain.embedder.calls).toEqual([['a'], ['a']]);
    expect(plain.index.calls).toContain('searchBatch');
  });

  it('refuses grounded answers when no chat model is wired', async () => {
    const { ctx } = buildRunContext({ points });
    await expect(ctx.input(groundedAnswers)).rejects.toThrow('no chat model is wired');
  });
});
