/**
 * The agent and the claim judge within the run's deadline (issue 22): a slow Cohere chat no longer carries the agent
 * step past the deadline. The real engine, the real Cohere SDK and the sandbox's stand-ins, with a fault proxy in front
 * of Cohere that lets the first chat calls through and holds every later one far past the deadline (the run's Cohere
 * timeout is longer than the deadline, so only the deadline can end them).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { startRunDeadline } from '../../functions/adapters/run-deadline.ts';
import { parseEngineConfig } from '../../functions/core/config.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';
import { type FaultProxy, startFaultProxy } from '../../sandbox/faults/fault-proxy.ts';
import { indexSampleBook, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

/** Three questions the sample book answers, each asked of the agent; the run passes when Cohere is prompt. */
const SUITE = parseSuite(
  JSON.stringify({
    defaults: { top_k: 5, min_similarity: 0.2 },
    success_criteria: { min_pass_rate: 0, min_coverage: 0, min_completeness: 0 },
    queries: [
      { id: 'ros2-graph', query_text: 'What are ROS 2 nodes, topics and services?', agent: true },
      { id: 'unity-hri', query_text: 'Why use Unity for human-robot interaction?', agent: true },
      { id: 'isaac-vslam', query_text: 'What is visual SLAM in Isaac ROS?', agent: true },
    ],
  }),
  'agent-deadline.json',
);

let sandbox: Sandbox;
let proxy: FaultProxy;

/** Holds every chat call after the first `passing` for a minute: past any deadline these tests set. */
function slowChatAfter(passing: number) {
  let chats = 0;
  proxy.setFault({ kind: 'delay', ms: 60_000, when: (r) => r.startsWith('POST /v2/chat') && ++chats > passing });
}

/**
 * One question the query stage does not search (its module filter names a module the index does not have), so the
 * agent searches it itself, and one it does.
 */
const UNFETCHED_SUITE = parseSuite(
  JSON.stringify({
    defaults: { top_k: 5, min_similarity: 0.2 },
    success_criteria: { min_pass_rate: 0, min_coverage: 0, min_completeness: 0 },
    queries: [
      { id: 'ros2-graph', query_text: 'What are ROS 2 nodes, topics and services?', agent: true },
      {
        id: 'unfetched',
        query_text: 'What does the warehouse robot module teach?',
        filters: { module: 'module9-warehouse' },
        agent: true,
      },
    ],
  }),
  'agent-deadline-unfetched.json',
);

async function run(deadlineMs: number, env: Record<string, string> = {}, suite = SUITE) {
  const config = parseEngineConfig({
    ...sandbox.env,
    COHERE_BASE_URL: proxy.url,
    COHERE_TIMEOUT_MS: '60000',
    QDRANT_TIMEOUT_MS: '5000',
    ...env,
  });
  const deadline = startRunDeadline(deadlineMs);
  const report = await runValidation(createEngineAdapters(config, { run: deadline }), {
    ...runOptionsFromConfig(config),
    suite,
    suiteSource: 'test',
  }).finally(() => deadline.cancel());
  expect(parseValidReport(report)).toEqual(report);
  return { report };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  proxy = await startFaultProxy(sandbox.cohere.url);
});
afterEach(() => proxy.setFault({ kind: 'pass' }));
afterAll(async () => {
  await proxy.stop();
  await sandbox.stop();
});

describe('the agent within the run deadline', () => {
  it('passes on a prompt Cohere: every question answered and every claim judged, no deadline_cut', async () => {
    const { report } = await run(30_000);

    expect(report.status).toBe('PASSED');
    expect(report.grounding_report?.responses.map((r) => r.status)).toEqual(['ANSWERED', 'ANSWERED', 'ANSWERED']);
    expect(report.grounding_report?.judge?.verdicts.could_not_verify).toBe(0);
    expect(report.grounding_report?.deadline_cut).toBeUndefined();
  });

  it('keeps the answer and verdicts it had when chat turns slow between questions, within the deadline', async () => {
    // Prepare: the first question's chat and its claims' judge calls go through; the next chat call hangs.
    const normal = await run(30_000);
    const firstClaims = normal.report.grounding_report?.responses[0]?.grounding_validation?.claims.length ?? 0;
    expect(firstClaims).toBeGreaterThan(0);
    slowChatAfter(1 + firstClaims);

    // Act
    const { report } = await run(4_000);

    // Assess
    expect(report.execution.stages.agent?.status).toBe('ok');
    const grounding = report.grounding_report;
    expect(grounding?.responses.map((r) => [r.query_id, r.status, r.error?.kind ?? null])).toEqual([
      ['ros2-graph', 'ANSWERED', null],
      ['unity-hri', 'CHAT_FAILED', 'deadline'],
      ['isaac-vslam', 'CHAT_FAILED', 'deadline'],
    ]);
    // The answer had is the one a prompt Cohere gives, judged the same.
    expect(grounding?.responses[0]?.response_text).toBe(normal.report.grounding_report?.responses[0]?.response_text);
    expect(grounding?.responses[0]?.grounding_validation?.claims.map((c) => c.judge?.verdict)).toEqual(
      normal.report.grounding_report?.responses[0]?.grounding_validation?.claims.map((c) => c.judge?.verdict),
    );
    expect(grounding?.deadline_cut).toEqual({
      reason: "the agent's time ran out, 0.5 s before the run's deadline",
      questions_not_answered: ['unity-hri', 'isaac-vslam'],
      claims_not_judged: 0,
    });
    // The chat call in flight was cut; the last question was not asked.
    expect(grounding?.responses[1]?.error?.message).toMatch(
      /^Cohere chat \(.+\) at .+ was cut: the agent's time ran out/,
    );
    expect(grounding?.responses[2]?.error?.message).toBe(
      "not asked: the agent's time ran out, 0.5 s before the run's deadline",
    );
    // One finding for what was left; no TIMEOUT per question.
    expect(report.errors.filter((e) => e.error_type === 'TIMEOUT').map((e) => [e.severity, e.message])).toEqual([
      [
        'HIGH',
        "The agent stopped before it was done: the agent's time ran out, 0.5 s before the run's deadline; 2 of 3 agent questions not answered (unity-hri, isaac-vslam)",
      ],
    ]);
    // The status rule (DATA-MODEL.md): a TIMEOUT is judged by the grounded rate of the questions answered, which holds.
    expect(report.status).toBe('PASSED');
    expect(report.status_reason).toContain("HIGH findings within the suite's thresholds: HIGH TIMEOUT");
  }, 60_000);

  it('leaves the claims it had no time to judge could_not_verify (deadline), and the run fails on them', async () => {
    // Prepare: the first question's chat and its first judge call go through; the second judge call hangs.
    slowChatAfter(2);

    // Act
    const { report } = await run(4_000);

    // Assess
    expect(report.execution.stages.agent?.status).toBe('ok');
    const grounding = report.grounding_report;
    const claims = grounding?.responses[0]?.grounding_validation?.claims ?? [];
    expect(claims.map((c) => [c.judge?.verdict, c.judge?.failure])).toEqual([
      ['supported', null],
      ['could_not_verify', 'deadline'],
      ['could_not_verify', 'deadline'],
    ]);
    expect(grounding?.judge).toMatchObject({ judged: 2, verdicts: { supported: 1, could_not_verify: 2 } });
    expect(grounding?.deadline_cut).toMatchObject({
      questions_not_answered: ['unity-hri', 'isaac-vslam'],
      claims_not_judged: 2,
    });
    expect(report.errors.filter((e) => e.error_type === 'TIMEOUT').map((e) => e.message)).toEqual([
      "The agent stopped before it was done: the agent's time ran out, 0.5 s before the run's deadline; 2 of 3 agent questions not answered (unity-hri, isaac-vslam), 2 claims not judged (could_not_verify)",
    ]);
    // No UNSUPPORTED_CLAIM for a claim nobody judged: the TIMEOUT says why.
    expect(report.errors.filter((e) => e.error_type === 'UNSUPPORTED_CLAIM')).toEqual([]);
    // A claim not verified is not supported (GROUNDING.md): the one answer is not grounded, and the run fails.
    expect(grounding).toMatchObject({
      grounded: 0,
      ungrounded: 1,
      errors: 2,
      support_rate: expect.closeTo(100 / 3, 6),
    });
    expect(report.status).toBe('FAILED');
    expect(report.status_reason).toContain('grounded_rate 0 < 95');
  }, 60_000);

  it('cuts a search the agent starts itself with its margin, like its chat, not at the run’s deadline', async () => {
    // Prepare: the query stage's one embed call goes through; every later embed (the agent's own search) hangs.
    let embeds = 0;
    proxy.setFault({ kind: 'delay', ms: 60_000, when: (r) => r.startsWith('POST /v2/embed') && ++embeds > 1 });

    // Act
    const { report } = await run(4_000, {}, UNFETCHED_SUITE);

    // Assess: the agent step ends on time with the answer it had; the question it searched itself was cut.
    expect(report.execution.stages.agent?.status).toBe('ok');
    const grounding = report.grounding_report;
    expect(grounding?.responses.map((r) => [r.query_id, r.status, r.error?.kind ?? null])).toEqual([
      ['ros2-graph', 'ANSWERED', null],
      ['unfetched', 'RETRIEVAL_FAILED', 'deadline'],
    ]);
    expect(grounding?.responses[1]?.error?.message).toMatch(
      /the agent's time ran out, 0\.5 s before the run's deadline/,
    );
    expect(grounding?.deadline_cut).toMatchObject({
      reason: "the agent's time ran out, 0.5 s before the run's deadline",
      questions_not_answered: ['unfetched'],
    });
    expect(embeds).toBeGreaterThan(1);
  }, 60_000);
});
