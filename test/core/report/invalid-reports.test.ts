/**
 * Invalid reports, each breaking one rule of the report: a rule the published JSON Schema states is rejected by it
 * (validated as a consumer would, formats on) and by zod; a rule only zod can hold (an order, a sum, a comparison
 * across records: docs/DATA-MODEL.md, "What the published schema cannot say") is rejected by zod and accepted by the
 * document, so the list of zod-only rules stays honest.
 */
import { describe, expect, it } from 'vitest';
import type { AgentResponse, GroundingReport } from '../../../functions/core/report/grounding-report.ts';
import { ValidationReport } from '../../../functions/core/report/report.ts';
import { compileReportJsonSchema, parseValidReport } from '../../helpers/valid-report.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

const validateDocument = compileReportJsonSchema();

function answered(): AgentResponse {
  const text = 'ROS 2 uses DDS for transport.';
  return {
    response_text: text,
    response_id: 'resp-1',
    query_id: 'agent-1',
    query_text: 'What does ROS 2 use for transport?',
    source_chunks: ['c-1'],
    confidence_score: 0.8,
    confidence_components: { evidence_relevance: 0.8, support_ratio: 1 },
    timestamp: '2026-03-14T02:00:10.000Z',
    grounding_validation: {
      passed: true,
      grounded: true,
      abstained: false,
      gated: false,
      abstention_correct: true,
      expect_answer: true,
      citation_coverage: 1,
      min_citation_coverage: 0.8,
      sentences: 1,
      covered_sentences: 1,
      unknown_chunk_ids: [],
      min_word_support: 0.65,
      support_ratio: 1,
      claims: [
        {
          kind: 'cited_sentence',
          start: 0,
          end: text.length,
          text,
          chunk_ids: ['c-1'],
          supported: true,
          word_support: 1,
          content_words: 4,
          missing_words: [],
          missing_numbers: [],
          missing_names: [],
          missing_quantities: [],
          polarity_conflicts: [],
        },
      ],
      checks: {
        citations_present: 'PASS',
        citations_retrieved: 'PASS',
        spans_match: 'PASS',
        sentence_coverage: 'PASS',
        claims_supported: 'PASS',
        abstention: 'PASS',
      },
      reasons: [],
      error_type: null,
    },
    status: 'ANSWERED',
    error: null,
    citations: [{ start: 0, end: text.length, text, document_ids: ['c-1'] }],
    retrieved: { chunk_ids: ['c-1'], relevance_scores: [0.8], min_relevance: 0.3, relevant_chunk_ids: ['c-1'] },
    token_usage: { input_tokens: 100, output_tokens: 10 },
    latency: { retrieval_ms: 10, chat_ms: 100, total_ms: 110 },
  };
}

function chatFailed(): AgentResponse {
  return {
    ...answered(),
    response_text: '',
    response_id: 'resp-2',
    query_id: 'agent-2',
    source_chunks: [],
    confidence_score: 0,
    confidence_components: { evidence_relevance: 0, support_ratio: null },
    grounding_validation: null,
    status: 'CHAT_FAILED',
    error: { stage: 'chat', kind: 'timeout', message: 'chat timed out after 30000 ms' },
    citations: [],
    token_usage: { input_tokens: 0, output_tokens: 0 },
  };
}

function grounding(): GroundingReport {
  return {
    chat_model: 'command-r-08-2024',
    agent_queries: 3,
    evaluated: 2,
    capped: 1,
    max_agent_queries: 2,
    min_citation_coverage: 0.8,
    min_word_support: 0.65,
    claims: 1,
    supported_claims: 1,
    support_rate: 100,
    grounded: 1,
    ungrounded: 0,
    unnecessary_abstentions: 0,
    abstentions_correct: 0,
    abstentions_gated: 0,
    abstentions_incorrect: 0,
    errors: 1,
    grounded_rate: 100,
    abstention_correct_rate: null,
    token_usage: { input_tokens: 100, output_tokens: 10 },
    responses: [answered(), chatFailed()],
  };
}

/** A PASSED report with every section a rule reads: queries with results, criteria, grounded answers. */
function validReport(): ValidationReport {
  return { ...buildPassedReport(), grounding_report: grounding() };
}

type Report = ValidationReport & Record<string, unknown>;
const q0 = (r: Report) => r.query_results[0] as ValidationReport['query_results'][number];
const row0 = (r: Report) => q0(r).top_results[0] as ValidationReport['query_results'][number]['top_results'][number];
const g = (r: Report) => r.grounding_report as GroundingReport;
const answer = (r: Report) => g(r).responses[0] as AgentResponse;
const verdict = (r: Report) => answer(r).grounding_validation as NonNullable<AgentResponse['grounding_validation']>;
const failed = (r: Report) => g(r).responses[1] as AgentResponse;
const finding = (severity: string, error_type: string) => ({
  id: 'e-1',
  validation_id: 'run',
  error_type,
  message: `${error_type} found`,
  severity,
  details: {},
});
/** A second result under the first, so an order can be broken. */
const addRow = (r: Report, change: Record<string, unknown>) =>
  q0(r).top_results.push({ ...row0(r), rank: 2, similarity_score: 0.5, raw_score: 0.5, ...change });

/** Breaks that the published JSON Schema states: both it and zod reject them. */
const SCHEMA_RULES: [string, (r: Report) => void][] = [
  ['an unknown status', (r) => Object.assign(r, { status: 'OK' })],
  [
    'a schema_version other than 2 (an older report is history, not a report this version writes)',
    (r) => Object.assign(r, { schema_version: '1' }),
  ],
  ['a run_id that is not a UUID', (r) => Object.assign(r, { run_id: 'run-12345' })],
  [
    'a stage key with a space (schema_version 1 wrote "exact search")',
    (r) => Object.assign(r.execution.stages, { 'exact search': { status: 'ok', duration_ms: 1 } }),
  ],
  ['"yesterday" as the start time', (r) => Object.assign(r, { timestamp: 'yesterday' })],
  ['a finish time without a time of day', (r) => Object.assign(r, { finished_at: '2026-03-14' })],
  ['a lifecycle time that is not a date-time', (r) => Object.assign(r.lifecycle[0] ?? {}, { at: 'now' })],
  ['an empty status_reason', (r) => Object.assign(r, { status_reason: '' })],
  ['an empty collection', (r) => Object.assign(r, { collection: '' })],
  ['an empty environment', (r) => Object.assign(r, { environment: '' })],
  ['an empty suite name', (r) => Object.assign(r.suite, { name: '' })],
  ['a pass_rate over 100', (r) => Object.assign(r, { pass_rate: 100.5 })],
  ['a negative duration', (r) => Object.assign(r, { duration_seconds: -1 })],
  ['a fractional query count', (r) => Object.assign(r, { total_queries: 9.5 })],
  ['a field the schema does not know', (r) => Object.assign(r, { verdict: 'fine' })],
  ['a required field missing', (r) => Reflect.deleteProperty(r, 'errors')],
  ['an empty query_text', (r) => Object.assign(q0(r), { query_text: '' })],
  ['an empty query id', (r) => Object.assign(q0(r), { id: '' })],
  ['a PASS query that is not passed', (r) => Object.assign(q0(r), { passed: false })],
  [
    'a FAIL query that is passed',
    (r) => Object.assign(q0(r), { status: 'FAIL', fail_reason: 'too low', pass_reason: null }),
  ],
  ['a PASS query with a fail_reason', (r) => Object.assign(q0(r), { fail_reason: 'best similarity too low' })],
  ['a query judged at no time', (r) => Object.assign(q0(r), { timestamp: 'yesterday' })],
  ['a query with no results but a best similarity', (r) => Object.assign(q0(r), { top_results: [] })],
  ['a match ratio without expected sources', (r) => Object.assign(q0(r), { sources_match_ratio: 0.5 })],
  ['a relevance grade of 5', (r) => Object.assign(row0(r), { relevance_grade: 5 })],
  ['a similarity over 1', (r) => Object.assign(row0(r), { similarity_score: 1.5 })],
  ['a negative confidence', (r) => Object.assign(row0(r), { confidence_score: -0.1 })],
  ['a source URL that is not an http(s) URL', (r) => Object.assign(row0(r), { source_url: 'ftp://book/x' })],
  ['a source URL that is not a URL', (r) => Object.assign(row0(r), { source_url: 'book/intro' })],
  ['a chunk id that is not a point id', (r) => Object.assign(row0(r), { chunk_id: 'chunk-1' })],
  ['a token_count of 0', (r) => Object.assign(row0(r), { token_count: 0 })],
  [
    'a result not relevant with full confidence',
    (r) => Object.assign(row0(r), { relevance: false, relevance_grade: 0 }),
  ],
  ['a relevant result of grade 0', (r) => Object.assign(row0(r), { relevance_grade: 0 })],
  ['a validation_run_id that is not a UUID', (r) => Object.assign(r.validation_metrics, { validation_run_id: 'vr-1' })],
  ['a success_rate over 1', (r) => Object.assign(r.validation_metrics, { success_rate: 1.5 })],
  ['PASSED with a breached criterion', (r) => Object.assign(r.success_criteria[0] ?? {}, { passed: false })],
  ['PASSED beside a CRITICAL finding', (r) => r.errors.push(finding('CRITICAL', 'MODEL_MISMATCH') as never)],
  ['PASSED beside a HIGH unsupported claim', (r) => r.errors.push(finding('HIGH', 'UNSUPPORTED_CLAIM') as never)],
  [
    'FAILED with every criterion held and no finding that fails a run',
    (r) => {
      Object.assign(r, { status: 'FAILED' });
      r.errors.push(finding('HIGH', 'STALE_CHUNKS') as never);
    },
  ],
  ['ERROR without a FAILED state', (r) => Object.assign(r, { status: 'ERROR' })],
  ['PASSED with a FAILED state', (r) => Object.assign(r.lifecycle.at(-1) ?? {}, { state: 'FAILED' })],
  ['a criterion passed on no value', (r) => Object.assign(r.success_criteria[0] ?? {}, { value: null })],
  ['a finding of an unknown severity', (r) => r.errors.push(finding('SEVERE', 'LOW_RELEVANCE') as never)],
  ['a finding of an unknown type', (r) => r.errors.push(finding('LOW', 'OOPS') as never)],
  [
    'a finding with an empty message',
    (r) => r.errors.push({ ...finding('LOW', 'LOW_RELEVANCE'), message: '' } as never),
  ],
  ['a coverage over 100 %', (r) => Object.assign(r.coverage_report ?? {}, { coverage_percentage: 120 })],
  [
    'a coverage time that is not a date-time',
    (r) => Object.assign(r.coverage_report ?? {}, { timestamp: '14/03/2026' }),
  ],
  ['an empty chat model', (r) => Object.assign(g(r), { chat_model: '' })],
  ['a support rate over 100', (r) => Object.assign(g(r), { support_rate: 150 })],
  ['a verdict passed beside a FAIL check', (r) => Object.assign(verdict(r).checks, { spans_match: 'FAIL' })],
  ['a verdict not passed with no FAIL check', (r) => Object.assign(verdict(r), { passed: false })],
  ['an abstention on an answerable question called correct', (r) => Object.assign(verdict(r), { abstained: true })],
  [
    'a gated abstention graded correct',
    (r) =>
      Object.assign(verdict(r), {
        gated: true,
        abstained: true,
        expect_answer: false,
        claims: [],
        support_ratio: null,
      }),
  ],
  [
    'a gated verdict that did not abstain',
    (r) => Object.assign(verdict(r), { gated: true, abstention_correct: false }),
  ],
  ['an answer from chat marked gated', (r) => Object.assign(verdict(r), { gated: true })],
  ['claims without a support rate', (r) => Object.assign(verdict(r), { support_ratio: null })],
  ['a word support over 1', (r) => Object.assign(verdict(r).claims[0] ?? {}, { word_support: 2 })],
  ['an answer with an error', (r) => Object.assign(answer(r), { error: { stage: 'chat', kind: null, message: 'x' } })],
  ['a failed chat with a verdict', (r) => Object.assign(failed(r), { grounding_validation: verdict(r) })],
  ['a failed retrieval blamed on chat', (r) => Object.assign(failed(r), { status: 'RETRIEVAL_FAILED' })],
  ['an answer at no time', (r) => Object.assign(answer(r), { timestamp: 'soon' })],
];

/** Breaks only zod can see: an order, a sum, a comparison across records. The document accepts them. */
const ZOD_ONLY_RULES: [string, (r: Report) => void][] = [
  ['a total_queries that is not the number of results', (r) => Object.assign(r, { total_queries: 11 })],
  ['passed_queries that miscount the PASS queries', (r) => Object.assign(r, { passed_queries: 9, failed_queries: 1 })],
  ['a pass_rate that is not passed / total', (r) => Object.assign(r, { pass_rate: 50 })],
  ['a finish before the start', (r) => Object.assign(r, { finished_at: '2026-03-14T01:00:00.000Z' })],
  ['a lifecycle that runs backwards', (r) => Object.assign(r.lifecycle[1] ?? {}, { at: '2026-03-14T01:59:00.000Z' })],
  ['metrics of another run', (r) => Object.assign(r.validation_metrics, { validation_run_id: crypto.randomUUID() })],
  ['results not in descending similarity', (r) => addRow(r, { similarity_score: 0.9, raw_score: 0.9 })],
  ['results not ranked 1..n', (r) => addRow(r, { rank: 3 })],
  ['a best similarity that is not the best', (r) => Object.assign(q0(r), { best_similarity: 0.5 })],
  [
    'expected sources that do not add up',
    (r) => Object.assign(q0(r), { total_expected_sources: 2, expected_sources_found: 0, sources_match_ratio: 0 }),
  ],
  [
    'a criterion failed though its value holds',
    (r) => {
      Object.assign(r, { status: 'FAILED' });
      Object.assign(r.success_criteria[0] ?? {}, { passed: false });
    },
  ],
  ['agent queries that do not add up', (r) => Object.assign(g(r), { capped: 0 })],
  ['buckets that do not partition the answers', (r) => Object.assign(g(r), { errors: 0 })],
  ['more supported claims than claims', (r) => Object.assign(g(r), { supported_claims: 2 })],
  ['a grounded rate that is not its ratio', (r) => Object.assign(g(r), { grounded_rate: 50 })],
  ['source chunks the citations do not name', (r) => Object.assign(answer(r), { source_chunks: ['c-9'] })],
  ['more covered sentences than sentences', (r) => Object.assign(verdict(r), { covered_sentences: 2 })],
];

const zodRejects = (r: unknown) => !ValidationReport.safeParse(r).success;
const documentRejects = (r: unknown) => !validateDocument(r);
const broken = (change: (r: Report) => void) => {
  const report = structuredClone(validReport()) as Report;
  change(report);
  return report;
};

describe('invalid reports', () => {
  it('start from a report both schemas accept', () => {
    expect(() => parseValidReport(validReport())).not.toThrow();
  });

  it('number at least 40, each breaking a different rule', () => {
    const names = [...SCHEMA_RULES, ...ZOD_ONLY_RULES].map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SCHEMA_RULES)('the published schema and zod reject %s', (_name, change) => {
    const report = broken(change);
    expect({ document: documentRejects(report), zod: zodRejects(report) }).toEqual({ document: true, zod: true });
  });

  it.each(ZOD_ONLY_RULES)('zod rejects %s, which the published schema cannot state', (_name, change) => {
    const report = broken(change);
    expect({ document: documentRejects(report), zod: zodRejects(report) }).toEqual({ document: false, zod: true });
  });
});
