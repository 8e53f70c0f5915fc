/**
 * The stand-in's "model" for grounded chat: deterministic and extractive. It answers with the document sentences
 * that share the most content words with the question, each cited by exact offsets, or abstains; and it can be told
 * to misbehave so a grounding check sees both verdicts.
 */

import { flipNegation, inventNumber, paraphrase } from './rewrite-claims.ts';
import { extractTerms, tokenizeWords } from './tokenizer.ts';

/** How the stand-in answers: honestly, or with one deliberate grounding fault. */
export type ChatBehaviour =
  | 'normal'
  | 'cite_unknown_document'
  | 'no_citations'
  | 'answer_unanswerable'
  | 'misplaced_span'
  | 'invent_number'
  | 'flip_negation'
  | 'cite_other_document'
  | 'paraphrase';

/** A document as the chat route normalised it: an id (given, or Cohere's `doc:<index>`) and its fields. */
export interface ChatDocument {
  id: string;
  data: Record<string, unknown>;
}

/** A citation in Cohere v2's wire shape. */
interface Citation {
  start: number;
  end: number;
  text: string;
  sources: { type: 'document'; id: string; document: Record<string, unknown> }[];
  type: 'TEXT_CONTENT';
}

/** The answer text and its citations (empty when abstaining or told not to cite). */
export interface Answer {
  text: string;
  citations: Citation[];
}

/** What the stand-in says when no sentence shares enough with the question. */
export const ABSTENTION_TEXT = 'I could not find information about that in the provided documents.';

/** A sentence qualifies when it holds at least this share of the question's distinct content terms. */
const MIN_SENTENCE_OVERLAP = 0.5;

const MAX_ANSWER_SENTENCES = 3;
// Headings and list stubs ("Installing ROS 2") are not answers.
const MIN_SENTENCE_WORDS = 4;

interface Candidate {
  text: string;
  document: ChatDocument;
  score: number;
  order: number;
}

/** Answers `question` from `documents` only, as the given behaviour dictates. */
export function answerFromDocuments(options: {
  question: string;
  documents: ChatDocument[];
  behaviour: ChatBehaviour;
}): Answer {
  const { question, documents, behaviour } = options;
  const ranked = rankSentences(question, documents);
  let chosen = ranked.filter((c) => c.score >= MIN_SENTENCE_OVERLAP).slice(0, MAX_ANSWER_SENTENCES);
  // The "hallucinating" agent: it answers from the best it has instead of admitting it found nothing.
  if (chosen.length === 0 && behaviour === 'answer_unanswerable') chosen = ranked.slice(0, 1);
  if (chosen.length === 0) return { text: ABSTENTION_TEXT, citations: [] };
  const answer = composeAnswer(rewrite(chosen, behaviour));
  return { text: answer.text, citations: misbehave(answer, behaviour, documents) };
}

/** The text a document contributes: its `text` (or `snippet`, `content`) field, else all its string fields. */
export function readDocumentText(document: ChatDocument): string {
  for (const key of ['text', 'snippet', 'content']) {
    const value = document.data[key];
    if (typeof value === 'string') return value;
  }
  return Object.values(document.data)
    .filter((value): value is string => typeof value === 'string')
    .join('\n');
}

function rankSentences(question: string, documents: ChatDocument[]): Candidate[] {
  const wanted = new Set(extractTerms(question));
  if (wanted.size === 0) return [];
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const document of documents) {
    for (const text of splitSentences(readDocumentText(document))) {
      if (seen.has(text) || tokenizeWords(text).length < MIN_SENTENCE_WORDS) continue;
      seen.add(text);
      const terms = new Set(extractTerms(text));
      const shared = [...wanted].filter((term) => terms.has(term)).length;
      candidates.push({ text, document, score: shared / wanted.size, order: candidates.length });
    }
  }
  // Best overlap first; ties keep document order, so the same request always gets the same answer.
  return candidates.sort((a, b) => b.score - a.score || a.order - b.order);
}

function splitSentences(text: string): string[] {
  return textBlocks(text)
    .flatMap((block) => block.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.replace(/^\s*(?:#+|[-*>]|\d+\.)\s+/, '').trim())
    .filter((sentence) => sentence !== '');
}

/**
 * A chunk's text in blocks: a hard-wrapped paragraph or list item is one block, its lines joined, or an answer would
 * quote half a sentence ("... because they"). A heading is left out (a model answers in sentences, not titles: "A ROS
 * 2 speech node Wrap recognition ..."); inside a code fence every line is a block.
 */
function textBlocks(text: string): string[] {
  const blocks: string[] = [];
  let open: string[] = [];
  let inCode = false;
  const flush = () => {
    if (open.length > 0) blocks.push(open.join(' '));
    open = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      flush();
      inCode = !inCode;
    } else if (/^#+\s/.test(line) && !inCode) flush();
    else if (inCode) {
      flush();
      blocks.push(line);
    } else if (line === '') flush();
    else {
      if (/^(?:[-*>]|\d+\.)\s/.test(line)) flush();
      open.push(line);
    }
  }
  flush();
  return blocks;
}

function composeAnswer(chosen: Candidate[]): Answer {
  let text = '';
  const citations: Citation[] = [];
  for (const candidate of chosen) {
    if (text !== '') text += ' ';
    const start = text.length;
    text += candidate.text;
    citations.push({
      start,
      end: text.length,
      text: candidate.text,
      sources: [{ type: 'document', id: candidate.document.id, document: sourceDocument(candidate.document) }],
      type: 'TEXT_CONTENT',
    });
  }
  return { text, citations };
}

// Cohere echoes the cited document's fields with its id among them.
function sourceDocument(document: ChatDocument): Record<string, unknown> {
  return { id: document.id, ...document.data };
}

// invent_number and flip_negation change the first sentence only: one fault in an otherwise honest answer.
function rewrite(chosen: Candidate[], behaviour: ChatBehaviour): Candidate[] {
  if (behaviour === 'paraphrase') return chosen.map((c) => ({ ...c, text: paraphrase(c.text) }));
  if (behaviour === 'flip_negation') return chosen.map((c, i) => (i === 0 ? { ...c, text: flipNegation(c.text) } : c));
  if (behaviour !== 'invent_number') return chosen;
  return chosen.map((c, i) => (i === 0 ? { ...c, text: inventNumber(c.text) } : c));
}

function misbehave(answer: Answer, behaviour: ChatBehaviour, documents: ChatDocument[]): Citation[] {
  switch (behaviour) {
    case 'cite_other_document':
      // Each sentence cites the next given document instead of its own: a real, retrieved chunk that does not say it.
      return answer.citations.map((citation) => {
        const own = documents.findIndex((d) => d.id === citation.sources[0]?.id);
        const other = documents[(own + 1) % documents.length] ?? documents[0];
        if (other === undefined) return citation;
        return { ...citation, sources: [{ type: 'document', id: other.id, document: sourceDocument(other) }] };
      });
    case 'no_citations':
      return [];
    case 'cite_unknown_document': {
      const id = pickUnknownId(documents);
      return answer.citations.map((citation) => ({
        ...citation,
        sources: [{ type: 'document', id, document: { id, text: citation.text } }],
      }));
    }
    case 'misplaced_span':
      // One character off: the span no longer holds the cited text, as a sloppy offset computation would.
      return answer.citations.map((citation) => ({
        ...citation,
        start: citation.start + 1,
        end: Math.min(citation.end + 1, answer.text.length),
      }));
    default:
      return answer.citations;
  }
}

function pickUnknownId(documents: ChatDocument[]): string {
  const taken = new Set(documents.map((document) => document.id));
  let id = 'unknown-document';
  while (taken.has(id)) id += '-x';
  return id;
}
