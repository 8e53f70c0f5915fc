/**
 * POST /v2/chat (non-streaming): validates the request the way Cohere does, answers from the given documents with
 * answerFromDocuments, and replies in the V2ChatResponse shape cohere-ai reads (message content, citations, usage).
 */

import { randomUUID } from 'node:crypto';
import {
  answerFromDocuments,
  type ChatBehaviour,
  type ChatDocument,
  readDocumentText,
} from './answer-from-documents.ts';
import { answerJudge, type JudgeBehaviour } from './judge-route.ts';
import { tokenizeWords } from './tokenizer.ts';
import { isObject, type RouteResult, replyError, replyUnknownModel } from './wire.ts';

/** The chat models the stand-in serves. */
const CHAT_MODELS: ReadonlySet<string> = new Set([
  'command-a-03-2025',
  'command-a-reasoning-08-2025',
  'command-r7b-12-2024',
  'command-r-plus-08-2024',
  'command-r-08-2024',
  'command-r-plus',
  'command-r',
]);

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

/** Answers one chat request body (already parsed JSON) as the behaviour chosen for its question dictates. */
export function handleChat(
  body: unknown,
  behaviourFor: (question: string) => ChatBehaviour,
  judgeBehaviour: JudgeBehaviour = 'normal',
): RouteResult {
  if (!isObject(body)) return replyError(400, 'invalid request: body must be a JSON object');
  const { model, messages, documents, citation_options: citationOptions, stream } = body;
  const format = body.response_format;
  if (typeof model !== 'string' || model === '') return replyError(400, 'invalid request: model must be specified');
  if (!CHAT_MODELS.has(model)) return replyUnknownModel(model);
  if (stream === true) return replyError(400, 'invalid request: the Cohere stand-in does not stream; call chat');
  if (!Array.isArray(messages) || messages.length === 0) {
    return replyError(400, 'invalid request: messages must contain at least one message');
  }
  const parsed: { role: string; text: string }[] = [];
  for (const [index, message] of messages.entries()) {
    const text = isObject(message) && ROLES.has(String(message.role)) ? readContent(message.content) : undefined;
    if (text === undefined) {
      return replyError(400, `invalid request: messages[${index}] must have a role and a text content`);
    }
    parsed.push({ role: String(message.role), text });
  }
  // The question is the latest user turn; earlier turns and the system prompt only count as billed input.
  const question = parsed.findLast((message) => message.role === 'user');
  if (question === undefined) return replyError(400, 'invalid request: messages must contain a user message');
  const given = normaliseDocuments(documents);
  if (typeof given === 'string') return replyError(400, given);
  if (format !== undefined) {
    if (!isObject(format) || !['text', 'json_object'].includes(String(format.type)))
      return replyError(400, 'invalid request: response_format.type must be "text" or "json_object"');
    if (format.type === 'json_object') {
      // Cohere's documented limitation: a response format cannot be combined with documents or tools.
      if (given.length > 0 || body.tools !== undefined)
        return replyError(400, 'invalid request: response_format is not supported with documents or tools');
      const text = answerJudge(question.text, judgeBehaviour);
      const inputTokens = countWords(parsed.map((message) => message.text));
      const outputTokens = countWords([text]);
      return {
        status: 200,
        body: {
          id: randomUUID(),
          message: { role: 'assistant', content: [{ type: 'text', text }] },
          finish_reason: 'COMPLETE',
          usage: {
            billed_units: { input_tokens: inputTokens, output_tokens: outputTokens },
            tokens: { input_tokens: inputTokens, output_tokens: outputTokens },
          },
        },
      };
    }
  }

  const behaviour = behaviourFor(question.text);
  const answer = answerFromDocuments({ question: question.text, documents: given, behaviour });
  const citationsOff = isObject(citationOptions) && ['OFF', 'DISABLED'].includes(String(citationOptions.mode));
  const inputTokens = countWords([...parsed.map((message) => message.text), ...given.map(readDocumentText)]);
  const outputTokens = countWords([answer.text]);
  return {
    status: 200,
    body: {
      id: randomUUID(),
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: answer.text }],
        // Cohere leaves the field out, rather than sending [], when nothing is cited.
        ...(answer.citations.length > 0 && !citationsOff ? { citations: answer.citations } : {}),
      },
      finish_reason: 'COMPLETE',
      usage: {
        billed_units: { input_tokens: inputTokens, output_tokens: outputTokens },
        tokens: { input_tokens: inputTokens, output_tokens: outputTokens },
      },
    },
  };
}

// A message's content is a string or a list of content parts, of which only text parts count here.
function readContent(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => String(part.text))
    .join('\n');
}

// Cohere accepts plain strings as documents and names documents without an id `doc:<index>`.
function normaliseDocuments(documents: unknown): ChatDocument[] | string {
  if (documents === undefined) return [];
  if (!Array.isArray(documents)) return 'invalid request: documents must be a list';
  const result: ChatDocument[] = [];
  for (const [index, document] of documents.entries()) {
    if (typeof document === 'string') {
      result.push({ id: `doc:${index}`, data: { text: document } });
    } else if (isObject(document) && isObject(document.data)) {
      const id = typeof document.id === 'string' && document.id !== '' ? document.id : `doc:${index}`;
      result.push({ id, data: document.data });
    } else {
      return `invalid request: documents[${index}] must be a string or an object with a data object`;
    }
  }
  return result;
}

function countWords(texts: string[]): number {
  return texts.reduce((sum, text) => sum + tokenizeWords(text).length, 0);
}
