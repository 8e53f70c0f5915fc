import { describe, expect, it } from 'vitest';
import { payloadIssuesCheck } from '../../../functions/core/queries/payload-issues-check.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const good = { chunk_text: 'nodes', source_url: 'https://b/docs/a', token_count: 3, chunk_index: 0 };
const suite = { queries: [{ id: 'q1', query_text: 'nodes' }] };

describe('payloadIssuesCheck', () => {
  it('says nothing when every retrieved chunk keeps the seeds’ rules', async () => {
    const { ctx } = buildRunContext({ points: [{ id: 'p1', vector: [1, 0, 0], payload: good }], suite });
    expect(await runCheck(payloadIssuesCheck, ctx)).toMatchObject({ status: 'pass', errors: [], failures: [] });
  });

  it('reports retrieved chunks with values that break the seeds’ rules as one MEDIUM INCOMPLETE_METADATA', async () => {
    const points = [
      { id: 'p1', vector: [1, 0, 0], payload: { ...good, source_url: 'ftp://b/docs/a', token_count: 0 } },
      { id: 'p2', vector: [1, 0, 0], payload: good },
    ];
    const { ctx } = buildRunContext({ points, suite });
    const result = await runCheck(payloadIssuesCheck, ctx);
    expect(result.status).toBe('fail');
    expect(result.errors).toEqual([
      {
        id: expect.any(String),
        validation_id: 'run-1',
        error_type: 'INCOMPLETE_METADATA',
        severity: 'MEDIUM',
        message:
          "1 retrieved chunk(s) carry stored values that break the seeds' rules, e.g. p1: source_url: not an http(s) URL: " +
          '"ftp://b/docs/a"; token_count: must be a whole number > 0, got 0',
        details: {
          chunks: 1,
          examples: [
            {
              chunk_id: 'p1',
              issues: [
                'source_url: not an http(s) URL: "ftp://b/docs/a"',
                'token_count: must be a whole number > 0, got 0',
              ],
            },
          ],
        },
      },
    ]);
  });

  it('counts a chunk retrieved by two queries once, and lists at most ten', async () => {
    const points = Array.from({ length: 12 }, (_, i) => ({
      id: `p${i}`,
      vector: [1, 0, 0],
      payload: { ...good, chunk_index: -1 },
    }));
    const twice = {
      queries: [
        { id: 'q1', query_text: 'a', top_k: 12 },
        { id: 'q2', query_text: 'b', top_k: 12 },
      ],
    };
    const { ctx } = buildRunContext({ points, suite: twice });
    const [finding] = (await runCheck(payloadIssuesCheck, ctx)).errors;
    expect(finding?.details).toMatchObject({ chunks: 12 });
    expect(finding?.details.examples).toHaveLength(10);
  });

  it('is skipped when the query step failed, which is reported once, as the queries', async () => {
    const { ctx } = buildRunContext({ points: [{ id: 'p1', vector: [1, 0, 0], payload: good }], suite });
    ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    expect(await runCheck(payloadIssuesCheck, ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['queries: the stage broke'],
    });
  });
});
