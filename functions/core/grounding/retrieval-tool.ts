/**
 * The retrieval tool of seed 002: a JSON function schema a tool-using agent can register, and its implementation
 * on the engine's ports (embed the query, search with filters and top_k), returning the seed's Retrieved Context.
 */

import { z } from 'zod';
import { CONTEXT_FIELDS } from '../book/payload.ts';
import type { Clock, Embedder, Payload, SearchHit, VectorIndex } from '../ports.ts';
import { buildPayloadFilter } from '../queries/filters.ts';
import { DeadlineError, EmbeddingError, InputError } from '../shared/errors.ts';
import { listIssues } from '../suite/issue-messages.ts';
import { stopReason } from './judge.ts';

const TOOL_NAME = 'search_book';
const DESCRIPTION =
  'Searches the book for passages relevant to a question and returns the best chunks with their source URL, ' +
  'module, chapter and headings. Answer only from what this returns.';

const PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 1000, description: 'The question, in natural language' },
    top_k: { type: 'integer', minimum: 1, maximum: 50, default: 5, description: 'How many chunks to return' },
    filters: {
      type: 'object',
      description: 'Restricts the search to part of the book; every given filter must hold',
      properties: {
        module: { type: 'string', description: 'Module name, e.g. module1-ros2' },
        chapter: { type: 'string', description: 'Chapter id' },
        section: { type: 'string', description: 'A heading the chunk sits under' },
        url: { type: 'string', description: 'The page URL' },
      },
      additionalProperties: false,
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** Seed 002 Retrieval Tool: the definition, with `function_schema` in the function-calling shape chat APIs take. */
export const RETRIEVAL_TOOL_DEFINITION = {
  tool_name: TOOL_NAME,
  description: DESCRIPTION,
  parameters: PARAMETERS,
  function_schema: {
    type: 'function',
    function: { name: TOOL_NAME, description: DESCRIPTION, parameters: PARAMETERS },
  },
} as const;

const RetrievalArguments = z
  .object({
    query: z
      .string({ error: 'required: the question' })
      .transform((s) => s.trim())
      .pipe(z.string().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters')),
    top_k: z.number().int('must be a whole number').min(1, 'must be 1..50').max(50, 'must be 1..50').default(5),
    filters: z
      .object({
        module: z.string().min(1).optional(),
        chapter: z.string().min(1).optional(),
        section: z.string().min(1).optional(),
        url: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
/** Tool arguments after validation and defaults. */
export type RetrievalArguments = z.infer<typeof RetrievalArguments>;

/** Validates tool arguments (from a suite or a model's tool call); one InputError lists every problem. */
export function parseRetrievalArguments(args: unknown): RetrievalArguments {
  const parsed = RetrievalArguments.safeParse(args);
  if (!parsed.success) throw new InputError(`${TOOL_NAME} arguments`, listIssues(parsed.error));
  return parsed.data;
}

/** One retrieved chunk with the seed's metadata and its similarity score. */
interface DocumentChunk {
  id: string;
  text: string;
  source_url: string | null;
  chapter_id: string | null;
  module_name: string | null;
  heading_hierarchy: string[] | null;
  score: number;
}

/** Seed 002 Retrieved Context. The query embedding is left out: 1024 floats help no reader of a report. */
export interface RetrievedContext {
  document_chunks: DocumentChunk[];
  chunk_ids: string[];
  relevance_scores: number[];
  metadata: {
    query: string;
    top_k: number;
    filters: RetrievalArguments['filters'];
    embedding_model: string;
    sources: string[];
    retrieved_at: string;
    embedding_ms: number;
    search_ms: number;
    /** True when the hits came from the run's query stage instead of a search of their own. */
    reused_search: boolean;
  };
}

/** The tool: its definition and the call behind it. */
export interface RetrievalTool {
  readonly definition: typeof RETRIEVAL_TOOL_DEFINITION;
  /** Throws InputError on bad arguments, and the ports' EmbeddingError / IndexError on a service failure. */
  retrieve(args: unknown): Promise<RetrievedContext>;
}

const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const headings = (v: unknown) => (Array.isArray(v) ? v.filter((h): h is string => typeof h === 'string') : null);

function toChunk(id: string, score: number, payload: Payload): DocumentChunk {
  return {
    id,
    text: stringOrNull(payload.chunk_text) ?? '',
    source_url: stringOrNull(payload.source_url),
    chapter_id: stringOrNull(payload.chapter_id),
    module_name: stringOrNull(payload.module_name),
    heading_hierarchy: headings(payload.heading_hierarchy),
    score,
  };
}

/** Hits the run already has for these arguments (the query stage's), or undefined to search. */
export type PrefetchedHits = (args: RetrievalArguments) => SearchHit[] | undefined;

/**
 * Builds the retrieval tool on the engine's ports: one embedding, one search, the seed's Retrieved Context.
 * With `prefetched`, a query the run has already searched with the same arguments is answered from those hits,
 * so the grounded-answer stage costs its chat calls and not a second embed and search per question.
 */
export function createRetrievalTool(deps: {
  embedder: Embedder;
  index: VectorIndex;
  clock: Clock;
  prefetched?: PrefetchedHits;
  /** The agent's time is up (a margin before the run's deadline): hits already had are served, no search starts. */
  stop?: AbortSignal;
}): RetrievalTool {
  const { embedder, index, clock } = deps;
  return {
    definition: RETRIEVAL_TOOL_DEFINITION,
    async retrieve(raw) {
      const args = parseRetrievalArguments(raw);
      const t0 = clock.monotonicMs();
      const reused = deps.prefetched?.(args);
      let t1 = t0;
      let hits: SearchHit[];
      if (reused) hits = reused;
      else if (deps.stop?.aborted) throw new DeadlineError(`not searched: ${stopReason(deps.stop)}`);
      else {
        const { vectors } = await embedder.embedQueries([args.query]);
        const vector = vectors[0];
        if (vector === undefined)
          throw new EmbeddingError(`${embedder.model} returned no vector for the query`, 'unexpected');
        t1 = clock.monotonicMs();
        const { filter } = buildPayloadFilter(args.filters);
        [hits = []] = await index.searchBatch([
          { vector, limit: args.top_k, payloadFields: CONTEXT_FIELDS, ...(filter ? { filter } : {}) },
        ]);
      }
      const t2 = clock.monotonicMs();
      const chunks = hits.map((hit) => toChunk(hit.id, hit.score, hit.payload));
      return {
        document_chunks: chunks,
        chunk_ids: chunks.map((c) => c.id),
        relevance_scores: chunks.map((c) => c.score),
        metadata: {
          query: args.query,
          top_k: args.top_k,
          filters: args.filters,
          embedding_model: embedder.model,
          sources: [...new Set(chunks.flatMap((c) => (c.source_url ? [c.source_url] : [])))],
          retrieved_at: clock.now().toISOString(),
          embedding_ms: t1 - t0,
          search_ms: t2 - t1,
          reused_search: reused !== undefined,
        },
      };
    },
  };
}
