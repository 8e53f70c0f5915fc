import { describe, expect, it } from 'vitest';
import { groundedAnswers } from '../../../functions/core/grounding/inputs.ts';
import type { ProgressEvent } from '../../../functions/core/ports.ts';
import { collectionProfile } from '../../../functions/core/quality/inputs.ts';
import { bookCatalog, collectionDescription, searchedQueries } from '../../../functions/core/queries/inputs.ts';
import { ChatError } from '../../../functions/core/shared/errors.ts';
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

  describe('grounded answers', () => {
    const suite = { queries: [{ id: 'q1', query_text: 'a', agent: true }] };
    const cited = (text: string) => ({
      text,
      citations: [{ start: 0, end: text.length, text, documentIds: ['p0'] }],
      billedUnits: { inputTokens: 1, outputTokens: 1 },
    });
    const judge = (replies: string[] = []) => ({
      model: 'judge',
      requests: replies,
      async judge(request: { claim: string }) {
        replies.push(request.claim);
        return {
          text: JSON.stringify({
            statements: [{ statement: 'a', verdict: 'supported', chunk_id: 'p0', evidence: 'a' }],
          }),
          billedUnits: { inputTokens: 1, outputTokens: 1 },
        };
      },
    });

    it('answers from the hits the query step fetched, as the timed step "agent"', async () => {
      const h = buildRunContext({ points, suite, deps: { chat: createFakeChat(cited('The answer is a.')) } });
      const { report } = await h.ctx.input(groundedAnswers);
      await h.settleAll();
      expect(report.responses.map((r) => r.status)).toEqual(['ANSWERED']);
      expect(h.stages().agent?.status).toBe('ok');
      // One embed call, the query step's: the agent's question was fetched.
      expect(h.embedder.calls).toEqual([['a']]);
      expect(h.index.calls.filter((c) => c === 'searchBatch')).toHaveLength(1);
    });

    it('fails the step when every question evaluated failed, and not when none was asked', async () => {
      const down = buildRunContext({
        points,
        suite,
        deps: { chat: createFakeChat(new ChatError('down', 'unavailable')) },
      });
      await down.ctx.input(groundedAnswers);
      await down.settleAll();
      expect(down.stages().agent?.status).toBe('failed');
      const none = buildRunContext({ points, deps: { chat: createFakeChat(cited('x')) } });
      expect((await none.ctx.input(groundedAnswers)).report.evaluated).toBe(0);
      await none.settleAll();
      expect(none.stages().agent?.status).toBe('ok');
    });

    it('puts the claims to the judge within the run’s budget (JUDGE_MAX_CLAIMS)', async () => {
      const asked: string[] = [];
      const chat = createFakeChat(cited('The answer is a.'));
      const judged = buildRunContext({ points, suite, deps: { chat, judge: judge(asked) } });
      const { report } = await judged.ctx.input(groundedAnswers);
      expect(asked).toEqual(['The answer is a.']);
      expect(report.judge).toMatchObject({ mode: 'cohere', max_claims: 100, judged: 1 });
      const none: string[] = [];
      const spent = buildRunContext({
        points,
        suite,
        deps: { chat, judge: judge(none) },
        options: { judgeMaxClaims: 0 },
      });
      const after = await spent.ctx.input(groundedAnswers);
      expect(none).toEqual([]);
      expect(after.report.judge).toMatchObject({ max_claims: 0, judged: 0 });
    });

    it('asks nothing and searches nothing once the agent’s time is up (wrapUp)', async () => {
      const stop = AbortSignal.abort(new Error('time is up'));
      const chat = createFakeChat(cited('The answer is a.'));
      const unfetched = { queries: [{ id: 'q2', query_text: 'b', agent: true, filters: { module: 'Module 9' } }] };
      const h = buildRunContext({
        points,
        suite: { queries: [...suite.queries, ...unfetched.queries] },
        deps: { chat, wrapUp: stop },
      });
      const { report } = await h.ctx.input(groundedAnswers);
      expect(report.responses.map((r) => [r.status, r.error?.kind])).toEqual([
        ['CHAT_FAILED', 'deadline'],
        ['RETRIEVAL_FAILED', 'deadline'],
      ]);
      expect(chat.requests).toEqual([]);
      expect(h.embedder.calls).toEqual([['a', 'b']]);
    });
  });

  it('refuses grounded answers when no chat model is wired', async () => {
    const { ctx } = buildRunContext({ points });
    await expect(ctx.input(groundedAnswers)).rejects.toThrow('no chat model is wired');
    expect(groundedAnswers.failure?.finding?.message('no chat model is wired', ctx)).toBe(
      'grounded answers could not be checked: no chat model is wired',
    );
  });
});
