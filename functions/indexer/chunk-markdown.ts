/**
 * Pure chunking of one markdown page (frontmatter already stripped) into retrieval chunks, one or more per heading
 * section, each with its heading path, its text, its token count and its 0-based position in the page.
 *
 * `token_count` counts word-and-symbol tokens (`countTokens`): each run of letters, digits or underscores is one
 * token, and so is each other non-space character (`ros2_control:` is 2). That is not a word count: on the sample
 * book it is 1.37 times the word count, and more on pages heavy with code or markup (2.2 times on one such book).
 * It is close to what a BPE tokenizer counts: cl100k_base counted 0.97 to 1.16 times as many tokens per page of the
 * sample book (1.06 over the book). Cohere's own tokenizer is not available offline, so the chunk limits below are
 * set in this unit with that margin: 440 of these tokens stay under the 512 BPE tokens Cohere's v3 embedding
 * models read before they truncate.
 */

/** One retrieval chunk of a page, in the seeds' payload vocabulary. */
export interface MarkdownChunk {
  /** Position in the page, from 0. */
  chunkIndex: number;
  /** The page title, then each enclosing section heading, outermost first. */
  headingHierarchy: string[];
  chunkText: string;
  tokenCount: number;
}

/** How big chunks get. A section up to `maxTokens` stays whole; a longer one is split into pieces near `targetTokens`. */
export interface ChunkSizes {
  targetTokens: number;
  maxTokens: number;
}

/**
 * About 300 word-and-symbol tokens per piece and never more than 440: at the widest BPE-to-count ratio measured
 * (1.16, see above) that is 510 BPE tokens, within the 512 Cohere's v3 embedding models read.
 */
export const DEFAULT_CHUNK_SIZES: ChunkSizes = { targetTokens: 300, maxTokens: 440 };

const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
// A trailing piece smaller than this share of the target is folded into the piece before it when that still fits.
const SMALL_TAIL_SHARE = 0.25;

/** Counts word-and-symbol tokens, the unit of `token_count` and of the chunk limits (see the file's doc comment). */
export function countTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Splits a page into chunks by headings, splitting long sections at paragraph boundaries. */
export function chunkMarkdown(markdown: string, options: { title: string; sizes?: ChunkSizes }): MarkdownChunk[] {
  const sizes = options.sizes ?? DEFAULT_CHUNK_SIZES;
  if (!(sizes.targetTokens > 0 && sizes.maxTokens >= sizes.targetTokens)) {
    throw new RangeError(
      `chunk sizes: need 0 < targetTokens <= maxTokens, got ${sizes.targetTokens} and ${sizes.maxTokens}`,
    );
  }
  const chunks: MarkdownChunk[] = [];
  for (const section of splitSections(markdown, options.title)) {
    for (const text of splitSection(section.text, sizes)) {
      chunks.push({
        chunkIndex: chunks.length,
        headingHierarchy: section.hierarchy,
        chunkText: text,
        tokenCount: countTokens(text),
      });
    }
  }
  return chunks;
}

interface Section {
  hierarchy: string[];
  text: string;
}

/** Cuts the page at headings outside code fences; a section with nothing but its heading is dropped. */
function splitSections(markdown: string, title: string): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let lines: string[] = [];
  let bodyLines = 0;
  let fence: string | undefined;
  let seenContent = false;

  const flush = () => {
    const text = trimBlankLines(lines).join('\n');
    if (bodyLines > 0 && text !== '') sections.push({ hierarchy: [title, ...stack.map((h) => h.text)], text });
    lines = [];
    bodyLines = 0;
  };

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence !== undefined && closesFence(line, fence)) {
      fence = undefined;
      lines.push(line);
      bodyLines += 1;
      continue;
    }
    if (fence === undefined) fence = line.match(FENCE)?.[1];
    const heading = fence === undefined ? line.match(HEADING) : null;
    if (heading?.[1] !== undefined && heading[2] !== undefined) {
      const level = heading[1].length;
      // The page's own `# Title` before any content is the title, already first in every hierarchy.
      if (level === 1 && !seenContent && stack.length === 0) continue;
      flush();
      while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= level) stack.pop();
      stack.push({ level, text: cleanHeading(heading[2]) });
      lines.push(line);
      continue;
    }
    if (isSkippable(line, fence)) continue;
    // Skipped lines leave blank lines behind; one blank line is enough between blocks.
    if (fence === undefined && line.trim() === '' && lines.at(-1)?.trim() === '') continue;
    if (line.trim() !== '') {
      seenContent = true;
      bodyLines += 1;
    }
    lines.push(line);
  }
  flush();
  return sections;
}

/** A closing fence repeats the opening character at least as many times, with nothing after it. */
function closesFence(line: string, fence: string): boolean {
  const mark = line.trim();
  return mark.length >= fence.length && mark === (fence[0] ?? '`').repeat(mark.length);
}

// MDX import lines and HTML comments (Docusaurus's `<!-- truncate -->`) are not prose.
function isSkippable(line: string, fence: string | undefined): boolean {
  if (fence !== undefined) return false;
  return /^import\s.+\sfrom\s+['"].+['"];?\s*$/.test(line) || /^\s*<!--.*-->\s*$/.test(line);
}

/** Heading text without inline markup or a Docusaurus `{#custom-id}`. */
function cleanHeading(raw: string): string {
  return raw
    .replace(/\s*\{#[^}]*\}\s*$/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .trim();
}

/** A section that fits in `maxTokens` is one chunk; a longer one is packed from paragraphs to about `targetTokens`. */
function splitSection(text: string, sizes: ChunkSizes): string[] {
  if (countTokens(text) <= sizes.maxTokens) return [text];
  const pieces = splitBlocks(text).flatMap((block) => splitOversized(block, sizes));
  const packed = pack(pieces, '\n\n', sizes.targetTokens);
  return foldSmallTail(packed, sizes);
}

/** Paragraphs, list runs and whole code blocks: the units split at blank lines, never inside a fence. */
function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    if (fence === undefined) fence = line.match(FENCE)?.[1];
    else if (closesFence(line, fence)) fence = undefined;
    if (line.trim() === '' && fence === undefined) {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/** A block over `maxTokens` is cut at lines, then at sentences, then between tokens, and repacked to the target. */
function splitOversized(block: string, sizes: ChunkSizes, level = 0): string[] {
  if (countTokens(block) <= sizes.maxTokens) return [block];
  if (level >= 2) return cutAtTokens(block, sizes.targetTokens);
  const [parts, joiner] = level === 0 ? [block.split('\n'), '\n'] : [block.split(/(?<=[.!?])\s+/), ' '];
  if (parts.length < 2) return splitOversized(block, sizes, level + 1);
  const pieces = parts.flatMap((part) => splitOversized(part, sizes, level + 1));
  return pack(pieces, joiner, sizes.targetTokens);
}

/** Slices text into runs of at most `limit` tokens, cutting only between tokens so no character is lost or doubled. */
function cutAtTokens(text: string, limit: number): string[] {
  const starts = [...text.matchAll(TOKEN)].map((m) => m.index);
  const pieces: string[] = [];
  for (let i = 0; i < starts.length; i += limit) {
    const from = i === 0 ? 0 : (starts[i] ?? text.length);
    const to = starts[i + limit] ?? text.length;
    pieces.push(text.slice(from, to).trim());
  }
  return pieces;
}

/** Greedy packing: pieces are joined while the total stays within `limit`; a piece over the limit stands alone. */
function pack(pieces: string[], joiner: string, limit: number): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const piece of pieces) {
    const size = countTokens(piece);
    if (current.length > 0 && tokens + size > limit) {
      out.push(current.join(joiner));
      current = [];
      tokens = 0;
    }
    current.push(piece);
    tokens += size;
  }
  if (current.length > 0) out.push(current.join(joiner));
  return out;
}

function foldSmallTail(chunks: string[], sizes: ChunkSizes): string[] {
  const last = chunks.at(-1);
  const previous = chunks.at(-2);
  if (last === undefined || previous === undefined) return chunks;
  const lastTokens = countTokens(last);
  if (lastTokens >= sizes.targetTokens * SMALL_TAIL_SHARE || countTokens(previous) + lastTokens > sizes.maxTokens)
    return chunks;
  return [...chunks.slice(0, -2), `${previous}\n\n${last}`];
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === '') start += 1;
  while (end > start && lines[end - 1]?.trim() === '') end -= 1;
  return lines.slice(start, end);
}
