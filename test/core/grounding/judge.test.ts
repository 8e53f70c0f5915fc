import { describe, expect, it } from 'vitest';
import { answerQuestion } from '../../../functions/core/grounding/agent.ts';
import { answerAgentQuestions } from '../../../functions/core/grounding/answer-agent-questions.ts';
import { describeUnsupported } from '../../../functions/core/grounding/assess-claims.ts';
import { checkGrounding } from '../../../functions/core/grounding/grounding.ts';
import {
  applyJudgements,
  claimKey,
  createJudgeBudget,
  DEFAULT_JUDGE_MAX_CLAIMS,
  describeJudgement,
  evidenceChunks,
  failingStatement,
  judgeClaims,
  MAX_DENIAL_WORDS,
  MAX_STATEMENTS,
  readJudgement,
  stopReason,
} from '../../../functions/core/grounding/judge.ts';
import { createRetrievalTool } from '../../../functions/core/grounding/retrieval-tool.ts';
import type { ChatReply, ClaimJudge, JudgeRequest } from '../../../functions/core/ports.ts';
import {
  type ClaimJudgement,
  type ClaimSupport,
  GroundingReport,
} from '../../../functions/core/report/grounding-report.ts';
import { ChatError, DeadlineError } from '../../../functions/core/shared/errors.ts';
import {
  createFakeChat,
  createFakeClock,
  createFakeEmbedder,
  createFakeIndex,
  createIdSequence,
  hit,
} from '../../agent/fakes.ts';
import { DROPPED, KEPT } from './judge-denial-cases.ts';

const CHUNKS = [
  { id: 'c1', text: 'URDF cannot describe closed kinematic loops.\nIt describes  trees of links.' },
  { id: 'c2', text: 'Gazebo simulates the robot; ROS 2 drives it.' },
];

/**
 * A judge that answers each claim with the reply `answer` gives for it (or throws what it returns); a statement
 * written as CLAIM becomes the claim asked about.
 */
function scriptedJudge(
  answer: (request: JudgeRequest, call: number) => string | Error,
  billed = { inputTokens: 50, outputTokens: 7 },
): ClaimJudge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    model: 'judge-model',
    requests,
    async judge(request) {
      requests.push(request);
      const reply = answer(request, requests.length);
      if (reply instanceof Error) throw reply;
      // A statement written as the placeholder CLAIM is the claim asked about, whole, as a judge would write it.
      return { text: reply.replaceAll(JSON.stringify(CLAIM), JSON.stringify(request.claim)), billedUnits: billed };
    },
  };
}

/** The claim a reply is read for (readJudgement's first argument): it states no number. */
const CLAIM = 'The claim.';
/** A judge's reply with one statement, the claim whole, judged with `fields`. */
const reply = (fields: Record<string, unknown>) =>
  JSON.stringify({ statements: [{ statement: 'The claim.', ...fields }] });
/** A judge's reply with these statements. */
const statements = (...list: unknown[]) => JSON.stringify({ statements: list });

function claim(overrides: Partial<ClaimSupport> = {}): ClaimSupport {
  return {
    kind: 'cited_sentence',
    start: 0,
    end: 10,
    text: 'URDF can describe closed kinematic loops.',
    chunk_ids: ['c1'],
    supported: true,
    word_support: 1,
    content_words: 4,
    missing_words: [],
    missing_numbers: [],
    missing_names: [],
    missing_quantities: [],
    polarity_conflicts: [],
    ...overrides,
  };
}

describe('readJudgement', () => {
  it('keeps a supported verdict whose evidence is in the chunk it names, white space and quote marks aside', () => {
    const judgement = readJudgement(
      CLAIM,
      reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'It describes trees\nof links.', reason: 'same' }),
      CHUNKS,
    );
    const verdict = {
      verdict: 'supported',
      chunk_id: 'c1',
      evidence: 'It describes trees of links.',
      reason: 'same',
      failure: null,
    };
    expect(judgement).toEqual({ ...verdict, statements: [{ statement: 'The claim.', ...verdict }] });
    const curly = readJudgement(CLAIM, reply({ verdict: 'contradicted', chunk_id: 'c3', evidence: '“don’t”' }), [
      { id: 'c3', text: 'Say "don\'t" twice.' },
    ]);
    expect(curly).toMatchObject({ verdict: 'contradicted', evidence: '"don\'t"', reason: '', failure: null });
  });

  it('keeps a contradiction with its evidence', () => {
    const judgement = readJudgement(
      CLAIM,
      reply({ verdict: 'contradicted', chunk_id: 'c1', evidence: 'URDF cannot describe closed kinematic loops.' }),
      CHUNKS,
    );
    expect(judgement.verdict).toBe('contradicted');
    expect(judgement.chunk_id).toBe('c1');
  });

  it('takes not_in_context without evidence, and drops whatever evidence came with it', () => {
    expect(
      readJudgement(
        CLAIM,
        reply({ verdict: 'not_in_context', chunk_id: 'c1', evidence: 'made up', reason: 'absent' }),
        CHUNKS,
      ),
    ).toMatchObject({ verdict: 'not_in_context', chunk_id: null, evidence: null, reason: 'absent', failure: null });
  });

  it('is could_not_verify when the evidence is not in the chunk it names, or names no chunk it was given', () => {
    const elsewhere = readJudgement(
      CLAIM,
      reply({ verdict: 'supported', chunk_id: 'c2', evidence: 'It describes trees of links.' }),
      CHUNKS,
    );
    expect(elsewhere).toMatchObject({ verdict: 'could_not_verify', failure: 'evidence_not_found', evidence: null });
    expect(elsewhere.reason).toContain('is not in chunk c2');
    const stranger = readJudgement(CLAIM, reply({ verdict: 'supported', chunk_id: 'c9', evidence: 'URDF' }), CHUNKS);
    expect(stranger).toMatchObject({ verdict: 'could_not_verify', failure: 'evidence_not_found' });
    expect(stranger.reason).toContain('"c9", not a chunk it was given');
    const noId = readJudgement(CLAIM, reply({ verdict: 'supported', evidence: 'URDF' }), CHUNKS);
    expect(noId.failure).toBe('evidence_not_found');
  });

  it('is could_not_verify when the evidence is empty, punctuation or not a string', () => {
    for (const evidence of ['', '  ', '...', 42, undefined]) {
      const judgement = readJudgement(CLAIM, reply({ verdict: 'contradicted', chunk_id: 'c1', evidence }), CHUNKS);
      expect(judgement, String(evidence)).toMatchObject({ verdict: 'could_not_verify', failure: 'evidence_not_found' });
    }
  });

  it('is could_not_verify (malformed) for a reply that is not JSON, not an object, or has no readable verdict', () => {
    for (const text of ['{"verdict": "supported"', 'null', '[]', '"supported"', '7']) {
      expect(readJudgement(CLAIM, text, CHUNKS), text).toMatchObject({
        verdict: 'could_not_verify',
        failure: 'malformed',
      });
    }
    for (const verdict of ['SUPPORTED', 'entailed', 'could_not_verify', 1, null, undefined]) {
      const judgement = readJudgement(CLAIM, reply({ verdict, chunk_id: 'c1', evidence: 'URDF' }), CHUNKS);
      expect(judgement, String(verdict)).toMatchObject({ verdict: 'could_not_verify', failure: 'malformed' });
    }
    expect(readJudgement(CLAIM, reply({ verdict: 3 }), CHUNKS).reason).toContain('verdict 3 is not one of');
    expect(readJudgement(CLAIM, reply({}), CHUNKS).reason).toContain('verdict null is not one of');
    expect(readJudgement(CLAIM, 'nope', CHUNKS).reason).toBe('the judge\'s reply is not JSON: "nope"');
    for (const text of ['[1]', '7', 'null', '"x"'])
      expect(readJudgement(CLAIM, text, CHUNKS).reason, text).toBe("the judge's reply is not a JSON object");
  });

  it('names a refusal as such', () => {
    for (const text of ["I can't help with that.", 'Sorry, I cannot judge this.', 'I am unable to comply.']) {
      expect(readJudgement(CLAIM, text, CHUNKS), text).toMatchObject({
        verdict: 'could_not_verify',
        failure: 'refused',
      });
    }
    expect(readJudgement(CLAIM, 'I cannot do that', CHUNKS).reason).toBe('the judge refused: "I cannot do that"');
  });

  it('trims the quoted evidence, and takes no span without a letter or a digit even when the chunk has it', () => {
    expect(
      readJudgement(CLAIM, reply({ verdict: 'supported', chunk_id: 'c1', evidence: '  URDF cannot ' }), CHUNKS),
    ).toMatchObject({
      verdict: 'supported',
      evidence: 'URDF cannot',
    });
    expect(readJudgement(CLAIM, reply({ verdict: 'supported', chunk_id: 'c1', evidence: '.' }), CHUNKS)).toMatchObject({
      verdict: 'could_not_verify',
      failure: 'evidence_not_found',
    });
    expect(readJudgement(CLAIM, reply({ verdict: 'supported', chunk_id: 5, evidence: 'URDF' }), CHUNKS).reason).toBe(
      'the judge says supported citing "", not a chunk it was given',
    );
  });

  it('cuts a long reason to one line of 300 characters', () => {
    const judgement = readJudgement(
      CLAIM,
      reply({ verdict: 'not_in_context', reason: `a\n${'b'.repeat(400)}` }),
      CHUNKS,
    );
    expect(judgement.reason.startsWith('a b')).toBe(true);
    expect(judgement.reason.length).toBe(301);
  });
});

describe('readJudgement: the claim split into atomic statements', () => {
  const TWO_FACTS = [
    { id: 'c1', text: 'Isaac Sim runs on Ubuntu. It needs a GPU with 8 GB of memory.' },
    { id: 'c2', text: 'Gazebo is free.' },
  ];

  it('catches a two-fact sentence with one false fact, and names the false statement', () => {
    const judgement = readJudgement(
      CLAIM,
      statements(
        {
          statement: 'Isaac Sim runs on Ubuntu.',
          verdict: 'supported',
          chunk_id: 'c1',
          evidence: 'Isaac Sim runs on Ubuntu.',
          reason: 'stated',
        },
        {
          statement: 'Isaac Sim needs 64 GB of memory.',
          verdict: 'contradicted',
          chunk_id: 'c1',
          evidence: 'It needs a GPU with 8 GB of memory.',
          reason: 'the passage says 8 GB',
        },
      ),
      TWO_FACTS,
    );
    expect(judgement).toMatchObject({
      verdict: 'contradicted',
      chunk_id: 'c1',
      evidence: 'It needs a GPU with 8 GB of memory.',
      reason: 'the passage says 8 GB',
      failure: null,
    });
    expect(judgement.statements?.map((s) => [s.statement, s.verdict])).toEqual([
      ['Isaac Sim runs on Ubuntu.', 'supported'],
      ['Isaac Sim needs 64 GB of memory.', 'contradicted'],
    ]);
    expect(failingStatement(judgement)?.statement).toBe('Isaac Sim needs 64 GB of memory.');
    const line = describeJudgement(
      { text: 'Isaac Sim runs on Ubuntu and needs 64 GB of memory.', chunk_ids: ['c1'] },
      judgement,
    );
    expect(line).toBe(
      'the judge finds statement "Isaac Sim needs 64 GB of memory." of claim "Isaac Sim runs on Ubuntu and needs 64 GB of memory." contradicted by c1, which says "It needs a GPU with 8 GB of memory.": the passage says 8 GB',
    );
  });

  it('is supported only when every statement is, and takes the first statement on a tie', () => {
    const both = readJudgement(
      CLAIM,
      statements(
        {
          statement: 'Isaac Sim runs on Ubuntu.',
          verdict: 'supported',
          chunk_id: 'c1',
          evidence: 'runs on Ubuntu',
          reason: 'a',
        },
        {
          statement: 'Gazebo is free.',
          verdict: 'supported',
          chunk_id: 'c2',
          evidence: 'Gazebo is free.',
          reason: 'b',
        },
      ),
      TWO_FACTS,
    );
    expect(both).toMatchObject({ verdict: 'supported', chunk_id: 'c1', evidence: 'runs on Ubuntu', reason: 'a' });
    const twoAbsent = readJudgement(
      CLAIM,
      statements(
        { statement: 'A.', verdict: 'not_in_context', reason: 'first' },
        { statement: 'B.', verdict: 'not_in_context', reason: 'second' },
      ),
      TWO_FACTS,
    );
    expect(twoAbsent.reason).toBe('first');
    expect(failingStatement(twoAbsent)?.statement).toBe('A.');
  });

  it('ranks the verdicts: contradicted over not_in_context over could_not_verify over supported', () => {
    const ok = { statement: 'Gazebo is free.', verdict: 'supported', chunk_id: 'c2', evidence: 'Gazebo is free.' };
    const absent = { statement: 'Gazebo is open.', verdict: 'not_in_context' };
    const wrong = {
      statement: 'Gazebo is paid.',
      verdict: 'contradicted',
      chunk_id: 'c2',
      evidence: 'Gazebo is free.',
    };
    const unreadable = { statement: 'Gazebo is old.', verdict: 'maybe' };
    const verdictOf = (...list: unknown[]) => readJudgement(CLAIM, statements(...list), TWO_FACTS).verdict;
    expect(verdictOf(ok, unreadable)).toBe('could_not_verify');
    expect(verdictOf(unreadable, ok)).toBe('could_not_verify');
    expect(verdictOf(unreadable, absent)).toBe('not_in_context');
    expect(verdictOf(absent, unreadable)).toBe('not_in_context');
    expect(verdictOf(absent, wrong)).toBe('contradicted');
    expect(verdictOf(wrong, absent, unreadable, ok)).toBe('contradicted');
    expect(verdictOf(ok, ok)).toBe('supported');
  });

  it('is could_not_verify (malformed) without statements: missing, not a list, empty, or too many', () => {
    for (const text of [
      '{}',
      '{"statements": null}',
      '{"statements": {}}',
      '{"statements": "x"}',
      '{"statements": []}',
    ]) {
      const judgement = readJudgement(CLAIM, text, TWO_FACTS);
      expect(judgement, text).toEqual({
        verdict: 'could_not_verify',
        chunk_id: null,
        evidence: null,
        reason: "the judge's reply has no statements",
        failure: 'malformed',
      });
    }
    // A single verdict without statements (the judge's earlier reply) is no longer read.
    expect(
      readJudgement(CLAIM, '{"verdict": "supported", "chunk_id": "c2", "evidence": "Gazebo is free."}', TWO_FACTS),
    ).toMatchObject({
      verdict: 'could_not_verify',
      failure: 'malformed',
    });
    const one = { statement: 'Gazebo is free.', verdict: 'supported', chunk_id: 'c2', evidence: 'Gazebo is free.' };
    const most = readJudgement(CLAIM, statements(...Array.from({ length: MAX_STATEMENTS }, () => one)), TWO_FACTS);
    expect(most.verdict).toBe('supported');
    expect(most.statements).toHaveLength(20);
    const tooMany = readJudgement(
      CLAIM,
      statements(...Array.from({ length: MAX_STATEMENTS + 1 }, () => one)),
      TWO_FACTS,
    );
    expect(tooMany).toMatchObject({
      verdict: 'could_not_verify',
      failure: 'malformed',
      reason: 'the judge split the claim into 21 statements, more than 20',
    });
    expect(tooMany.statements).toBeUndefined();
  });

  it('makes a statement that is not an object, or states nothing, could_not_verify: never supported', () => {
    const ok = { statement: 'Gazebo is free.', verdict: 'supported', chunk_id: 'c2', evidence: 'Gazebo is free.' };
    for (const [bad, text, reason] of [
      ['x', '(statement 2: not a JSON object)', "the judge's statement 2 is not a JSON object"],
      [null, '(statement 2: not a JSON object)', "the judge's statement 2 is not a JSON object"],
      [[ok], '(statement 2: not a JSON object)', "the judge's statement 2 is not a JSON object"],
      [{ ...ok, statement: ' ... ' }, '(statement 2: no text)', "the judge's statement 2 states nothing"],
      [{ ...ok, statement: 7 }, '(statement 2: no text)', "the judge's statement 2 states nothing"],
      [
        { verdict: 'supported', chunk_id: 'c2', evidence: 'Gazebo is free.' },
        '(statement 2: no text)',
        "the judge's statement 2 states nothing",
      ],
    ] as const) {
      const judgement = readJudgement(CLAIM, statements(ok, bad), TWO_FACTS);
      expect(judgement, JSON.stringify(bad)).toMatchObject({
        verdict: 'could_not_verify',
        failure: 'malformed',
        reason,
      });
      expect(judgement.statements?.[1]).toEqual({
        statement: text,
        verdict: 'could_not_verify',
        chunk_id: null,
        evidence: null,
        reason,
        failure: 'malformed',
      });
      expect(judgement.statements?.[0]?.verdict).toBe('supported');
    }
  });

  it('checks each statement’s evidence in the chunk it names, and each verdict, apart', () => {
    const judgement = readJudgement(
      CLAIM,
      statements(
        { statement: 'Gazebo is free.', verdict: 'supported', chunk_id: 'c2', evidence: 'Gazebo is free.' },
        {
          statement: 'Isaac Sim runs on Ubuntu.',
          verdict: 'supported',
          chunk_id: 'c2',
          evidence: 'Isaac Sim runs on Ubuntu.',
        },
        { statement: 'Gazebo is paid.', verdict: 'SUPPORTED', chunk_id: 'c2', evidence: 'Gazebo is free.' },
      ),
      TWO_FACTS,
    );
    expect(judgement.statements?.map((s) => [s.verdict, s.failure])).toEqual([
      ['supported', null],
      ['could_not_verify', 'evidence_not_found'],
      ['could_not_verify', 'malformed'],
    ]);
    expect(judgement).toMatchObject({ verdict: 'could_not_verify', failure: 'evidence_not_found' });
    expect(judgement.reason).toContain('is not in chunk c2');
    expect(
      describeJudgement({ text: 'Gazebo is free, and Isaac Sim runs on Ubuntu.', chunk_ids: ['c2'] }, judgement),
    ).toBe(
      `the judge could not verify statement "Isaac Sim runs on Ubuntu." of claim "Gazebo is free, and Isaac Sim runs on Ubuntu." (evidence_not_found): ${judgement.reason}`,
    );
  });

  it('names the statement only when the claim was split; a claim without statements names the claim', () => {
    const one = readJudgement(
      CLAIM,
      statements({
        statement: 'Gazebo is paid.',
        verdict: 'contradicted',
        chunk_id: 'c2',
        evidence: 'Gazebo is free.',
      }),
      TWO_FACTS,
    );
    expect(describeJudgement({ text: 'Gazebo costs money.', chunk_ids: ['c2'] }, one)).toBe(
      'the judge finds claim "Gazebo costs money." contradicted by c2, which says "Gazebo is free."',
    );
    const { statements: _, ...without } = one;
    expect(failingStatement(without)).toBeUndefined();
    expect(failingStatement(one)?.statement).toBe('Gazebo is paid.');
    // A contradiction without evidence (a judgement written by hand) and a claim citing two chunks still read.
    expect(describeJudgement({ text: 'x', chunk_ids: ['c1', 'c2'] }, { ...without, evidence: null, reason: '' })).toBe(
      'the judge finds claim "x" contradicted by c2, which says ""',
    );
    expect(
      describeJudgement({ text: 'x', chunk_ids: ['c1', 'c2'] }, { ...without, verdict: 'not_in_context', reason: '' }),
    ).toBe('the judge finds claim "x" not in the chunks it cites (c1, c2)');
  });

  it('quotes no evidence that is not a string', () => {
    const judgement = readJudgement(
      CLAIM,
      statements({ statement: 'Gazebo is free.', verdict: 'supported', chunk_id: 'c2', evidence: 42 }),
      TWO_FACTS,
    );
    expect(judgement.reason).toBe('the judge says supported, but its evidence "" is not in chunk c2');
  });

  it('is could_not_verify (incomplete) when statements all supported leave out a number the claim states', () => {
    const claim = 'Isaac Sim runs on Ubuntu 22 and needs 64 GB of memory, 64 at least.';
    const ubuntu = {
      statement: 'Isaac Sim runs on Ubuntu 22.',
      verdict: 'supported',
      chunk_id: 'c1',
      evidence: 'Isaac Sim runs on Ubuntu.',
    };
    const dropped = readJudgement(claim, statements(ubuntu), TWO_FACTS);
    expect(dropped).toEqual({
      verdict: 'could_not_verify',
      chunk_id: null,
      evidence: null,
      reason: 'the judge\'s statements leave out "64 GB", "64" of the claim',
      failure: 'incomplete',
      statements: [{ ...ubuntu, reason: '', failure: null }],
    });
    expect(describeJudgement({ text: claim, chunk_ids: ['c1'] }, dropped)).toBe(
      `the judge could not verify claim "${claim}" (incomplete): the judge's statements leave out "64 GB", "64" of the claim`,
    );
    const memory = {
      statement: 'Isaac Sim needs 64 GB.',
      verdict: 'supported',
      chunk_id: 'c1',
      evidence: 'It needs a GPU',
    };
    expect(readJudgement(claim, statements(ubuntu, memory), TWO_FACTS).verdict).toBe('supported');
    // A refuted or absent statement is the verdict, whatever the statements leave out.
    expect(
      readJudgement(claim, statements({ statement: 'Isaac Sim needs a lot.', verdict: 'not_in_context' }), TWO_FACTS)
        .verdict,
    ).toBe('not_in_context');
    // Numbers are read in digits, thousands separators aside; each one the claim states must be in some statement.
    const many = (statement: string) =>
      readJudgement('It holds 1,000 nodes at 2.5 Hz.', statements({ ...ubuntu, statement }), TWO_FACTS);
    expect(many('It holds 1000 nodes at 2.5 Hz.').verdict).toBe('supported');
    expect(many('It holds 1 000 nodes at 2.5 Hz.').reason).toBe(
      'the judge\'s statements leave out "1,000" of the claim',
    );
    expect(many('It holds 1,000 nodes at 2 Hz.').reason).toBe(
      'the judge\'s statements leave out "2.5 Hz" of the claim',
    );
    expect(many('It holds nodes.').reason).toBe('the judge\'s statements leave out "1,000", "2.5 Hz" of the claim');
    const one = (claimText: string, statement: string) =>
      readJudgement(claimText, statements({ ...ubuntu, statement }), TWO_FACTS);
    expect(one('It runs at 0.35 Hz.', 'It runs at 0.36 Hz.').reason).toBe(
      'the judge\'s statements leave out "0.35 Hz" of the claim',
    );
    // The statements are read apart: a statement without a full stop does not glue its last figure to the next one.
    expect(
      readJudgement(
        'Nav2 runs on ROS 2 and plans every 5 seconds.',
        statements(
          { ...ubuntu, statement: 'Nav2 runs on ROS 2' },
          { ...ubuntu, statement: 'Nav2 plans every 5 seconds.' },
        ),
        TWO_FACTS,
      ).verdict,
    ).toBe('supported');
    // A claim without a number leaves nothing out, whatever numbers the statements add.
    expect(one('It runs fast.', 'It runs at 5 Hz.').verdict).toBe('supported');
  });

  it('reads the figures as quantities.ts does: words, units and conversions kept by value, a version no figure', () => {
    const one = (claimText: string, statement: string) =>
      readJudgement(
        claimText,
        statements({ statement, verdict: 'supported', chunk_id: 'c1', evidence: 'Isaac Sim runs on Ubuntu.' }),
        TWO_FACTS,
      );
    const kept = (claimText: string, statement: string) => expect(one(claimText, statement).verdict).toBe('supported');
    const left = (claimText: string, statement: string, named: string) =>
      expect(one(claimText, statement)).toMatchObject({
        verdict: 'could_not_verify',
        failure: 'incomplete',
        reason: `the judge's statements leave out ${named} of the claim`,
      });
    // A number written in words, on either side, is its value.
    kept('It needs 64 GB of RAM.', 'It needs sixty-four gigabytes of RAM.');
    kept('It needs sixty-four gigabytes of RAM.', 'It needs 64 GB of RAM.');
    kept('It runs three nodes.', 'It runs 3 nodes.');
    kept('It runs 3 nodes.', 'It runs three nodes.');
    left('It runs three nodes.', 'It runs nodes.', '"three"');
    left('It runs three nodes.', 'It runs 4 nodes.', '"three"');
    left('It needs sixty-four gigabytes of RAM.', 'It needs RAM.', '"sixty-four gigabytes"');
    kept('It runs two hundred and forty nodes.', 'It runs 240 nodes.');
    left('It runs two hundred and forty nodes.', 'It runs 200 nodes.', '"two hundred and forty"');
    // A quantity is kept by the same amount in any unit of its dimension, or its number alone; not another amount.
    kept('It needs 64 GB of RAM.', 'It needs 64,000 MB of RAM.');
    kept('It needs 64 GB of RAM.', 'It needs 64 of them.');
    left('It needs 64 GB of RAM.', 'It needs 64 MB of RAM.', '"64 GB"');
    left('It needs 64 GB of RAM.', 'It needs 64 GHz.', '"64 GB"');
    kept('It answers in 1000 ms.', 'It answers in a second.');
    left('It answers in 1000 ms.', 'It answers in 1001 ms.', '"1000 ms"');
    kept('It bakes at 96 °C.', 'It bakes at 205 °F.');
    // A bare number is kept by the same number with a unit the statement adds, and by value ("1.50" is "1.5").
    kept('It runs at 30.', 'It runs at 30 Hz.');
    kept('It runs at 1.5 Hz.', 'It runs at 1.50 Hz.');
    left('It runs at 1.5 Hz.', 'It runs at 15 Hz.', '"1.5 Hz"');
    // An ordinal in digits is kept by its word; the claim's own ordinal words state no figure.
    kept('The 3rd node leads.', 'The third node leads.');
    left('The 3rd node leads.', 'The second node leads.', '"3rd"');
    left('It is 2x faster.', 'It is faster.', '"2x"');
    left('It is 2 times faster.', 'It is faster.', '"2"');
    kept('The third node leads.', 'The node leads.');
    // A range: both ends are figures, each with the range's unit.
    kept('It takes 20-30 minutes.', 'It takes 20 to 30 minutes.');
    left('It takes 20-30 minutes.', 'It takes 30 minutes.', '"20 minutes"');
    left('It heats to 230 to 250 °C.', 'It heats to 230 °C.', '"250 °C"');
    // A version glued to letters is a name, not a figure; a number after a name ("ROS 2") is one.
    kept('Nav2 v2 plans paths.', 'The planner plans paths.');
    left('It runs on ROS 2.', 'It runs on ROS.', '"2"');
    // "one" as a pronoun is no figure of the claim; before a unit it is one.
    kept('Pick one of them.', 'Pick a node.');
    left('It waits one minute.', 'It waits.', '"one minute"');
  });

  it('is could_not_verify (incomplete) when the statements leave out a denial of the claim, and names it', () => {
    const judged = (claimText: string, ...texts: string[]) =>
      readJudgement(
        claimText,
        statements(
          ...texts.map((statement) => ({
            statement,
            verdict: 'supported',
            chunk_id: 'c1',
            evidence: 'Isaac Sim runs on Ubuntu.',
          })),
        ),
        TWO_FACTS,
      );
    const reason = (named: string) => `the judge's statements leave out the claim's denial ${named}`;
    // The opposite stated, in the claim's words.
    expect(judged('Isaac Sim does not need a GPU.', 'Isaac Sim needs a GPU.')).toMatchObject({
      verdict: 'could_not_verify',
      failure: 'incomplete',
      reason: reason('"not need a GPU"'),
      chunk_id: null,
      evidence: null,
    });
    expect(judged("Isaac Sim doesn't need a GPU.", 'Isaac Sim needs a GPU.').reason).toBe(
      reason('"doesn\'t need a GPU"'),
    );
    expect(judged('URDF never describes closed loops.', 'URDF describes closed loops.').reason).toBe(
      reason('"never describes"'),
    );
    // The name runs to the first word that carries meaning, four words at most after the cue.
    expect(judged('The hub runs without a certificate.', 'The hub runs with a certificate.').reason).toBe(
      reason('"without a certificate"'),
    );
    // The denied fact split off and dropped, no other denial stated: left out.
    const twoFacts = 'Nav2 does not need a map, and it plans paths.';
    expect(judged(twoFacts, 'Nav2 plans paths.').reason).toBe(reason('"not need a map"'));
    expect(judged(twoFacts, 'Nav2 does not need a map.', 'Nav2 plans paths.').verdict).toBe('supported');
    // A statement that names the denied word under another denial keeps it; one that denies something else does
    // not keep a denial it leaves unnamed only when it states the opposite.
    expect(judged('Isaac Sim does not need a GPU.', 'Isaac Sim works without a GPU.').verdict).toBe('supported');
    expect(judged(twoFacts, 'Nav2 plans paths.', 'Nav2 does not stop.').verdict).toBe('supported');
    // Two denials, each named; a figure and a denial both left out are named together.
    expect(judged('The bus is not fast and not cheap.', 'The bus is fast.').reason).toBe(
      reason('"not fast", "not cheap"'),
    );
    expect(judged('It does not need 64 GB.', 'It needs memory.').reason).toBe(
      'the judge\'s statements leave out "64 GB" of the claim and the claim\'s denial "not need 64 GB"',
    );
    // A word glued into a name is no denial: "NOT_LEADER", "no-op".
    expect(judged('Writes fail with NOT_LEADER.', 'Writes fail.').verdict).toBe('supported');
    expect(judged('The call is a no-op.', 'The call does nothing harmful.').verdict).toBe('supported');
    expect(judged('Writes return ERR_NOT leader errors.', 'Writes return leader errors.').verdict).toBe('supported');
    // With no word of meaning within four words after the cue, the name is those four words.
    expect(judged('The tool is not to be used on Windows.', 'The tool is to be used on Windows.').reason).toBe(
      reason('"not to be used on"'),
    );
    // A statement that names the denied word, without a denial and without a conflict polarity.ts can read, keeps it
    // (words are compared lowercased: "GPU" names "gpu").
    expect(judged('Isaac Sim does not need a GPU.', 'The GPU is optional.').verdict).toBe('supported');
    // A conflict that is no denial (an antonym) is not a denial left out.
    expect(judged('The bus is not fast and it is cheap.', 'The bus is not fast and it is expensive.').verdict).toBe(
      'supported',
    );
    // A claim longer than MAX_DENIAL_WORDS is not read for denials (each word is one reading of the claim).
    const padded = (words: number) =>
      `The bus does not need a permit ${Array.from({ length: words - 7 }, (_, i) => `stop${i}`).join(' ')}.`;
    expect(judged(padded(MAX_DENIAL_WORDS), 'The bus needs a permit.').reason).toBe(reason('"not need a permit"'));
    expect(judged(padded(MAX_DENIAL_WORDS + 1), 'The bus needs a permit.').verdict).toBe('supported');
    // A claim without a denial, or one polarity.ts does not read as one, is not checked.
    expect(
      judged('It runs not only on Linux but on Windows.', 'It runs on Linux.', 'It runs on Windows.').verdict,
    ).toBe('supported');
    // A statement refuted or not in the context is the verdict, whatever denial is left out.
    expect(
      readJudgement(
        'Isaac Sim does not need a GPU.',
        statements({ statement: 'Isaac Sim needs a GPU.', verdict: 'not_in_context' }),
        TWO_FACTS,
      ).verdict,
    ).toBe('not_in_context');
  });

  it('on its own cases (judge-denial-cases.ts): keeps 29 of 30 restated denials, catches 22 of 24 dropped ones', () => {
    const verdictOf = ({ claim: text, statements: list }: { claim: string; statements: string[] }) =>
      readJudgement(
        text,
        statements(
          ...list.map((statement) => ({
            statement,
            verdict: 'supported',
            chunk_id: 'c1',
            evidence: 'Isaac Sim runs on Ubuntu.',
          })),
        ),
        TWO_FACTS,
      ).verdict;
    const flagged = KEPT.filter((c) => verdictOf(c) !== 'supported').map((c) => c.claim);
    const missed = DROPPED.filter((c) => verdictOf(c) === 'supported').map((c) => c.claim);
    // polarity.ts reads "no longer" as no denial (a bound, like "no later"): the restatement looks like the opposite.
    expect(flagged).toEqual(['Trains do not stop at the old station any more.']);
    // A denial after a comma that drops its verb ("not on Windows") and "neither ... nor" split into two plain
    // statements: polarity.ts finds no conflict with the statements.
    expect(missed).toEqual([
      'The job runs on Linux, not on Windows.',
      'Neither the client nor the server logs the token.',
    ]);
  });

  it('reads a statement’s text as written, white space collapsed and cut at 300 characters', () => {
    const judgement = readJudgement(
      CLAIM,
      statements({ statement: `  Gazebo\n is  ${'very '.repeat(80)}free. `, verdict: 'not_in_context' }),
      TWO_FACTS,
    );
    const text = judgement.statements?.[0]?.statement ?? '';
    expect(text.startsWith('Gazebo is very')).toBe(true);
    expect(text).toHaveLength(301);
  });
});

describe('evidenceChunks', () => {
  const texts = { c1: 'one', c2: 'two' };
  it('gives a cited claim the chunks it cites, and an uncited one every chunk', () => {
    expect(evidenceChunks({ kind: 'cited_sentence', chunk_ids: ['c2', 'c9'] }, texts)).toEqual([
      { id: 'c2', text: 'two' },
    ]);
    expect(evidenceChunks({ kind: 'uncited_sentence', chunk_ids: [] }, texts)).toEqual([
      { id: 'c1', text: 'one' },
      { id: 'c2', text: 'two' },
    ]);
  });
});

describe('judgeClaims', () => {
  const chunkTexts = Object.fromEntries(CHUNKS.map((c) => [c.id, c.text]));

  it('asks once per claim with the claim and its evidence, and sums what the calls cost', async () => {
    const judge = scriptedJudge(() => reply({ verdict: 'not_in_context' }));
    const claims = [claim(), claim({ start: 11, end: 20, text: 'Gazebo runs ROS 2.', chunk_ids: ['c2'] })];
    const { judgements, usage } = await judgeClaims({ claims, chunkTexts, judge, budget: createJudgeBudget(10) });
    expect(judge.requests).toEqual([
      { claim: 'URDF can describe closed kinematic loops.', chunks: [CHUNKS[0]] },
      { claim: 'Gazebo runs ROS 2.', chunks: [CHUNKS[1]] },
    ]);
    expect([...judgements.keys()]).toEqual(['0:10', '11:20']);
    expect(usage).toEqual({ input_tokens: 100, output_tokens: 14 });
  });

  it('spends the run budget across answers and marks the claims past it could_not_verify without a call', async () => {
    const judge = scriptedJudge(() => reply({ verdict: 'not_in_context' }));
    const budget = createJudgeBudget(2);
    const claims = [claim(), claim({ start: 11, end: 20 })];
    await judgeClaims({ claims, chunkTexts, judge, budget });
    const second = await judgeClaims({ claims: [claim({ start: 30, end: 40 })], chunkTexts, judge, budget });
    expect(judge.requests).toHaveLength(2);
    expect(budget.used).toBe(2);
    expect(second.judgements.get('30:40')).toMatchObject({ verdict: 'could_not_verify', failure: 'budget_exhausted' });
    expect(second.judgements.get('30:40')?.reason).toBe("the run's judge budget of 2 claims was spent");
    expect(second.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(createJudgeBudget(-3).maxClaims).toBe(0);
    expect(DEFAULT_JUDGE_MAX_CLAIMS).toBe(100);
  });

  it('turns a timeout into could_not_verify (timeout) and any other failure into (unavailable), and goes on', async () => {
    const judge = scriptedJudge((_, call) =>
      call === 1
        ? new ChatError('Cohere chat timed out', 'timeout')
        : call === 2
          ? new ChatError('Cohere chat failed with HTTP 500', 'unavailable')
          : call === 3
            ? new Error('boom')
            : reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'URDF' }),
    );
    const claims = [0, 1, 2, 3].map((i) => claim({ start: i * 10, end: i * 10 + 5 }));
    const { judgements, usage } = await judgeClaims({ claims, chunkTexts, judge, budget: createJudgeBudget(9) });
    expect([...judgements.values()].map((j) => [j.verdict, j.failure])).toEqual([
      ['could_not_verify', 'timeout'],
      ['could_not_verify', 'unavailable'],
      ['could_not_verify', 'unavailable'],
      ['supported', null],
    ]);
    expect(judgements.get('0:5')?.reason).toContain('timed out');
    expect(usage).toEqual({ input_tokens: 50, output_tokens: 7 });
  });

  it('stops at the agent’s deadline: verdicts had are kept, the call it cut and the claims left are deadline', async () => {
    // Prepare
    const stop = new AbortController();
    const judge = scriptedJudge((_, call) => {
      if (call === 1) return reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'URDF' });
      // The second call is cut by the stop: its failure is the run's time, not the judge timing out.
      stop.abort(new DeadlineError("the agent's time ran out, 0.5 s before the run's deadline"));
      return new ChatError('Cohere judge was cut', 'timeout');
    });
    const claims = [0, 1, 2].map((i) => claim({ start: i * 10, end: i * 10 + 5 }));
    const budget = createJudgeBudget(9);

    // Act
    const { judgements, usage } = await judgeClaims({ claims, chunkTexts, judge, budget, stop: stop.signal });

    // Assess
    expect([...judgements.values()].map((j) => [j.verdict, j.failure])).toEqual([
      ['supported', null],
      ['could_not_verify', 'deadline'],
      ['could_not_verify', 'deadline'],
    ]);
    expect(judgements.get('20:25')?.reason).toBe(
      "not judged: the agent's time ran out, 0.5 s before the run's deadline",
    );
    expect(judge.requests).toHaveLength(2);
    expect(budget.used).toBe(2);
    expect(usage).toEqual({ input_tokens: 50, output_tokens: 7 });
  });

  it('calls nothing once stopped, and a stop without an error for reason still says the run had to stop', async () => {
    const stop = new AbortController();
    stop.abort('plain');
    const judge = scriptedJudge(() => new Error('not called'));
    const { judgements } = await judgeClaims({
      claims: [claim()],
      chunkTexts,
      judge,
      budget: createJudgeBudget(0),
      stop: stop.signal,
    });
    expect(judge.requests).toHaveLength(0);
    // The deadline, not the spent budget: no call would have started either way, and this is why.
    expect(judgements.get('0:10')).toEqual({
      verdict: 'could_not_verify',
      chunk_id: null,
      evidence: null,
      reason: 'not judged: the run had to stop',
      failure: 'deadline',
    });
    expect(stopReason(stop.signal)).toBe('the run had to stop');
  });

  it('finds a claim whose citations name no given chunk not in context, without a call or a budget', async () => {
    const judge = scriptedJudge(() => new Error('not called'));
    const budget = createJudgeBudget(0);
    const { judgements } = await judgeClaims({ claims: [claim({ chunk_ids: ['gone'] })], chunkTexts, judge, budget });
    expect(judgements.get('0:10')).toEqual({
      verdict: 'not_in_context',
      chunk_id: null,
      evidence: null,
      reason: 'no chunk given to the model to check it against',
      failure: null,
    });
    expect(judge.requests).toHaveLength(0);
  });
});

describe('applyJudgements and describeJudgement', () => {
  const supported: ClaimJudgement = {
    verdict: 'supported',
    chunk_id: 'c1',
    evidence: 'URDF',
    reason: '',
    failure: null,
  };
  const contradicted: ClaimJudgement = {
    verdict: 'contradicted',
    chunk_id: 'c1',
    evidence: 'URDF cannot describe closed kinematic loops.',
    reason: 'negation flipped',
    failure: null,
  };

  it('makes the judge final on the claims it judged, keeps the lexical verdict beside, leaves the rest', () => {
    const claims = [claim({ supported: true }), claim({ start: 20, end: 30, supported: false })];
    const judged = applyJudgements(claims, new Map([[claimKey(claims[0] as ClaimSupport), contradicted]]));
    expect(judged[0]).toMatchObject({ supported: false, lexical_supported: true, judge: contradicted });
    expect(judged[1]).toEqual(claims[1]);
    const flipped = applyJudgements([claim({ supported: false })], new Map([['0:10', supported]]));
    expect(flipped[0]).toMatchObject({ supported: true, lexical_supported: false });
    expect(applyJudgements(claims, undefined)).toEqual(claims);
  });

  it('says what the judge found, with the evidence, in one line', () => {
    expect(describeJudgement(claim(), contradicted)).toBe(
      'the judge finds claim "URDF can describe closed kinematic loops." contradicted by c1, which says "URDF cannot describe closed kinematic loops.": negation flipped',
    );
    const absent: ClaimJudgement = {
      verdict: 'not_in_context',
      chunk_id: null,
      evidence: null,
      reason: '',
      failure: null,
    };
    expect(describeJudgement(claim(), absent)).toBe(
      'the judge finds claim "URDF can describe closed kinematic loops." not in the chunks it cites (c1)',
    );
    expect(describeJudgement(claim({ chunk_ids: [] }), absent)).toBe(
      'the judge finds claim "URDF can describe closed kinematic loops." not in the chunks it was given',
    );
    expect(describeJudgement(claim({ text: 'y'.repeat(80) }), absent)).toContain(`"${'y'.repeat(80)}" not in`);
    const failed: ClaimJudgement = {
      verdict: 'could_not_verify',
      chunk_id: null,
      evidence: null,
      reason: 'timed out',
      failure: 'timeout',
    };
    expect(describeJudgement(claim(), failed)).toBe(
      'the judge could not verify claim "URDF can describe closed kinematic loops." (timeout): timed out',
    );
    expect(describeJudgement(claim(), supported)).toContain('supported by c1');
    expect(describeJudgement(claim({ text: 'x'.repeat(100) }), supported)).toContain(`"${'x'.repeat(80)}…"`);
    // The report's reasons read the judge's words once a judge gave the verdict.
    expect(describeUnsupported({ ...claim(), judge: contradicted })).toBe(describeJudgement(claim(), contradicted));
  });
});

describe('checkGrounding with judgements', () => {
  it('fails the claims the judge refutes though the lexical gate passed them, and passes what it supports', () => {
    const text = 'Gazebo drives the robot.';
    const options = {
      response: { response_text: text, citations: [{ start: 0, end: 24, text, document_ids: ['c2'] }] },
      retrievedChunkIds: ['c2'],
      chunkTexts: { c2: 'Gazebo drives the robot.' },
      expectAnswer: true,
    };
    expect(checkGrounding(options).passed).toBe(true);
    const refuted = checkGrounding({
      ...options,
      judgements: new Map([['0:24', { ...supported(), verdict: 'contradicted' as const }]]),
    });
    expect(refuted).toMatchObject({ passed: false, error_type: 'UNSUPPORTED_CLAIM', support_ratio: 0 });
    expect(refuted.reasons[0]).toContain('the judge finds claim');
  });
  const supported = (): ClaimJudgement => ({
    verdict: 'supported',
    chunk_id: 'c2',
    evidence: 'Gazebo drives the robot.',
    reason: '',
    failure: null,
  });
});

describe('the agent with a judge', () => {
  const HITS = [hit('c1', 0.9, 'ROS 2 nodes exchange messages over topics.'), hit('c2', 0.8, 'A node may publish.')];
  const TEXT = 'ROS 2 nodes exchange messages over topics.';
  const REPLY: ChatReply = {
    text: TEXT,
    citations: [{ start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] }],
    billedUnits: { inputTokens: 120, outputTokens: 14 },
  };
  const setUp = () => {
    const clock = createFakeClock();
    const index = createFakeIndex(HITS);
    return {
      chat: createFakeChat(REPLY),
      clock,
      newId: createIdSequence(),
      tool: createRetrievalTool({ embedder: createFakeEmbedder(), index, clock }),
    };
  };
  const QUESTION = { id: 'topics', query_text: 'How do nodes talk?', expect_answer: true };

  it('judges the answer’s claims after the lexical gate, and reports the judge’s verdict, cost and time', async () => {
    const deps = setUp();
    const judge = scriptedJudge(() => {
      deps.clock.advance(40);
      return reply({ verdict: 'contradicted', chunk_id: 'c1', evidence: 'exchange messages over topics', reason: 'x' });
    });
    const response = await answerQuestion({
      ...deps,
      query: QUESTION,
      topK: 5,
      minRelevance: 0.5,
      claimJudge: { judge, budget: createJudgeBudget(5) },
    });
    expect(judge.requests).toEqual([{ claim: TEXT, chunks: [{ id: 'c1', text: TEXT }] }]);
    const [only] = response.grounding_validation?.claims ?? [];
    expect(only).toMatchObject({ supported: false, lexical_supported: true, judge: { verdict: 'contradicted' } });
    expect(response.grounding_validation?.error_type).toBe('UNSUPPORTED_CLAIM');
    expect(response.judge_token_usage).toEqual({ input_tokens: 50, output_tokens: 7 });
    expect(response.latency).toMatchObject({ judge_ms: 40, total_ms: 40 });
    expect(response.confidence_components.support_ratio).toBe(0);
  });

  it('does not call the judge without claims, and leaves no judge fields without a judge', async () => {
    const deps = setUp();
    const plain = await answerQuestion({ ...deps, query: QUESTION, topK: 5, minRelevance: 0.5 });
    expect(plain.judge_token_usage).toBeUndefined();
    expect(plain.latency.judge_ms).toBeUndefined();
    expect(plain.grounding_validation?.claims[0]?.judge).toBeUndefined();
    const judge = scriptedJudge(() => new Error('not called'));
    const abstaining = { ...deps, chat: createFakeChat({ ...REPLY, text: "I don't know.", citations: [] }) };
    await answerQuestion({
      ...abstaining,
      query: QUESTION,
      topK: 5,
      minRelevance: 0.5,
      claimJudge: { judge, budget: createJudgeBudget(5) },
    });
    expect(judge.requests).toHaveLength(0);
  });

  it('sums the judge into the run report, with its mode, budget and verdicts; could_not_verify is MEDIUM', async () => {
    const deps = setUp();
    const judge = scriptedJudge((_, call) =>
      call === 1 ? reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'ROS 2 nodes' }) : 'not json',
    );
    const queries = ['a', 'b', 'c'].map((id) => ({
      ...QUESTION,
      id,
      agent: true,
      top_k: 5,
      min_similarity: 0.5,
      filters: {},
    }));
    const { report, errors } = await answerAgentQuestions({
      ...deps,
      queries,
      maxAgentQueries: 3,
      judge,
      judgeMaxClaims: 2,
    });
    expect(report.judge).toEqual({
      mode: 'cohere',
      model: 'judge-model',
      max_claims: 2,
      judged: 2,
      verdicts: { supported: 1, contradicted: 0, not_in_context: 0, could_not_verify: 2 },
      token_usage: { input_tokens: 100, output_tokens: 14 },
    });
    expect(report.token_usage).toEqual({ input_tokens: 3 * 120 + 100, output_tokens: 3 * 14 + 14 });
    expect(report.supported_claims).toBe(1);
    expect(
      errors.map((e) => [e.error_type, e.severity, (e.details.judge as ClaimJudgement | undefined)?.failure]),
    ).toEqual([
      ['UNSUPPORTED_CLAIM', 'MEDIUM', 'malformed'],
      ['UNSUPPORTED_CLAIM', 'MEDIUM', 'budget_exhausted'],
    ]);
    expect(errors[0]?.details.lexical_supported).toBe(true);
    const lexical = await answerAgentQuestions({ ...setUp(), queries, maxAgentQueries: 1 });
    expect(lexical.report.judge).toEqual({
      mode: 'lexical',
      model: null,
      max_claims: 100,
      judged: 0,
      verdicts: { supported: 0, contradicted: 0, not_in_context: 0, could_not_verify: 0 },
      token_usage: { input_tokens: 0, output_tokens: 0 },
    });
  });

  it('keeps what it had when its time runs out: one deadline_cut, no finding per question or claim left', async () => {
    // Prepare: question a is judged; b's second claim call is cut by the stop; c is never asked.
    const deps = setUp();
    const stop = new AbortController();
    const TWO = `${TEXT} A node may publish.`;
    const twoClaims: ChatReply = {
      ...REPLY,
      text: TWO,
      citations: [
        { start: 0, end: TEXT.length, text: TEXT, documentIds: ['c1'] },
        { start: TEXT.length + 1, end: TWO.length, text: 'A node may publish.', documentIds: ['c2'] },
      ],
    };
    const judge = scriptedJudge((_, call) => {
      if (call === 1) return reply({ verdict: 'contradicted', chunk_id: 'c1', evidence: 'over topics' });
      if (call === 2) return reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'ROS 2 nodes' });
      stop.abort(new DeadlineError("the agent's time ran out, 0.5 s before the run's deadline"));
      return new ChatError('Cohere judge was cut', 'timeout');
    });
    const queries = ['a', 'b', 'c'].map((id) => ({
      ...QUESTION,
      id,
      query_text: `question ${id}`,
      agent: true,
      top_k: 5,
      min_similarity: 0.5,
      filters: {},
    }));
    const chat = {
      model: 'fake-chat',
      asked: [] as string[],
      async chat({ question }: { question: string }) {
        chat.asked.push(question);
        return question === 'question a' ? REPLY : twoClaims;
      },
    };

    // Act
    const { report, errors } = await answerAgentQuestions({
      ...deps,
      chat,
      queries,
      maxAgentQueries: 3,
      judge,
      stop: stop.signal,
    });

    // Assess
    expect(chat.asked).toEqual(['question a', 'question b']);
    expect(report.deadline_cut).toEqual({
      reason: "the agent's time ran out, 0.5 s before the run's deadline",
      questions_not_answered: ['c'],
      claims_not_judged: 1,
    });
    expect(report.responses.map((r) => [r.status, r.error?.kind ?? null])).toEqual([
      ['ANSWERED', null],
      ['ANSWERED', null],
      ['CHAT_FAILED', 'deadline'],
    ]);
    expect(report.responses[2]?.error?.message).toBe(
      "not asked: the agent's time ran out, 0.5 s before the run's deadline",
    );
    // The refuted claim of a keeps its finding; the claim left unjudged and the question not asked have none.
    expect(errors.map((e) => [e.validation_id, e.error_type, e.severity])).toEqual([
      ['a', 'UNSUPPORTED_CLAIM', 'HIGH'],
    ]);
    expect(report.judge?.verdicts).toEqual({ supported: 1, contradicted: 1, not_in_context: 0, could_not_verify: 1 });
    expect(report.errors).toBe(1);
    expect(GroundingReport.safeParse(report).success).toBe(true);
  });

  it('writes no deadline_cut when the stop comes after the work, nor without a stop', async () => {
    const stop = new AbortController();
    const judge = scriptedJudge(() => reply({ verdict: 'supported', chunk_id: 'c1', evidence: 'ROS 2 nodes' }));
    const queries = [{ ...QUESTION, agent: true, top_k: 5, min_similarity: 0.5, filters: {} }];
    const done = await answerAgentQuestions({ ...setUp(), queries, maxAgentQueries: 1, judge, stop: stop.signal });
    stop.abort(new DeadlineError('late'));
    expect(done.report.deadline_cut).toBeUndefined();
    expect(done.report.grounded).toBe(1);
    const cut = await answerAgentQuestions({ ...setUp(), queries, maxAgentQueries: 1, judge, stop: stop.signal });
    expect(cut.report.deadline_cut?.questions_not_answered).toEqual(['topics']);
    expect(cut.errors).toEqual([]);
  });

  it('counts each verdict apart: contradicted and not_in_context', async () => {
    const judge = scriptedJudge((_, call) =>
      call === 1
        ? reply({ verdict: 'contradicted', chunk_id: 'c1', evidence: 'over topics' })
        : reply({ verdict: 'not_in_context' }),
    );
    const queries = ['a', 'b'].map((id) => ({
      ...QUESTION,
      id,
      agent: true,
      top_k: 5,
      min_similarity: 0.5,
      filters: {},
    }));
    const { report } = await answerAgentQuestions({ ...setUp(), queries, maxAgentQueries: 2, judge });
    expect(report.judge?.verdicts).toEqual({ supported: 0, contradicted: 1, not_in_context: 1, could_not_verify: 0 });
  });

  it('gives a refuted claim a HIGH finding naming the judge’s evidence', async () => {
    const judge = scriptedJudge(() =>
      reply({ verdict: 'contradicted', chunk_id: 'c1', evidence: 'over topics', reason: 'r' }),
    );
    const queries = [{ ...QUESTION, agent: true, top_k: 5, min_similarity: 0.5, filters: {} }];
    const { errors } = await answerAgentQuestions({ ...setUp(), queries, maxAgentQueries: 1, judge });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ error_type: 'UNSUPPORTED_CLAIM', severity: 'HIGH' });
    expect(errors[0]?.message).toContain('contradicted by c1, which says "over topics"');
  });
});
