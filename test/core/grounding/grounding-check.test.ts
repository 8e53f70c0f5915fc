import { describe, expect, it } from 'vitest';
import { groundingCheck } from '../../../functions/core/grounding/grounding-check.ts';
import type { ChatReply } from '../../../functions/core/ports.ts';
import { ChatError } from '../../../functions/core/shared/errors.ts';
import { createFakeChat } from '../../agent/fakes.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';

const TEXT = 'Topics carry messages between nodes.';
const points = [{ id: 'c1', vector: [1, 0, 0], payload: { chunk_text: TEXT, source_url: 'https://b/docs/a' } }];
const GROUNDED: ChatReply = {
  text: TEXT,
  citations: [{ start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] }],
  billedUnits: { inputTokens: 100, outputTokens: 10 },
};
const ABSTAINED: ChatReply = {
  text: 'I could not find information about that in the provided documents.',
  citations: [],
  billedUnits: { inputTokens: 90, outputTokens: 12 },
};
const answerable = (id: string) => ({ id, query_text: `what do topics carry ${id}?`, agent: true });
const unanswerable = (id: string) => ({ id, query_text: `who won in ${id}?`, agent: true, expect_answer: false });

function run(queries: object[], reply: ChatReply | Error = GROUNDED, options: { maxAgentQueries?: number } = {}) {
  return buildRunContext({ points, suite: { queries }, deps: { chat: createFakeChat(reply) }, options });
}

describe('groundingCheck', () => {
  it('does not apply without a chat model, or when the suite asks the agent nothing', async () => {
    const noChat = buildRunContext({ points, suite: { queries: [answerable('a1')] } });
    const notApplicable = {
      status: 'not_applicable',
      sections: {},
      errors: [],
      failures: [],
      verdicts: [],
      criteria: {},
    };
    expect(await runCheck(groundingCheck, noChat.ctx)).toEqual(notApplicable);
    const notAsked = run([{ id: 'q1', query_text: 'plain retrieval' }]);
    expect(await runCheck(groundingCheck, notAsked.ctx)).toEqual(notApplicable);
    expect(notAsked.stages()).toEqual({});
  });

  it('gives the grounded and support rates of answered questions, and no abstention figure when none was asked', async () => {
    const result = await runCheck(groundingCheck, run([answerable('a1')]).ctx);
    expect(result.sections?.grounding_report).toMatchObject({ evaluated: 1, grounded_rate: 100, support_rate: 100 });
    expect(result.criteria).toEqual({ groundedRate: 100, supportRate: 100 });
    expect(result.failures).toEqual([]);
  });

  it('gives the abstention figure only when a no-answer question was asked, and no support figure without claims', async () => {
    const result = await runCheck(groundingCheck, run([unanswerable('n1')], ABSTAINED).ctx);
    expect(result.criteria).toEqual({ abstentionCorrectRate: 100 });
  });

  it('judges only the questions within the cap on agent queries', async () => {
    const capped = run([answerable('a1'), unanswerable('n1')], GROUNDED, { maxAgentQueries: 1 });
    const result = await runCheck(groundingCheck, capped.ctx);
    expect(result.sections?.grounding_report?.evaluated).toBe(1);
    expect(result.criteria).not.toHaveProperty('abstentionCorrectRate');
  });

  it('asks at most ten agent questions by default', async () => {
    const many = Array.from({ length: 11 }, (_, i) => answerable(`a${i}`));
    const result = await runCheck(groundingCheck, run(many).ctx);
    expect(result.sections?.grounding_report?.evaluated).toBe(10);
  });

  it('answers from the hits the query step already fetched: one embed call for the whole suite', async () => {
    const handle = run([answerable('a1'), answerable('a2')]);
    await runCheck(groundingCheck, handle.ctx);
    expect(handle.embedder.calls).toEqual([['what do topics carry a1?', 'what do topics carry a2?']]);
  });

  it('searches for itself, one question at a time, when the query step failed', async () => {
    const handle = run([answerable('a1'), answerable('a2')]);
    handle.ctx.step('queries', () => Promise.reject(new Error('the stage broke')));
    const result = await runCheck(groundingCheck, handle.ctx);
    expect(handle.embedder.calls).toEqual([['what do topics carry a1?'], ['what do topics carry a2?']]);
    expect(result.sections?.grounding_report?.evaluated).toBe(2);
  });

  it('marks the agent stage failed when no question could be answered, and keeps the per-question findings', async () => {
    const handle = run([answerable('a1')], new ChatError('Cohere chat is down', 'unavailable'));
    const result = await runCheck(groundingCheck, handle.ctx);
    await handle.settleAll();
    expect(handle.stages().agent?.status).toBe('failed');
    expect(result.errors.map((e) => e.validation_id)).toEqual(['a1']);
    expect(result.criteria).toEqual({ groundedRate: null });
  });

  it('marks the agent stage ok when a question was answered', async () => {
    const handle = run([answerable('a1')]);
    await runCheck(groundingCheck, handle.ctx);
    await handle.settleAll();
    expect(handle.stages().agent?.status).toBe('ok');
  });

  it('makes grounded answers that could not be checked at all a HIGH finding, a failure, and every figure unknown', async () => {
    const handle = run([answerable('a1'), unanswerable('n1')]);
    handle.ctx.step('agent', () => Promise.reject(new Error('the agent broke')));
    expect(await runCheck(groundingCheck, handle.ctx)).toMatchObject({
      status: null,
      sections: {},
      errors: [
        {
          id: 'id-1',
          validation_id: 'run-1',
          error_type: 'GROUNDING_FAILED',
          severity: 'HIGH',
          message: 'grounded answers could not be checked: the agent broke',
          details: {},
        },
      ],
      failures: ['grounded answers: the agent broke'],
      criteria: { groundedRate: null, abstentionCorrectRate: null, supportRate: null },
    });
  });

  it('asks the agent only the agent questions of a mixed suite, and judges abstention only if one of them expects none', async () => {
    const handle = run([answerable('a1'), { id: 'plain', query_text: 'no agent', expect_answer: false }]);
    const result = await runCheck(groundingCheck, handle.ctx);
    expect(result.sections?.grounding_report?.evaluated).toBe(1);
    expect(result.criteria).toEqual({ groundedRate: 100, supportRate: 100 });
  });

  it('marks the agent stage ok when the cap lets no question through', async () => {
    const handle = run([answerable('a1')], GROUNDED, { maxAgentQueries: 0 });
    await runCheck(groundingCheck, handle.ctx);
    await handle.settleAll();
    expect(handle.stages().agent?.status).toBe('ok');
  });
});
