/**
 * The grounded-answer stage (seed 002): the agent answers each suite query marked `agent: true`, up to a cap so
 * the cost of a run is bounded, and every answer's grounding is checked; the outcome is a GroundingReport.
 */

import type { ChatModel, ClaimJudge, Clock } from '../ports.ts';
import type { ErrorType, Severity, ValidationError } from '../report/findings.ts';
import type { AgentResponse, ClaimJudgement, GroundingReport, TokenUsage } from '../report/grounding-report.ts';
import { truncate } from '../shared/errors.ts';
import type { ResolvedQuery } from '../suite/suite.ts';
import { answerQuestion, DEADLINE } from './agent.ts';
import { describeUnsupported } from './assess-claims.ts';
import { DEFAULT_MIN_COVERAGE } from './grounding.ts';
import { createJudgeBudget, DEFAULT_JUDGE_MAX_CLAIMS, stopReason } from './judge.ts';
import type { RetrievalTool } from './retrieval-tool.ts';
import { DEFAULT_MIN_WORD_SUPPORT } from './support.ts';

/** What answerAgentQuestions needs: the resolved suite queries, the tool, the chat model and the cap. */
export interface RunAgentChecksOptions {
  queries: readonly Pick<
    ResolvedQuery,
    'id' | 'query_text' | 'agent' | 'expect_answer' | 'top_k' | 'min_similarity' | 'filters'
  >[];
  tool: RetrievalTool;
  chat: ChatModel;
  clock: Clock;
  newId: () => string;
  /** Bounds the chat cost of a run: the first N agent queries in suite order run, the rest are counted as capped. */
  maxAgentQueries: number;
  /** The relevance gate; by default each query's own min_similarity, the engine's threshold for "relevant". */
  minRelevance?: number;
  minCoverage?: number;
  minWordSupport?: number;
  /** The claim judge (GROUNDING_JUDGE=cohere); without it the lexical gate's verdict is final. */
  judge?: ClaimJudge;
  /** At most this many claims of the run go to the judge (default DEFAULT_JUDGE_MAX_CLAIMS). */
  judgeMaxClaims?: number;
  /**
   * Aborts when the agent's time is up, a margin before the run's deadline (adapters/run-deadline.ts): the questions
   * left are not asked and the claims left are not judged, so the step ends before the deadline with what it had.
   */
  stop?: AbortSignal;
}

/**
 * Runs the agent on the suite's agent queries and judges every answer. In order:
 * 1. keeps the queries marked `agent: true`, the first `maxAgentQueries` of them (suite order, so nights compare);
 * 2. answers them one at a time (chat is the slow, rate-limited, billed call: no burst);
 * 3. sorts each verdict into exactly one count and turns every non-passing one into a ValidationError;
 * 4. sums the billed tokens.
 * When `stop` aborts, what was answered and judged is kept; the rest is counted in `deadline_cut`, and reported once
 * (grounding-check.ts), not as one finding per question and claim.
 */
export async function answerAgentQuestions(
  options: RunAgentChecksOptions,
): Promise<{ report: GroundingReport; errors: ValidationError[] }> {
  const agentQueries = options.queries.filter((q) => q.agent);
  const chosen = agentQueries.slice(0, Math.max(0, options.maxAgentQueries));
  const responses: AgentResponse[] = [];
  const budget = createJudgeBudget(options.judgeMaxClaims ?? DEFAULT_JUDGE_MAX_CLAIMS);
  for (const query of chosen) {
    responses.push(
      await answerQuestion({
        query,
        tool: options.tool,
        chat: options.chat,
        clock: options.clock,
        newId: options.newId,
        topK: query.top_k,
        minRelevance: options.minRelevance ?? query.min_similarity,
        ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
        ...(options.minWordSupport === undefined ? {} : { minWordSupport: options.minWordSupport }),
        ...(options.judge ? { claimJudge: { judge: options.judge, budget } } : {}),
        ...(options.stop ? { stop: options.stop } : {}),
      }),
    );
  }
  const tally = {
    grounded: 0,
    ungrounded: 0,
    unnecessary_abstentions: 0,
    abstentions_correct: 0,
    abstentions_gated: 0,
    abstentions_incorrect: 0,
    errors: 0,
  };
  const errors: ValidationError[] = [];
  for (const response of responses) {
    const bucket = classify(response);
    tally[bucket] += 1;
    errors.push(...unsupportedClaimErrors(response, options.newId));
    // A question the agent had no time left for is in deadline_cut's one finding, not one of its own.
    const finding = response.error?.kind === DEADLINE ? null : describeFinding(response, bucket);
    if (finding) {
      errors.push({
        id: options.newId(),
        validation_id: response.query_id,
        ...finding,
        details: {
          query_id: response.query_id,
          response_id: response.response_id,
          status: response.status,
          reasons: response.grounding_validation?.reasons ?? [],
          citation_coverage: response.grounding_validation?.citation_coverage ?? null,
          unknown_chunk_ids: response.grounding_validation?.unknown_chunk_ids ?? [],
          ...(response.error ? { stage: response.error.stage, kind: response.error.kind } : {}),
        },
      });
    }
  }
  const rate = (part: number, whole: number) => (whole === 0 ? null : (100 * part) / whole);
  const claims = responses.flatMap((r) => r.grounding_validation?.claims ?? []);
  const supportedClaims = claims.filter((c) => c.supported).length;
  const judgeSum = (key: keyof TokenUsage) =>
    responses.reduce((total, r) => total + (r.judge_token_usage?.[key] ?? 0), 0);
  const sum = (key: keyof TokenUsage) => responses.reduce((total, r) => total + r.token_usage[key], 0) + judgeSum(key);
  const judgedClaims = claims.flatMap((c) => (c.judge ? [c.judge] : []));
  const verdictCount = (v: ClaimJudgement['verdict']) => judgedClaims.filter((j) => j.verdict === v).length;
  const notAnswered = responses.filter((r) => r.error?.kind === DEADLINE).map((r) => r.query_id);
  const notJudged = judgedClaims.filter((j) => j.failure === DEADLINE).length;
  const report: GroundingReport = {
    chat_model: options.chat.model,
    agent_queries: agentQueries.length,
    evaluated: chosen.length,
    capped: agentQueries.length - chosen.length,
    max_agent_queries: Math.max(0, options.maxAgentQueries),
    min_citation_coverage: options.minCoverage ?? DEFAULT_MIN_COVERAGE,
    min_word_support: options.minWordSupport ?? DEFAULT_MIN_WORD_SUPPORT,
    claims: claims.length,
    supported_claims: supportedClaims,
    support_rate: rate(supportedClaims, claims.length),
    ...tally,
    grounded_rate: rate(tally.grounded, tally.grounded + tally.ungrounded + tally.unnecessary_abstentions),
    abstention_correct_rate: rate(tally.abstentions_correct, tally.abstentions_correct + tally.abstentions_incorrect),
    token_usage: { input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens') },
    judge: {
      mode: options.judge ? 'cohere' : 'lexical',
      model: options.judge?.model ?? null,
      max_claims: budget.maxClaims,
      judged: budget.used,
      verdicts: {
        supported: verdictCount('supported'),
        contradicted: verdictCount('contradicted'),
        not_in_context: verdictCount('not_in_context'),
        could_not_verify: verdictCount('could_not_verify'),
      },
      token_usage: { input_tokens: judgeSum('input_tokens'), output_tokens: judgeSum('output_tokens') },
    },
    ...(notAnswered.length + notJudged > 0 && options.stop
      ? {
          deadline_cut: {
            reason: stopReason(options.stop),
            questions_not_answered: notAnswered,
            claims_not_judged: notJudged,
          },
        }
      : {}),
    responses,
  };
  return { report, errors };
}

type Bucket =
  | 'grounded'
  | 'ungrounded'
  | 'unnecessary_abstentions'
  | 'abstentions_correct'
  | 'abstentions_gated'
  | 'abstentions_incorrect'
  | 'errors';

function classify(response: AgentResponse): Bucket {
  const verdict = response.grounding_validation;
  if (verdict === null) return 'errors';
  // The gate's abstention is not the model's: reported apart, never counted as a correct abstention.
  if (!verdict.expect_answer)
    return verdict.gated ? 'abstentions_gated' : verdict.passed ? 'abstentions_correct' : 'abstentions_incorrect';
  if (verdict.passed) return 'grounded';
  return verdict.abstained ? 'unnecessary_abstentions' : 'ungrounded';
}

/**
 * The ValidationError for a response that did not pass, or null. A chat failure has no error type of its own in
 * report/findings.ts: a timeout is TIMEOUT, whether retrieval or chat timed out (as in the query stage, so ops read one word for a
 * hang), and any other failure RETRIEVAL_FAILED (seed 002's "retrieval system is unavailable"); details.stage says
 * which step failed and details.kind how.
 */
function describeFinding(
  response: AgentResponse,
  bucket: Bucket,
): { error_type: ErrorType; severity: Severity; message: string } | null {
  const q = `agent query "${response.query_id}"`;
  const why = truncate((response.grounding_validation?.reasons ?? []).join('; '), 300);
  switch (bucket) {
    case 'grounded':
    case 'abstentions_correct':
    case 'abstentions_gated':
      return null;
    case 'ungrounded':
      // Its unsupported claims are reported one by one (unsupportedClaimErrors); nothing else failed.
      if (response.grounding_validation?.error_type === 'UNSUPPORTED_CLAIM') return null;
      return {
        error_type: 'GROUNDING_FAILED',
        severity: 'HIGH',
        message: `The answer to ${q} is not grounded: ${why}`,
      };
    case 'abstentions_incorrect':
      return {
        error_type: 'GROUNDING_FAILED',
        severity: 'HIGH',
        message: `The agent did not abstain on ${q}, which the book cannot answer: ${why}`,
      };
    case 'unnecessary_abstentions':
      return {
        error_type: 'NO_RELEVANT_DOCUMENTS',
        severity: 'MEDIUM',
        message:
          response.status === 'NO_RELEVANT_DOCUMENTS'
            ? `No retrieved chunk reached relevance ${response.retrieved.min_relevance} for ${q}, which the book can answer`
            : `The agent abstained on ${q}, which the book can answer`,
      };
    case 'errors': {
      const error = response.error;
      const kind = error?.kind ?? 'unexpected';
      const message = `${error?.stage === 'chat' ? 'Chat' : 'Retrieval'} failed (${kind}) for ${q}: ${error?.message ?? ''}`;
      const type: ErrorType = kind === 'timeout' ? 'TIMEOUT' : 'RETRIEVAL_FAILED';
      return { error_type: type, severity: 'HIGH', message };
    }
  }
}

/**
 * One UNSUPPORTED_CLAIM per claim the cited chunks do not hold, with what was not found or said against them; only
 * when the citations themselves hold. An answer whose citations are broken gets one GROUNDING_FAILED, whose reasons
 * list its unsupported claims too, rather than one finding per sentence.
 */
function unsupportedClaimErrors(response: AgentResponse, newId: () => string): ValidationError[] {
  const verdict = response.grounding_validation;
  if (verdict?.error_type !== 'UNSUPPORTED_CLAIM') return [];
  return verdict.claims
    .filter((claim) => !claim.supported && claim.judge?.failure !== DEADLINE)
    .map((claim) => ({
      id: newId(),
      validation_id: response.query_id,
      error_type: 'UNSUPPORTED_CLAIM',
      // Not verified is not the same as refuted: ops hear of it, but it does not fail the run by itself.
      severity: claim.judge?.verdict === 'could_not_verify' ? 'MEDIUM' : 'HIGH',
      message: `The answer to agent query "${response.query_id}" makes an unsupported claim: ${truncate(describeUnsupported(claim), 300)}`,
      details: {
        query_id: response.query_id,
        response_id: response.response_id,
        kind: claim.kind,
        claim: claim.text,
        start: claim.start,
        end: claim.end,
        cited_chunk_ids: claim.chunk_ids,
        missing_words: claim.missing_words,
        missing_numbers: claim.missing_numbers,
        missing_names: claim.missing_names,
        missing_quantities: claim.missing_quantities,
        polarity_conflicts: claim.polarity_conflicts,
        word_support: claim.word_support,
        ...(claim.judge ? { judge: claim.judge, lexical_supported: claim.lexical_supported ?? null } : {}),
      },
    }));
}
