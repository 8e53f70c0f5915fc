/**
 * A known-item suite generated from the book itself (`ragwatch suite generate`), so day one needs no hand-written
 * queries. Each page yields up to `perPage` questions, in page order: one from its title, then one per section,
 * from the section's heading, or from its first sentence when the heading says nothing of its own ("Overview").
 * The page is each question's relevant document (its URL at grade 2, the section's chunk at grade 3 when known),
 * with the page's module and chapter expected. A few out-of-domain probes must match nothing. The same book gives
 * the same suite: nothing here depends on time or chance.
 */

/** One page of the book as the generator needs it: from the index (scroll) or from the docs folder. */
export interface BookPage {
  url: string;
  chapterId: string;
  moduleName: string;
  title: string;
  /** In page order; headings are the section's own headings under the title, outermost first. */
  sections: { headings: string[]; text: string; chunkId?: string }[];
}

export interface GenerateOptions {
  /** Questions per page, at most (default 2). */
  perPage?: number;
  /** Out-of-domain probes (default 3, at most 5). */
  probes?: number;
  name?: string;
}

/** Questions no technical book answers: each must stay under every threshold. */
// Words technical books use too ("world", "model", "file", "time") are kept out, so a probe stays out of domain.
export const PROBES = [
  'How long should sourdough bread dough proof before baking?',
  'Which grape varieties grow best in Burgundy vineyards?',
  'What is the best fertiliser for tomato plants?',
  'How do I knit a scarf with a cable stitch?',
  'Who painted the ceiling of the Sistine Chapel?',
];

const GENERIC_HEADING =
  /^(introduction|overview|summary|conclusion|next steps|exercises?|prerequisites|recap|what's next|references|further reading)$/i;
const MAX_SENTENCE_WORDS = 18;

/** The generated suite, as a plain object that parseSuite accepts. */
export function generateSuite(pages: readonly BookPage[], options: GenerateOptions = {}): Record<string, unknown> {
  const perPage = options.perPage ?? 2;
  const probes = Math.min(options.probes ?? 3, PROBES.length);
  const sorted = [...pages].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const queries = sorted.flatMap((page) => questionsFor(page, perPage));
  return {
    name: options.name ?? 'generated-known-item',
    description: `Known-item questions generated from ${pages.length} pages (${perPage} per page at most) and ${probes} out-of-domain probes. Calibrate before use: ragwatch calibrate --suite <this file> --write`,
    defaults: { top_k: 5, min_similarity: 0.5, category: 'known-item' },
    metrics: ['precision@5', 'recall@10', 'mrr', 'ndcg@10'],
    queries: [
      ...queries,
      ...PROBES.slice(0, probes).map((text, i) => ({
        id: `probe-${i + 1}`,
        query_text: text,
        category: 'probe',
        description: 'Out-of-domain probe: must match nothing in the book',
        expect_match: false,
      })),
    ],
  };
}

function questionsFor(page: BookPage, perPage: number): Record<string, unknown>[] {
  const pageText = normalise(page.sections.map((section) => section.text).join(' '));
  const titleWords = normalise(page.title)
    .split(' ')
    .filter((word) => word.length >= 4);
  const candidates: { text: string; chunkId?: string; from: string }[] = [];
  if (titleWords.some((word) => ` ${pageText} `.includes(` ${word} `)))
    candidates.push({ text: `What is ${page.title} about?`, from: 'the page title' });
  const seen = new Set([normalise(page.title)]);
  const fromSentences: typeof candidates = [];
  for (const section of page.sections) {
    const heading = section.headings.at(-1);
    const fromHeading = heading !== undefined && !GENERIC_HEADING.test(heading.trim());
    const text = fromHeading ? `What about ${lowerFirst(heading)} in ${page.title}?` : sentenceQuestion(section.text);
    if (text === null || seen.has(normalise(text)) || (fromHeading && seen.has(normalise(heading)))) continue;
    seen.add(normalise(text));
    if (fromHeading) seen.add(normalise(heading));
    const candidate = {
      text,
      ...(section.chunkId === undefined ? {} : { chunkId: section.chunkId }),
      from: fromHeading ? `the heading "${heading}"` : 'the first sentence of a section',
    };
    (fromHeading ? candidates : fromSentences).push(candidate);
  }
  return [...candidates, ...fromSentences].slice(0, perPage).map((c, i) => ({
    id: `${slug(page.chapterId)}-${i + 1}`.slice(0, 100),
    query_text: c.text.slice(0, 1000),
    category: 'known-item',
    description: `Known item: ${page.url}, from ${c.from}`,
    // A page outside every module (a site page, the book's introduction) expects none rather than a made-up one.
    ...(page.moduleName === '' ? {} : { expected_module: page.moduleName }),
    expected_chapter: page.chapterId,
    relevant: [{ url: page.url, grade: 2 }, ...(c.chunkId === undefined ? [] : [{ chunk_id: c.chunkId, grade: 3 }])],
  }));
}

/** "Where is it explained that <first sentence>?", from prose only (code, tables and markup left out). */
function sentenceQuestion(markdown: string): string | null {
  // The lines inside a code fence are code too, not only the fence lines themselves.
  let fenced = false;
  const prose = markdown
    .split('\n')
    .filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return false;
      }
      return !fenced && !/^\s*(#|\||<|>|!\[|import\s)/.test(line);
    })
    .join(' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .trim();
  const sentence = prose.split(/(?<=[.!?])\s+/)[0]?.replace(/[.!?]+$/, '') ?? '';
  const words = sentence.split(/\s+/).filter((w) => w !== '');
  if (words.length < 4) return null;
  return `Where is it explained that ${lowerFirst(words.slice(0, MAX_SENTENCE_WORDS).join(' '))}?`;
}

function lowerFirst(text: string): string {
  // Keep acronyms and names: "ROS 2" stays, "Nodes and topics" becomes "nodes and topics".
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function slug(chapterId: string): string {
  return (
    chapterId
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'page'
  );
}
