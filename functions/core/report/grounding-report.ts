/**
 * Grounded answers (seed 002) in the report: the Agent Response of every agent query with its grounding verdict,
 * and the aggregates the success criteria read (grounded rate, abstentions on questions the book cannot answer).
 * The zod schemas are the source of truth; report.ts embeds GroundingReport as `grounding_report`;
 * answer-agent-questions.ts fills it.
 */
import { z } from 'zod';
import { ifThen, withRecordRules } from './record-rules.ts';

/** One check's outcome, cdk-nag style: a verdict as a value. */
export const CheckVerdict = z.enum(['PASS', 'FAIL', 'NOT_APPLICABLE']);
export type CheckVerdict = z.infer<typeof CheckVerdict>;

/** The checks behind a grounding verdict, each PASS, FAIL or NOT_APPLICABLE. */
const GroundingChecks = z.object({
  citations_present: CheckVerdict.describe('An answer cites at least one chunk; NOT_APPLICABLE to an abstention'),
  citations_retrieved: CheckVerdict.describe('Every cited document id is a chunk retrieved for this query'),
  spans_match: CheckVerdict.describe('Every citation text equals response_text.slice(start, end)'),
  sentence_coverage: CheckVerdict.describe(
    'citation_coverage >= min_citation_coverage; NOT_APPLICABLE to an abstention',
  ),
  claims_supported: CheckVerdict.describe(
    'Every claim is supported by the chunks it cites (see claims); NOT_APPLICABLE to an abstention',
  ),
  abstention: CheckVerdict.describe(
    'Abstained exactly when the suite says the book cannot answer (expect_answer); NOT_APPLICABLE when the relevance gate abstained on such a question without asking chat (gated)',
  ),
});

/**
 * Why the judge could not give a verdict: its own failure, the run's claim budget spent, or the agent's time up
 * (deadline: a margin before the run's deadline, the claims left are not judged). incomplete: its statements leave
 * out a figure the claim states (in digits or words, with its unit) or one of its denials, so what it found supported
 * is not the whole claim.
 */
export const JudgeFailure = z.enum([
  'timeout',
  'refused',
  'malformed',
  'evidence_not_found',
  'incomplete',
  'budget_exhausted',
  'unavailable',
  'deadline',
]);
export type JudgeFailure = z.infer<typeof JudgeFailure>;

/**
 * The claim judge's verdict on one claim (judge.ts, GROUNDING.md "The judge"): supported or contradicted by the
 * quoted evidence of one chunk, not in the chunks it was given, or could_not_verify when the judge failed (timeout,
 * refusal, a reply that is not the JSON asked for, evidence not found verbatim in the chunk it names) or the run's
 * claim budget was spent. could_not_verify never counts as supported. The judge splits the claim into atomic
 * statements and judges each (`statements`); the claim's verdict is its worst statement's.
 */
const judgementFields = {
  verdict: z.enum(['supported', 'contradicted', 'not_in_context', 'could_not_verify']),
  chunk_id: z.string().nullable().describe('The chunk the evidence is quoted from; null without evidence'),
  evidence: z
    .string()
    .nullable()
    .describe('The span of chunk_id the verdict rests on, found there verbatim (white space aside); null without'),
  reason: z.string().describe('The judge’s own short reason, or why it could not verify'),
  failure: JudgeFailure.nullable().describe('Set exactly when verdict is could_not_verify'),
};

/**
 * One atomic statement the judge split a claim into (one fact: "X runs on Y", "X needs 64 GB"), with its own verdict
 * and evidence, checked as a claim's: evidence not found in the chunk it names, or a verdict outside the three, makes
 * the statement could_not_verify.
 */
export const JudgedStatement = z.object({
  statement: z.string().min(1).describe('The statement as the judge wrote it: one fact of the claim'),
  ...judgementFields,
});
export type JudgedStatement = z.infer<typeof JudgedStatement>;

export const ClaimJudgement = z.object({
  ...judgementFields,
  statements: z
    .array(JudgedStatement)
    .optional()
    .describe(
      'The atomic statements the judge split the claim into, each judged; the claim’s verdict, evidence and reason are those of its worst statement (contradicted, then not_in_context, then could_not_verify, then supported). Absent when the judge gave no readable statements (a failure, the budget or the deadline) and in reports written before statements',
    ),
});
export type ClaimJudgement = z.infer<typeof ClaimJudgement>;

/**
 * One claim of an answer and its support: a cited sentence (the whole sentence a citation sits in) checked against
 * the text of the chunks its citations name, or an uncited sentence that states a number or a proper name (never
 * supported: it has no evidence). `cited_span` is a claim cut to its citation's span: the check with the
 * whole-sentence feature off (the evaluation bench's ablation), and reports written before it.
 */
export const ClaimSupport = z.object({
  kind: z.enum(['cited_sentence', 'cited_span', 'uncited_sentence']),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string(),
  chunk_ids: z.array(z.string()).describe('The chunks the span cites; empty for an uncited sentence'),
  supported: z
    .boolean()
    .describe(
      'With a judge: judge.verdict is supported. Without (GROUNDING_JUDGE=lexical): every number, quantity and proper name found in the cited text, no polarity conflict, and word_support >= min_word_support',
    ),
  lexical_supported: z
    .boolean()
    .optional()
    .describe('The lexical gate’s verdict when a judge gave the final one; absent without a judge'),
  judge: ClaimJudgement.optional().describe(
    'The claim judge’s verdict; absent when no judge ran (GROUNDING_JUDGE=lexical)',
  ),
  word_support: z.number().min(0).max(1).describe('Share of the claim’s content words (Porter-stemmed) found'),
  content_words: z.number().int().min(0),
  missing_words: z.array(z.string()).describe('Content words not found in the cited text, as written in the claim'),
  missing_numbers: z.array(z.string()),
  missing_names: z.array(z.string()),
  missing_quantities: z
    .array(z.string())
    .describe('Numbers with a unit the cited text states in no unit of that value ("16 MB" against "16 GB")'),
  polarity_conflicts: z
    .array(z.string())
    .describe(
      'What the claim says against the cited text, "claim / cited": a word of the opposite polarity or an antonym, a certainty the text hedges, a number moved out of the sentence it restates, two figures exchanged between their labels, a range moved',
    ),
  uncited_part: z
    .object({
      text: z.string().min(1),
      word_support: z.number().min(0).max(1),
      missing_words: z.array(z.string()),
      missing_facts: z.array(z.string()).describe('Its numbers, quantities and names found in no chunk given'),
      polarity_conflicts: z.array(z.string()),
    })
    .optional()
    .describe(
      'Present when the part of a cited sentence no citation covers failed as a claim of its own against every chunk the model was given (min tail support 0.75)',
    ),
  better_chunk: z
    .object({ chunk_id: z.string().min(1), word_support: z.number().min(0).max(1) })
    .optional()
    .describe(
      'Present when another chunk the model was given holds at least 0.2 more of the claim’s words than the chunks it cites: a wrong citation',
    ),
});
export type ClaimSupport = z.infer<typeof ClaimSupport>;

const GroundingVerdictFields = z.object({
  passed: z.boolean().describe('Every check PASS or NOT_APPLICABLE'),
  grounded: z.boolean().describe('The citations hold: valid, retrieved, and (for an answer) present and covering'),
  abstained: z.boolean(),
  gated: z
    .boolean()
    .describe(
      'The relevance gate abstained for the agent (status NO_RELEVANT_DOCUMENTS): chat was never asked, so the abstention says nothing of the model',
    ),
  abstention_correct: z
    .boolean()
    .describe('The model abstained exactly when the book cannot answer: abstained !== expect_answer, and not gated'),
  expect_answer: z.boolean(),
  citation_coverage: z
    .number()
    .min(0)
    .max(1)
    .describe('Share of the answer’s sentences overlapped by a valid citation'),
  min_citation_coverage: z.number().min(0).max(1),
  sentences: z.number().int().min(0),
  covered_sentences: z.number().int().min(0),
  unknown_chunk_ids: z.array(z.string()).describe('Cited ids that were not retrieved for this query'),
  min_word_support: z.number().min(0).max(1),
  support_ratio: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Supported claims / claims; null when the answer makes none (an abstention)'),
  claims: z.array(ClaimSupport),
  checks: GroundingChecks,
  reasons: z.array(z.string()),
  error_type: z
    .enum(['GROUNDING_FAILED', 'UNSUPPORTED_CLAIM', 'NO_RELEVANT_DOCUMENTS'])
    .nullable()
    .describe('UNSUPPORTED_CLAIM when the citations hold but a claim is not supported by what it cites'),
});

const CHECK_NAMES = Object.keys(GroundingChecks.shape) as (keyof z.output<typeof GroundingChecks>)[];
const notFailed = { properties: Object.fromEntries(CHECK_NAMES.map((c) => [c, { not: { const: 'FAIL' } }])) };

/** The deterministic grounding verdict of one response (grounding.ts), seed 002's grounding_validation. */
export const GroundingVerdict = withRecordRules(GroundingVerdictFields, [
  {
    rule: 'passed is true exactly when no check is FAIL',
    holds: (v) => v.passed === CHECK_NAMES.every((c) => v.checks[c] !== 'FAIL'),
    jsonSchema: ifThen({ passed: true }, { checks: notFailed }, { checks: { not: notFailed } }),
  },
  {
    rule: 'abstention_correct is true exactly when the model (not the gate) abstained on a question the book cannot answer, or answered one it can',
    holds: (v) => v.abstention_correct === (!v.gated && v.abstained !== v.expect_answer),
    jsonSchema: {
      anyOf: [
        { properties: { gated: { const: true }, abstention_correct: { const: false } } },
        ...[
          [true, false, true],
          [false, true, true],
          [true, true, false],
          [false, false, false],
        ].map(([abstained, expect_answer, abstention_correct]) => ({
          properties: {
            gated: { const: false },
            abstained: { const: abstained },
            expect_answer: { const: expect_answer },
            abstention_correct: { const: abstention_correct },
          },
        })),
      ],
    },
  },
  {
    rule: 'a gated verdict is an abstention',
    holds: (v) => !v.gated || v.abstained,
    jsonSchema: ifThen({ gated: true }, { abstained: { const: true } }),
  },
  {
    rule: 'support_ratio is null exactly when there are no claims',
    holds: (v) => (v.support_ratio === null) === (v.claims.length === 0),
    jsonSchema: {
      if: { properties: { claims: { maxItems: 0 } } },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a thenable.
      then: { properties: { support_ratio: { type: 'null' } } },
      else: { properties: { support_ratio: { type: 'number', minimum: 0, maximum: 1 } } },
    },
  },
  {
    rule: 'covered_sentences is at most sentences (zod only: two numbers compared)',
    holds: (v) => v.covered_sentences <= v.sentences,
    jsonSchema: null,
  },
]);
export type GroundingVerdict = z.infer<typeof GroundingVerdict>;

/** A citation as the report keeps it: the answer's span and the chunk ids it cites. */
export const AgentCitation = z.object({
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  document_ids: z.array(z.string()),
});
export type AgentCitation = z.infer<typeof AgentCitation>;

/** How the agent's turn ended, before any judging: seed 002's error states plus a chat failure. */
const AGENT_STATUSES = ['ANSWERED', 'NO_RELEVANT_DOCUMENTS', 'RETRIEVAL_FAILED', 'CHAT_FAILED'] as const;

/** Billed tokens (Cohere's billed_units). */
export const TokenUsage = z.object({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) });
export type TokenUsage = z.infer<typeof TokenUsage>;

const AgentResponseFields = z.object({
  response_text: z.string(),
  response_id: z.string().min(1),
  query_id: z.string().min(1),
  query_text: z.string().min(1),
  source_chunks: z.array(z.string()).describe('Distinct chunk ids the answer cites, in order of first citation'),
  confidence_score: z
    .number()
    .min(0)
    .max(1)
    .describe(
      'evidence_relevance × support_ratio (confidence_components): how closely the cited evidence matches the question, discounted by the share of claims it supports; 0 when nothing is cited',
    ),
  confidence_components: z.object({
    evidence_relevance: z
      .number()
      .min(0)
      .max(1)
      .describe('Mean relevance score of the cited chunks that were given to the model, clamped to 0..1; 0 when none'),
    support_ratio: z.number().min(0).max(1).nullable().describe('grounding_validation.support_ratio'),
  }),
  timestamp: z.iso.datetime(),
  grounding_validation: GroundingVerdict.nullable().describe('null when retrieval or chat failed'),
  status: z
    .enum(AGENT_STATUSES)
    .describe('NO_RELEVANT_DOCUMENTS: nothing retrieved reached min_relevance, so the agent abstained without chat'),
  error: z
    .object({ stage: z.enum(['retrieval', 'chat']), kind: z.string().nullable(), message: z.string() })
    .nullable(),
  citations: z.array(AgentCitation),
  retrieved: z.object({
    chunk_ids: z.array(z.string()),
    relevance_scores: z.array(z.number()),
    min_relevance: z.number(),
    relevant_chunk_ids: z.array(z.string()).describe('The chunks at or above min_relevance: the only ones chat saw'),
  }),
  token_usage: TokenUsage.describe('Billed units of the agent’s chat call'),
  judge_token_usage: TokenUsage.optional().describe(
    'Billed units of the claim judge’s calls on this answer; absent when none ran',
  ),
  latency: z.object({
    retrieval_ms: z.number().min(0),
    chat_ms: z.number().min(0),
    judge_ms: z.number().min(0).optional().describe('Time spent judging the answer’s claims; absent when none ran'),
    total_ms: z.number().min(0),
  }),
});

const FAILED_TURNS: readonly string[] = ['RETRIEVAL_FAILED', 'CHAT_FAILED'];

/** Seed 002 Agent Response, plus what a person needs to see why its verdict is what it is. */
export const AgentResponse = withRecordRules(AgentResponseFields, [
  {
    rule: 'a failed turn (RETRIEVAL_FAILED, CHAT_FAILED) has an error and no verdict; any other has a verdict and no error',
    holds: (r) =>
      FAILED_TURNS.includes(r.status) === (r.error !== null) &&
      (r.error === null) === (r.grounding_validation !== null),
    jsonSchema: {
      if: { properties: { status: { enum: FAILED_TURNS } }, required: ['status'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a thenable.
      then: { properties: { error: { type: 'object' }, grounding_validation: { type: 'null' } } },
      else: { properties: { error: { type: 'null' }, grounding_validation: { type: 'object' } } },
    },
  },
  {
    rule: 'the error names the stage that failed: retrieval for RETRIEVAL_FAILED, chat for CHAT_FAILED',
    holds: (r) =>
      r.error === null || (r.status === 'RETRIEVAL_FAILED' ? r.error.stage === 'retrieval' : r.error.stage === 'chat'),
    jsonSchema: {
      allOf: [
        ifThen({ status: 'RETRIEVAL_FAILED' }, { error: { properties: { stage: { const: 'retrieval' } } } }),
        ifThen({ status: 'CHAT_FAILED' }, { error: { properties: { stage: { const: 'chat' } } } }),
      ],
    },
  },
  {
    rule: 'the verdict is gated exactly when the relevance gate abstained without chat (status NO_RELEVANT_DOCUMENTS)',
    holds: (r) => (r.status === 'NO_RELEVANT_DOCUMENTS') === (r.grounding_validation?.gated === true),
    jsonSchema: ifThen(
      { status: 'NO_RELEVANT_DOCUMENTS' },
      { grounding_validation: { properties: { gated: { const: true } } } },
      { grounding_validation: { anyOf: [{ type: 'null' }, { properties: { gated: { const: false } } }] } },
    ),
  },
  {
    rule: 'source_chunks are the distinct chunk ids the citations name (zod only: a set compared)',
    holds: (r) => {
      const cited = new Set(r.citations.flatMap((c) => c.document_ids));
      return r.source_chunks.length === cited.size && r.source_chunks.every((id) => cited.has(id));
    },
    jsonSchema: null,
  },
]);
export type AgentResponse = z.infer<typeof AgentResponse>;

const count = z.number().int().min(0);

/** How this run judged claims (GROUNDING_JUDGE): the judge, its budget and what it said. */
const GroundingJudge = z.object({
  mode: z
    .enum(['cohere', 'lexical'])
    .describe('cohere: the claim judge gives the final verdict; lexical: the lexical gate alone'),
  model: z.string().nullable().describe('The judge’s chat model; null in lexical mode'),
  max_claims: count.describe('The run’s claim budget (JUDGE_MAX_CLAIMS): claims past it are could_not_verify'),
  judged: count.describe('Claims the judge was called on'),
  verdicts: z.object({
    supported: count,
    contradicted: count,
    not_in_context: count,
    could_not_verify: count,
  }),
  token_usage: TokenUsage.describe('Billed units of the judge’s calls (also in the total token_usage)'),
});

const GroundingReportFields = z.object({
  chat_model: z.string().min(1),
  agent_queries: count.describe('Suite queries marked agent: true'),
  evaluated: count.describe('Agent queries run this time (the first max_agent_queries, in suite order)'),
  capped: count.describe('Agent queries skipped by the per-run cap'),
  max_agent_queries: count,
  min_citation_coverage: z.number().min(0).max(1),
  min_word_support: z.number().min(0).max(1),
  claims: count.describe('Claims in the answers judged (cited spans and uncited fact-bearing sentences)'),
  supported_claims: count,
  support_rate: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .describe('supported_claims / claims × 100 over every answer; null when no answer made a claim'),
  grounded: count.describe('Answerable questions answered with every grounding check passing'),
  ungrounded: count.describe('Answerable questions answered with a failing grounding check'),
  unnecessary_abstentions: count.describe('Answerable questions on which the agent abstained'),
  abstentions_correct: count.describe('Questions the book cannot answer on which the chat model abstained cleanly'),
  abstentions_gated: count.describe(
    'Questions the book cannot answer that the relevance gate abstained on without asking chat: not graded, not in abstention_correct_rate',
  ),
  abstentions_incorrect: count.describe('Questions the book cannot answer that the agent answered anyway'),
  errors: count.describe('Agent queries whose retrieval or chat failed (no verdict)'),
  grounded_rate: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .describe('grounded / (grounded + ungrounded + unnecessary_abstentions) × 100; null when there were none'),
  abstention_correct_rate: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .describe('abstentions_correct / (abstentions_correct + abstentions_incorrect) × 100; null when there were none'),
  token_usage: TokenUsage.describe('Billed units summed over every chat call, the claim judge’s included'),
  judge: GroundingJudge.optional().describe(
    'How claims were judged this run; absent in reports written before the judge',
  ),
  deadline_cut: z
    .object({
      reason: z.string().min(1).describe('Why the agent stopped: the margin it keeps before the run’s deadline'),
      questions_not_answered: z
        .array(z.string().min(1))
        .describe('Agent queries not answered in time (CHAT_FAILED, error kind deadline; counted in errors)'),
      claims_not_judged: count.describe(
        'Claims the judge had no time left for (could_not_verify, failure deadline; counted in could_not_verify)',
      ),
    })
    .optional()
    .describe(
      'Present when the agent’s time ran out before it was done: what was answered and judged is kept, this says what was left',
    ),
  responses: z.array(AgentResponse),
});

type GroundingFigures = z.output<typeof GroundingReportFields>;
const rate = (part: number, whole: number) => (whole === 0 ? null : (part / whole) * 100);
const near = (value: number | null, expected: number | null) =>
  value === null || expected === null ? value === expected : Math.abs(value - expected) <= 0.005;

/** The report's grounding section: counts partition the evaluated queries; errors are excluded from both rates. */
export const GroundingReport = withRecordRules(GroundingReportFields, [
  {
    rule: 'evaluated + capped = agent_queries, and one response per evaluated query (zod only: sums)',
    holds: (g) => g.evaluated + g.capped === g.agent_queries && g.responses.length === g.evaluated,
    jsonSchema: null,
  },
  {
    rule: 'grounded, ungrounded, unnecessary_abstentions, abstentions_correct, abstentions_gated, abstentions_incorrect and errors partition the evaluated queries (zod only: a sum)',
    holds: (g) =>
      g.grounded +
        g.ungrounded +
        g.unnecessary_abstentions +
        g.abstentions_correct +
        g.abstentions_gated +
        g.abstentions_incorrect +
        g.errors ===
      g.evaluated,
    jsonSchema: null,
  },
  {
    rule: 'supported_claims <= claims, and grounded_rate, abstention_correct_rate and support_rate are their ratios × 100 (zod only: ratios)',
    holds: (g: GroundingFigures) =>
      g.supported_claims <= g.claims &&
      near(g.support_rate, rate(g.supported_claims, g.claims)) &&
      near(g.grounded_rate, rate(g.grounded, g.grounded + g.ungrounded + g.unnecessary_abstentions)) &&
      near(g.abstention_correct_rate, rate(g.abstentions_correct, g.abstentions_correct + g.abstentions_incorrect)),
    jsonSchema: null,
  },
]);
export type GroundingReport = z.infer<typeof GroundingReport>;
