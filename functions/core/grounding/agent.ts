/**
 * The retrieval agent of seed 002, as the nightly job runs it: retrieve, keep what is relevant, ask the chat model
 * for an answer built from those chunks only (cited by id), and attach the grounding verdict.
 * The tool is called on every question rather than left to the model's choice: a monitor must be reproducible.
 */

import type { ChatModel, ChatReply, ClaimJudge, Clock } from '../ports.ts';
import type { QueryFilters } from '../queries/filters.ts';
import type { AgentCitation, AgentResponse } from '../report/grounding-report.ts';
import { describeError, isServiceError } from '../shared/errors.ts';
import { checkGrounding } from './grounding.ts';
import { type JudgeBudget, type JudgedClaims, judgeClaims, stopReason } from './judge.ts';
import type { RetrievalTool, RetrievedContext } from './retrieval-tool.ts';

/** What the agent says, without calling chat, when nothing retrieved is relevant enough to answer from. */
export const NO_RELEVANT_DOCUMENTS_ANSWER = 'I could not find anything in the book that answers this question.';

/** The part of a suite query the agent reads. */
interface AgentQuery {
  id: string;
  query_text: string;
  /** false for a question the book cannot answer: the agent must abstain. */
  expect_answer: boolean;
  filters?: QueryFilters;
}

/** What answerQuestion needs: the question, the ports, and the relevance gate. */
export interface AnswerQuestionOptions {
  query: AgentQuery;
  tool: RetrievalTool;
  chat: ChatModel;
  clock: Clock;
  newId: () => string;
  topK: number;
  /** Chunks scoring under this never reach the chat model; with none left, the agent abstains. */
  minRelevance: number;
  minCoverage?: number;
  minWordSupport?: number;
  /** The claim judge and the run's claim budget; without it the lexical gate's verdict is final. */
  claimJudge?: { judge: ClaimJudge; budget: JudgeBudget };
  /**
   * Aborts when the agent's time is up, a margin before the run's deadline: chat is not asked after it (a question the
   * relevance gate answers needs none), and a call it cut is not the service failing. The turn is CHAT_FAILED (or
   * RETRIEVAL_FAILED) with error kind "deadline"; claims left unjudged are could_not_verify (judge.ts).
   */
  stop?: AbortSignal;
}

const distinct = (ids: string[]) => [...new Set(ids)];

/** The error kind of a turn the agent's time ran out on (`stop`): not asked, or cut. */
export const DEADLINE = 'deadline';

/**
 * Answers one question and judges the answer. Never throws for a service failure: a failed retrieval or chat is a
 * response with status RETRIEVAL_FAILED / CHAT_FAILED, the error's kind, and no verdict. A question the agent had no
 * time left to put to chat (`stop`) is CHAT_FAILED of kind "deadline".
 */
export async function answerQuestion(options: AnswerQuestionOptions): Promise<AgentResponse> {
  const { query, tool, chat, clock, minRelevance } = options;
  const t0 = clock.monotonicMs();
  const base = { response_id: options.newId(), query_id: query.id, query_text: query.query_text };
  const respond = (fields: Partial<AgentResponse> & Pick<AgentResponse, 'status'>): AgentResponse => ({
    ...base,
    response_text: '',
    source_chunks: [],
    confidence_score: 0,
    confidence_components: { evidence_relevance: 0, support_ratio: null },
    grounding_validation: null,
    error: null,
    citations: [],
    retrieved: { chunk_ids: [], relevance_scores: [], min_relevance: minRelevance, relevant_chunk_ids: [] },
    token_usage: { input_tokens: 0, output_tokens: 0 },
    latency: { retrieval_ms: 0, chat_ms: 0, total_ms: clock.monotonicMs() - t0 },
    ...fields,
    timestamp: clock.now().toISOString(),
  });
  const failure = (stage: 'retrieval' | 'chat', error: unknown) => ({
    stage,
    kind: isServiceError(error) ? error.kind : null,
    message: describeError(error),
  });

  const { stop } = options;
  // A failure once the agent's time is up is that time running out (the tool searches nothing new after it, and
  // chat's call is cut by it), not the service failing.
  const cut = () => (stop?.aborted ? { kind: DEADLINE } : {});

  let context: RetrievedContext;
  try {
    context = await tool.retrieve({ query: query.query_text, top_k: options.topK, filters: query.filters ?? {} });
  } catch (error) {
    return respond({ status: 'RETRIEVAL_FAILED', error: { ...failure('retrieval', error), ...cut() } });
  }
  const t1 = clock.monotonicMs();
  // Seed 002: chunk content must be non-empty; an empty chunk is no evidence, whatever its score.
  const relevant = context.document_chunks.filter((c) => c.score >= minRelevance && c.text.trim().length > 0);
  const retrieved = {
    chunk_ids: context.chunk_ids,
    relevance_scores: context.relevance_scores,
    min_relevance: minRelevance,
    relevant_chunk_ids: relevant.map((c) => c.id),
  };
  const chunkTexts = Object.fromEntries(relevant.map((c) => [c.id, c.text]));
  const judge = (text: string, citations: AgentCitation[], judgements?: JudgedClaims['judgements'], gated = false) =>
    checkGrounding({
      ...(gated ? { gated } : {}),
      response: { response_text: text, citations },
      retrievedChunkIds: retrieved.relevant_chunk_ids,
      chunkTexts,
      expectAnswer: query.expect_answer,
      ...(options.minCoverage === undefined ? {} : { minCoverage: options.minCoverage }),
      ...(options.minWordSupport === undefined ? {} : { minWordSupport: options.minWordSupport }),
      ...(judgements === undefined ? {} : { judgements }),
    });

  if (relevant.length === 0) {
    return respond({
      status: 'NO_RELEVANT_DOCUMENTS',
      response_text: NO_RELEVANT_DOCUMENTS_ANSWER,
      retrieved,
      grounding_validation: judge(NO_RELEVANT_DOCUMENTS_ANSWER, [], undefined, true),
      latency: { retrieval_ms: t1 - t0, chat_ms: 0, total_ms: t1 - t0 },
    });
  }

  // No time left to ask chat: a question the relevance gate answered (above) needed none.
  if (stop?.aborted)
    return respond({
      status: 'CHAT_FAILED',
      error: { stage: 'chat', kind: DEADLINE, message: `not asked: ${stopReason(stop)}` },
      retrieved,
      latency: { retrieval_ms: t1 - t0, chat_ms: 0, total_ms: t1 - t0 },
    });
  let reply: ChatReply;
  try {
    reply = await chat.chat({
      question: query.query_text,
      documents: relevant.map((c) => ({ id: c.id, text: c.text })),
    });
  } catch (error) {
    const t2 = clock.monotonicMs();
    return respond({
      status: 'CHAT_FAILED',
      error: { ...failure('chat', error), ...cut() },
      retrieved,
      latency: { retrieval_ms: t1 - t0, chat_ms: t2 - t1, total_ms: t2 - t0 },
    });
  }
  const t2 = clock.monotonicMs();
  const citations = reply.citations.map((c) => ({
    start: c.start,
    end: c.end,
    text: c.text,
    document_ids: c.documentIds,
  }));
  const sourceChunks = distinct(citations.flatMap((c) => c.document_ids));
  const lexical = judge(reply.text, citations);
  // The lexical gate runs first (free); then the judge reads every claim it found, and its verdict is final.
  const judged =
    options.claimJudge && lexical.claims.length > 0
      ? await judgeClaims({ claims: lexical.claims, chunkTexts, ...options.claimJudge, ...(stop ? { stop } : {}) })
      : undefined;
  const verdict = judged ? judge(reply.text, citations, judged.judgements) : lexical;
  const t3 = clock.monotonicMs();
  const evidenceRelevance = scoreConfidence(sourceChunks, relevant);
  return respond({
    status: 'ANSWERED',
    response_text: reply.text,
    source_chunks: sourceChunks,
    confidence_score: evidenceRelevance * (verdict.support_ratio ?? 0),
    confidence_components: { evidence_relevance: evidenceRelevance, support_ratio: verdict.support_ratio },
    grounding_validation: verdict,
    citations,
    retrieved,
    token_usage: { input_tokens: reply.billedUnits.inputTokens, output_tokens: reply.billedUnits.outputTokens },
    ...(judged ? { judge_token_usage: judged.usage } : {}),
    latency: { retrieval_ms: t1 - t0, chat_ms: t2 - t1, ...(judged ? { judge_ms: t3 - t2 } : {}), total_ms: t3 - t0 },
  });
}

/**
 * Evidence relevance, the first factor of an answer's confidence: the mean relevance score of the cited chunks the
 * model was given, clamped to 0..1; 0 when it cites none of them. It says how closely the evidence an answer rests on
 * matches the question, without asking a model to rate itself; the support rate then says how much of the answer
 * that evidence really holds.
 */
export function scoreConfidence(citedIds: string[], given: { id: string; score: number }[]): number {
  const scores = citedIds.flatMap((id) => given.find((c) => c.id === id)?.score ?? []);
  if (scores.length === 0) return 0;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  return Math.min(1, Math.max(0, mean));
}
