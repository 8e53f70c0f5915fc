/**
 * A known-item suite generated from the book itself (`ragwatch suite generate`), so day one needs no hand-written
 * queries. Each page yields up to `perPage` questions a reader would ask (issue 23): one from its title (not when the
 * title is one word, generic, or another page's too), one from its most distinctive section's heading (with its
 * parent's when the heading is short or generic: "GPU (Critical Bottleneck) › Minimum"; none from a heading found on
 * two or more pages), then one from body text (the section's sentence the rest of the book says least, not one that
 * leans on the sentence before it). Headings keep their casing and lose their list numbering. The page is each
 * question's relevant document (its URL at grade 2, the section's chunk at grade 3 when known; another page with a
 * section of the same heading at grade 1), with the page's module and chapter expected. Ids are unique even when two
 * pages share a chapter. A few out-of-domain probes must match nothing. The same book gives the same suite: nothing
 * here depends on time or chance.
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

// Headings (and titles) that say nothing of their own page; a heading found on two or more pages is treated alike.
const GENERIC_HEADING =
  /^(introduction|intro|overview|summary|conclusions?|next steps|exercises?|prerequisites|recap|what's next|what you'll learn|references|further reading|key takeaways|learning objectives|objectives|goals|setup|installation|getting started|quick ?start|core concepts|concepts|examples?|usage|notes?|troubleshooting|resources|faq|background|motivation|requirements|core requirements|module structure|structure|contents|table of contents|welcome|about|index|home|glossary|credits|license|changelog)$/i;
const MAX_SENTENCE_WORDS = 18;
// A sentence that opens on one of these leans on the one before it: asked alone, it has no subject.
const DEICTIC_START =
  /^(it|its|this|that|these|those|they|them|there|here|you|we|he|she|such|so|but|and|or|also|then|however|otherwise|instead|yes|no)\b/i;
const STOPWORDS = new Set(
  'about above after again also because been before being below between both could does doing down during each every from further have having here into just more most much must only other over same should some such than that their them then there these they this those through under until very what when where which while will with would your yours'.split(
    ' ',
  ),
);

/** What the generator knows of the whole book: how many pages each term and each heading appears on. */
interface BookStats {
  pages: number;
  termPages: Map<string, number>;
  headingPages: Map<string, string[]>;
  /** Pages (URLs) by title, and by heading: a page given twice counts once. */
  titlePages: Map<string, string[]>;
  /** Words the book's prose writes in lower case somewhere ("simulation"), lower-cased. */
  lowerWords: Set<string>;
  /** Words it writes capitalised inside a sentence, not first ("in Gazebo"): names, lower-cased. */
  namedWords: Set<string>;
}

/** The generated suite, as a plain object that parseSuite accepts. */
export function generateSuite(pages: readonly BookPage[], options: GenerateOptions = {}): Record<string, unknown> {
  const perPage = options.perPage ?? 2;
  const probes = Math.min(options.probes ?? 3, PROBES.length);
  const sorted = [...pages].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const stats = bookStats(sorted);
  const ids = new Set<string>();
  const queries = sorted.flatMap((page) => questionsFor(page, perPage, stats, ids));
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

function bookStats(pages: readonly BookPage[]): BookStats {
  const termPages = new Map<string, number>();
  const headingPages = new Map<string, string[]>();
  const titlePages = new Map<string, string[]>();
  const lowerWords = new Set<string>();
  const namedWords = new Set<string>();
  for (const page of pages) {
    for (const section of page.sections) readCasing(section.text, lowerWords, namedWords);
    for (const term of new Set(termsOf(`${page.title} ${page.sections.map((s) => s.text).join(' ')}`)))
      termPages.set(term, (termPages.get(term) ?? 0) + 1);
    const headings = new Set(page.sections.flatMap((s) => s.headings.map((h) => normalise(cleanHeading(h)))));
    for (const heading of headings) {
      const urls = headingPages.get(heading) ?? [];
      if (!urls.includes(page.url)) headingPages.set(heading, [...urls, page.url]);
    }
    const title = normalise(cleanHeading(page.title));
    titlePages.set(title, [...new Set([...(titlePages.get(title) ?? []), page.url])]);
  }
  return { pages: pages.length, termPages, headingPages, titlePages, lowerWords, namedWords };
}

/**
 * How the book's prose writes each word (code left out): in lower case somewhere, or capitalised after the first
 * word of a sentence. A word the book only ever writes capitalised inside sentences is a name ("Gazebo", "Jest"), and
 * a question that opens with it keeps its capital (issue 23: "gazebo simulates ...").
 */
function readCasing(markdown: string, lowerWords: Set<string>, namedWords: Set<string>): void {
  for (const unit of proseUnits(markdown)) {
    for (const sentence of withoutCode(unit).split(/(?<=[.!?:])\s+/)) {
      const words = sentence.match(WORD) ?? [];
      words.forEach((word, i) => {
        if (/^\p{Ll}/u.test(word)) lowerWords.add(word.toLowerCase());
        else if (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(word)) namedWords.add(word.toLowerCase());
      });
    }
  }
}

/** Words a cut sentence cannot end on: they lead on to what was cut. */
const LEADS_ON = new Set(
  'a an the this that these those which who whom whose what where when while if whether because as than so such of to in on at by for from with into onto about over under and or but nor is are was were be been being has have had do does did can could will would shall should may might must its their your our my his her not no very more most'.split(
    ' ',
  ),
);

/** A whole word of prose: letters, not part of an identifier, a path or a number ("gazebo_ros", "v2"). */
const WORD = /(?<![\p{L}\p{N}_./\\-])\p{L}+(?![\p{L}\p{N}_/\\-]|\.\p{L})/gu;

/** Inline code (kept between CODE_OPEN and CODE_CLOSE by proseUnits) removed. */
function withoutCode(text: string): string {
  return text.replace(CODE_SPAN, ' ');
}

/** Inline code as proseUnits keeps it: between two private-use characters no book writes, so code is told apart. */
const CODE_OPEN = '\uE000';
const CODE_CLOSE = '\uE001';
const CODE_SPAN = /\uE000[^\uE001]*\uE001/g;

interface Candidate {
  text: string;
  chunkId?: string;
  from: string;
  /** Other pages with a section of the same heading: relevant too (grade 1). */
  alsoRelevant: string[];
}

function questionsFor(page: BookPage, perPage: number, stats: BookStats, ids: Set<string>): Record<string, unknown>[] {
  const pageText = normalise(page.sections.map((section) => section.text).join(' '));
  const title = cleanHeading(page.title);
  const titleWords = normalise(title)
    .split(' ')
    .filter((word) => word.length >= 4);
  const candidates: Candidate[] = [];
  // No title question for a one-word or generic title, or one another page has too ("Introduction" on every module).
  const titleSaysSomething =
    title.split(/\s+/).length > 1 &&
    !GENERIC_HEADING.test(title) &&
    (stats.titlePages.get(normalise(title))?.length ?? 0) < 2;
  if (titleSaysSomething && titleWords.some((word) => ` ${pageText} `.includes(` ${word} `)))
    candidates.push({ text: `What is ${title} about?`, from: 'the page title', alsoRelevant: [] });
  const seen = new Set([normalise(title)]);
  const fromSentences: Candidate[] = [];
  // The page's most distinctive sections first: those whose words the rest of the book uses least.
  const ranked = page.sections
    .map((section, order) => ({ section, order, score: distinctiveness(section.text, stats) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  for (const { section } of ranked) {
    const subject = headingSubject(section.headings, stats);
    const chunk = section.chunkId === undefined ? {} : { chunkId: section.chunkId };
    if (subject !== null && !seen.has(normalise(subject.text))) {
      seen.add(normalise(subject.text));
      candidates.push({
        text: `What about ${subject.text} in ${title}?`,
        ...chunk,
        from: `the heading "${subject.text}"`,
        alsoRelevant: (stats.headingPages.get(subject.leaf) ?? []).filter((url) => url !== page.url),
      });
      continue;
    }
    const sentence = sentenceQuestion(section.text, stats);
    if (sentence === null || seen.has(normalise(sentence))) continue;
    seen.add(normalise(sentence));
    fromSentences.push({ text: sentence, ...chunk, from: 'a sentence of the section', alsoRelevant: [] });
  }
  // The title, the most distinctive heading, then a question from the body text, then the rest.
  const [titleOrHeading, ...moreHeadings] = candidates;
  const ordered = [
    ...(titleOrHeading ? [titleOrHeading] : []),
    ...(candidates[0]?.from === 'the page title' ? moreHeadings.slice(0, 1) : []),
    ...fromSentences.slice(0, 1),
    ...(candidates[0]?.from === 'the page title' ? moreHeadings.slice(1) : moreHeadings),
    ...fromSentences.slice(1),
  ];
  return ordered.slice(0, perPage).map((c, i) => ({
    id: uniqueId(`${slug(page.chapterId)}-${i + 1}`.slice(0, 100), ids),
    query_text: c.text.slice(0, 1000),
    category: 'known-item',
    description: `Known item: ${page.url}, from ${c.from}`,
    // A page outside every module (a site page, the book's introduction) expects none rather than a made-up one.
    ...(page.moduleName === '' ? {} : { expected_module: page.moduleName }),
    expected_chapter: page.chapterId,
    relevant: [
      { url: page.url, grade: 2 },
      ...(c.chunkId === undefined ? [] : [{ chunk_id: c.chunkId, grade: 3 }]),
      ...c.alsoRelevant.map((url) => ({ url, grade: 1 })),
    ],
  }));
}

/**
 * What a section's heading lets a reader ask about: its innermost heading, preceded by its parent's when it is short
 * or generic ("GPU (Critical Bottleneck) › Minimum"); nothing when the heading (or the path) is generic or found on
 * two or more pages, since such a question cannot tell its page from the others.
 */
function headingSubject(headings: readonly string[], stats: BookStats): { text: string; leaf: string } | null {
  const cleaned = headings.map(cleanHeading).filter((h) => h !== '');
  const leaf = cleaned.at(-1);
  if (leaf === undefined) return null;
  const shared = (h: string) => (stats.headingPages.get(normalise(h))?.length ?? 0) >= 2;
  const weak = (h: string) => GENERIC_HEADING.test(h) || shared(h) || h.split(/\s+/).length === 1;
  if (!weak(leaf)) return { text: leaf, leaf: normalise(leaf) };
  const alone = !GENERIC_HEADING.test(leaf) && !shared(leaf) ? { text: leaf, leaf: normalise(leaf) } : null;
  const parent = cleaned.at(-2);
  // A one-word heading of its own ("Publishers") is asked alone when nothing above it can say more.
  if (parent === undefined || GENERIC_HEADING.test(parent) || shared(parent)) return alone;
  return { text: `${parent} › ${leaf}`, leaf: normalise(leaf) };
}

/** A heading as a reader says it: list numbering ("1.", "2)", "Step 3:"), markup and emphasis left out. */
function cleanHeading(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .replace(/^\s*(?:\d+(?:\.\d+)*[.)]?|[a-z][.)]|\(\d+\)|step\s+\d+\s*[:.-])\s+(?=\S)/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How much of a text the rest of the book does not say: the mean rarity of its terms across pages. */
function distinctiveness(text: string, stats: BookStats): number {
  const terms = [...new Set(termsOf(text))];
  if (terms.length === 0) return 0;
  const rarity = terms.map((t) => Math.log((stats.pages + 1) / (stats.termPages.get(t) ?? 1)));
  return rarity.reduce((a, b) => a + b, 0) / Math.sqrt(terms.length);
}

function termsOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}-]{3,}/gu) ?? []).filter((t) => !STOPWORDS.has(t));
}

function uniqueId(id: string, ids: Set<string>): string {
  let unique = id;
  for (let n = 2; ids.has(unique); n++) unique = `${id}-${n}`;
  ids.add(unique);
  return unique;
}

/**
 * "Where is it explained that <sentence>?", from prose only: each paragraph and each list item on its own (code,
 * tables, headings, markup and link definitions left out), and only whole sentences, ended by ".", "!" or "?" where
 * the author ended them. A line that ends on ":" (a label before a list or a code block), a list item with no full
 * stop or a bold label before a table-like "|" is not a sentence, and text is never joined across two blocks (a list
 * flattened into "Week 3 Lesson 1: ... Week 4 Lesson 1:" is not asked). Of the sentences of four words or more, the
 * one the rest of the book says least, and not one that leans on the sentence before it ("It is rarely worth it").
 */
function sentenceQuestion(markdown: string, stats: BookStats): string | null {
  const sentences = proseUnits(markdown)
    .flatMap((unit) => unit.split(/(?<=[.!?])\s+/))
    .filter((s) => /[.!?]$/.test(s) && !/[|]/.test(s))
    .map((s) => s.replace(/\s*[.!?]+$/, '').trim())
    // A sentence that ends in code ("... will look like this: `new soundPlayer.default()`") says it in the code,
    // which a question cannot carry.
    .filter((s) => !s.endsWith(CODE_CLOSE))
    .filter((s) => s.split(/\s+/).filter((w) => w !== '').length >= 4 && !DEICTIC_START.test(s) && balanced(s));
  const best = sentences
    .map((sentence, order) => ({ sentence, order, score: distinctiveness(sentence, stats) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)[0];
  if (best === undefined) return null;
  const asked = shortened(best.sentence).replaceAll(CODE_OPEN, '').replaceAll(CODE_CLOSE, '');
  return `Where is it explained that ${lowerFirst(asked, stats)}?`;
}

/** The paragraphs and list items of a section's markdown, each as one line of plain text. */
function proseUnits(markdown: string): string[] {
  const units: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const text = current
      .join(' ')
      .replace(/`([^`]*)`/g, `${CODE_OPEN}$1${CODE_CLOSE}`)
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    if (text !== '') units.push(text);
    current = [];
  };
  // The lines inside a code fence are code too, not only the fence lines themselves.
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      flush();
      continue;
    }
    if (fenced || line.trim() === '' || /^\s*(#|\||<|>|!\[|import\s|\[[^\]]+\]:\s)/.test(line)) {
      flush();
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      current.push(item[1] ?? '');
      continue;
    }
    current.push(line.trim());
  }
  flush();
  return units;
}

/** Brackets, parentheses and inline code closed where they open: a sentence cut inside one is not asked. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === CODE_OPEN) depth += 1;
    else if (ch === ')' || ch === ']' || ch === CODE_CLOSE) depth -= 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * At most MAX_SENTENCE_WORDS words; a cut inside brackets or inline code goes back to before them, a cut after a
 * comma or colon before it, and a cut right after code ("like this: `new` ...") before that code too.
 */
function shortened(sentence: string): string {
  const words = sentence.split(/\s+/).filter((w) => w !== '');
  if (words.length <= MAX_SENTENCE_WORDS) return words.join(' ');
  const kept = words.slice(0, MAX_SENTENCE_WORDS);
  while (kept.length > 1 && (!balanced(kept.join(' ')) || (kept.at(-1) ?? '').includes(CODE_CLOSE))) kept.pop();
  // A cut on a word that leads to what was cut ("... make sure its API is the same as the") asks nothing: back to
  // the last word that ends a thought.
  while (kept.length > 1 && LEADS_ON.has((kept.at(-1) ?? '').toLowerCase().replace(/[,;:]+$/, ''))) kept.pop();
  // A cut after "robots," or "this:" would end the question on the comma.
  return kept.join(' ').replace(/[,;:]+$/, '');
}

/**
 * The first word in lower case when it is a common word capitalised only to open the sentence ("Nodes and topics"
 * becomes "nodes and topics"). Kept: acronyms, words with inner capitals and labels ("ROS 2", "JavaScript", "Week 3
 * Lesson 1"), and names, words the book writes capitalised inside sentences and never in lower case ("Gazebo
 * simulates ...").
 */
function lowerFirst(text: string, stats: BookStats): string {
  const first = /^\p{L}+/u.exec(text)?.[0] ?? '';
  const lower = first.toLowerCase();
  const name = stats.namedWords.has(lower) && !stats.lowerWords.has(lower);
  // Only a word in title case as a whole: inner capitals ("JavaScript", "McKinsey") make a name.
  return !name && /^[A-Z][a-z]+(?![\p{L}\p{N}])(?!\s+\d)/u.test(text)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
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
