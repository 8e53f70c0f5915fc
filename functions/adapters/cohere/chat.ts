/**
 * The ChatModel port on Cohere Chat v2, through cohere-ai's CohereClientV2: the chunks go in as documents with their
 * ids, citations come back with the ids they cite. Every failure is translated once (errors.ts) into a ChatError that
 * names the model and the endpoint, never the API key.
 */
import { CohereClientV2 } from 'cohere-ai';
import type { ChatCitation, ChatDocument, ChatModel, ChatReply } from '../../core/ports.ts';
import { ChatError } from '../../core/shared/errors.ts';
import { DependencyGate, type RunSignal, retryTransient } from '../transport.ts';
import { malformedChatAnswer, safeOrigin, translateCohereChatError } from './errors.ts';

/** The chat model the project pins by default: Cohere's Command A, the model its API reference shows. */
export const DEFAULT_CHAT_MODEL = 'command-a-03-2025';

/** Keeps the model to the documents and to saying so when they do not answer: what the grounding check expects. */
const SYSTEM_PROMPT =
  'Answer the question using only the provided documents, and cite them. If the documents do not contain the ' +
  'answer, reply exactly: "I could not find information about that in the provided documents." Do not use ' +
  'outside knowledge.';

/** How to reach Cohere chat; the token is kept only to authenticate and to redact it from messages. */
export interface CohereChatOptions {
  token: string;
  model?: string;
  /** Overrides Cohere's production URL (a proxy, or the local stand-in). */
  baseUrl?: string;
  timeoutInSeconds: number;
  /** Retries of transient failures (429, 5xx, connection reset), with backoff honouring Retry-After. */
  maxRetries?: number;
  /** The run's deadline: every request listens to it, and no retry starts after it. */
  run?: RunSignal;
  /** Shared with the embedder: once Cohere failed hard in this run, later calls are not tried. */
  gate?: DependencyGate;
}

/** The part of cohere-ai's V2ChatResponse the adapter reads. */
export interface CohereChatResponse {
  finishReason?: string;
  message?: {
    content?: { type: string; text?: string }[];
    citations?: {
      start?: number;
      end?: number;
      text?: string;
      contentIndex?: number;
      sources?: { type?: string; id?: string }[];
    }[];
  };
  usage?: { billedUnits?: { inputTokens?: number; outputTokens?: number } };
}

/** One chat request's body, without the model (the sender sets it). */
type CohereChatRequest = Omit<Parameters<CohereClientV2['chat']>[0], 'model'>;

/**
 * Sends chat requests for one model as every Cohere chat caller must (the agent, the claim judge): one client built
 * once, errors translated with `role`, model and endpoint named (never the key), transient failures retried under
 * the run's deadline, and the run's Cohere gate shared, then the reply read.
 */
export function cohereChatSender(
  options: Omit<CohereChatOptions, 'model'>,
  role: string,
  model: string,
): (request: CohereChatRequest) => Promise<ChatReply> {
  // The SDK's own retries are off: transport.ts retries, with the same policy (and Retry-After cap) as every adapter.
  const client = new CohereClientV2({
    token: options.token,
    timeoutInSeconds: options.timeoutInSeconds,
    maxRetries: 0,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  const where = `${role} (${model}) at ${options.baseUrl ? safeOrigin(options.baseUrl) : 'api.cohere.com'}`;
  const gate = options.gate ?? new DependencyGate('Cohere');
  return async (request) => {
    const call = async () => {
      try {
        return (await client.chat(
          { model, ...request },
          options.run ? { abortSignal: options.run.signal } : {},
        )) as CohereChatResponse;
      } catch (error) {
        throw translateCohereChatError(error, where, options.token, options.run);
      }
    };
    const response = await gate.run(
      () => retryTransient(call, { retries: options.maxRetries ?? 2, ...(options.run ? { run: options.run } : {}) }),
      options.run?.signal,
    );
    return readCohereReply(response, where);
  };
}

/** Builds the ChatModel on CohereClientV2; the client is built once and reused. */
export function createCohereChat(options: CohereChatOptions): ChatModel {
  const model = options.model ?? DEFAULT_CHAT_MODEL;
  const send = cohereChatSender(options, 'Cohere chat', model);
  return {
    model,
    chat: ({ question, documents }) =>
      send({
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: question },
        ],
        documents: documents.map((d: ChatDocument) => ({ id: d.id, data: { text: d.text } })),
        // No citationOptions: citations are on by default for every model that has them, and the modes differ by
        // model (command-a-03-2025 refuses ACCURATE; the current API calls "on" ENABLED).
        // The monitor compares nights: the least random sampling Cohere offers.
        temperature: 0,
      }),
  };
}

/** Joins the text blocks and moves each citation's offsets from its block into the joined text. */
export function readCohereReply(response: CohereChatResponse, where: string): ChatReply {
  // An answer without a message is not an empty answer (that would read as an abstention): it is a broken one.
  if (typeof response?.message !== 'object' || response.message === null)
    throw malformedChatAnswer(where, 'no "message" object');
  if (response.message.content !== undefined && !Array.isArray(response.message.content))
    throw malformedChatAnswer(where, '"message.content" is not a list');
  if (response.message.citations !== undefined && !Array.isArray(response.message.citations))
    throw malformedChatAnswer(where, '"message.citations" is not a list');
  if (response.finishReason === 'ERROR')
    throw new ChatError(`${where} stopped with finish_reason ERROR`, 'unavailable');
  if (response.finishReason === 'TIMEOUT')
    throw new ChatError(`${where} stopped with finish_reason TIMEOUT`, 'timeout');
  const blocks = response.message?.content ?? [];
  const offsets: number[] = [];
  let text = '';
  for (const block of blocks) {
    offsets.push(text.length);
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
  }
  const citations: ChatCitation[] = (response.message?.citations ?? []).map((c) => {
    const shift = offsets[c.contentIndex ?? 0] ?? 0;
    return {
      start: (c.start ?? 0) + shift,
      end: (c.end ?? 0) + shift,
      text: c.text ?? '',
      // Tool sources cannot back an answer built from documents; only document ids are kept.
      documentIds: (c.sources ?? []).flatMap((s) => (s.type === 'document' && s.id ? [s.id] : [])),
    };
  });
  const billed = response.usage?.billedUnits;
  return {
    text,
    citations,
    billedUnits: { inputTokens: billed?.inputTokens ?? 0, outputTokens: billed?.outputTokens ?? 0 },
  };
}
