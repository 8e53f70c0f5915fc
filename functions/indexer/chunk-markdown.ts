/**
 * Pure chunking of one markdown page (frontmatter already stripped) into retrieval chunks, each with its heading path,
 * its text, its token count, its 0-based position in the page and the heading sections it holds. Small sections are
 * merged with their neighbours under the same parent (issue 23 §5: one chunk per section left most chunks of real
 * books under 50 tokens); long ones are split.
 *
 * `token_count` counts word-and-symbol tokens (`countTokens`): each run of letters, digits or underscores is one
 * token, and so is each other non-space character (`ros2_control:` is 2). That is not a word count: on the sample
 * book it is 1.37 times the word count, and more on pages heavy with code or markup (2.2 times on one such book).
 * It is close to what a BPE tokenizer counts: cl100k_base counted 0.97 to 1.16 times as many tokens per page of the
 * sample book (1.06 over the book). Cohere's own tokenizer is not available offline, so the chunk limits below are
 * set in this unit with that margin: 440 of these tokens stay under the 512 BPE tokens Cohere's v3 embedding
 * models read before they truncate.
 */
import { headingText } from '../core/book/heading-text.ts';
import { contextualHeader } from '../core/book/payload.ts';
import { mdxToText } from './mdx-text.ts';

/** One retrieval chunk of a page, in the seeds' payload vocabulary. */
export interface MarkdownChunk {
  /** Position in the page, from 0. */
  chunkIndex: number;
  /**
   * The page title, then each enclosing section heading, outermost first; for sections merged into one chunk, the
   * headings they share (their parent's path).
   */
  headingHierarchy: string[];
  chunkText: string;
  tokenCount: number;
  /**
   * The contextual header embedded above the text: the heading path, and for sections merged under it the names of
   * the sections it holds ("Field Workstation › GPU · CPU Requirements · RAM Requirements").
   */
  embedHeader: string;
  /** The heading sections (or the piece of one) the chunk was made of, in page order, each with its own path. */
  parts: { headingHierarchy: string[]; text: string }[];
}

/**
 * How big chunks get, counted on what is embedded (the contextual header, a blank line, the chunk's text). Adjacent
 * small sections under one parent are merged while they stay within `targetTokens`; a section up to `maxTokens`
 * stays whole; a longer one is split into pieces near `targetTokens`.
 */
export interface ChunkSizes {
  targetTokens: number;
  maxTokens: number;
}

/**
 * About 300 word-and-symbol tokens per chunk and never more than 440 with the header: at the widest BPE-to-count
 * ratio measured (1.16, see above) that is 510 BPE tokens, within the 512 Cohere's v3 embedding models read.
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

/**
 * Splits a page into chunks by headings (MDX markup reduced to its text first), merges adjacent small sections under
 * the same parent up to the target, and splits long sections at paragraph boundaries. Every limit counts the
 * contextual header embedded with the chunk (payload.ts contextualHeader).
 */
export function chunkMarkdown(
  markdown: string,
  options: {
    title: string;
    sizes?: ChunkSizes;
    /** false: one chunk per heading section (or piece of one), as before merging; for fixtures that cite chunks by position. */
    mergeSections?: boolean;
  },
): MarkdownChunk[] {
  const sizes = options.sizes ?? DEFAULT_CHUNK_SIZES;
  if (!(sizes.targetTokens > 0 && sizes.maxTokens >= sizes.targetTokens)) {
    throw new RangeError(
      `chunk sizes: need 0 < targetTokens <= maxTokens, got ${sizes.targetTokens} and ${sizes.maxTokens}`,
    );
  }
  const source = markdown.replace(/\r\n?/g, '\n');
  const sections = splitSections(mdxToText(source), options.title);
  // A page made of components alone (a category page's `<DocCardList />`) shows a reader no text of its own, but it
  // is published: its title stands as its one chunk, so the index holds the page and coverage does not miss it.
  if (sections.length === 0 && splitSections(source, options.title).length > 0)
    sections.push({ hierarchy: [options.title], text: options.title, lead: [] });
  const pieces =
    options.mergeSections === false
      ? sections.flatMap((section) => sectionPieces(section, sizes))
      : packLevel(sections, 1, sizes);
  return pieces.map((piece, chunkIndex) => ({
    chunkIndex,
    headingHierarchy: piece.hierarchy,
    chunkText: piece.text,
    tokenCount: countTokens(piece.text),
    embedHeader: headerOf(piece),
    parts: piece.parts.map(({ headingHierarchy, text }) => ({ headingHierarchy, text })),
  }));
}

/** A chunk in the making: its path, its text and the sections it holds; closed when it may not grow any more. */
interface Piece {
  hierarchy: string[];
  text: string;
  parts: Part[];
  mergeable: boolean;
}

/**
 * The chunks of sections that all lie under one heading path `depth` long. The sections directly under it each stand
 * alone; each run of sections under the same child heading becomes one piece when it fits the target with its
 * header, else is packed one level down (and its pieces are closed here). Then adjacent pieces that fit the target
 * together are merged, so small sections join their siblings but never a section under another parent.
 */
function packLevel(sections: Section[], depth: number, sizes: ChunkSizes): Piece[] {
  const items: Piece[] = [];
  let i = 0;
  while (i < sections.length) {
    const first = sections[i] as Section;
    let j = i + 1;
    // A section with a heading at this depth starts a run of the sections under that heading (the key is a
    // heading's text, so a section with no heading this deep never matches it).
    if (first.hierarchy.length > depth) {
      const key = first.hierarchy[depth];
      while (j < sections.length && sections[j]?.hierarchy[depth] === key) j += 1;
    }
    const run = sections.slice(i, j);
    if (run.length === 1) items.push(...sectionPieces(first, sizes));
    else {
      const whole = joined(run.map(partOf));
      if (embeddedTokens(whole) <= sizes.targetTokens) items.push({ ...whole, mergeable: true });
      else items.push(...packLevel(run, depth + 1, sizes).map((piece) => ({ ...piece, mergeable: false })));
    }
    i = j;
  }
  return mergeAdjacent(items, sizes.targetTokens);
}

/** One section as a piece, or as closed pieces when it is over the maximum with its header. */
function sectionPieces(section: Section, sizes: ChunkSizes): Piece[] {
  const header = headerTokens(section.hierarchy);
  // What is left for the text once the header is counted; at least one token, however long the header.
  const maxTokens = Math.max(1, sizes.maxTokens - header);
  const targetTokens = Math.max(1, Math.min(maxTokens, sizes.targetTokens - header));
  const texts = splitSection(section.text, { targetTokens, maxTokens });
  return texts.map((text) => ({
    hierarchy: section.hierarchy,
    text,
    parts: [{ headingHierarchy: section.hierarchy, text, lead: section.lead }],
    mergeable: texts.length === 1,
  }));
}

/** Greedy: a mergeable piece joins the one before it while both are mergeable and together fit the target. */
function mergeAdjacent(items: Piece[], targetTokens: number): Piece[] {
  const out: Piece[] = [];
  for (const item of items) {
    const previous = out.at(-1);
    if (previous?.mergeable && item.mergeable) {
      const merged = joined([...previous.parts, ...item.parts]);
      if (embeddedTokens(merged) <= targetTokens) {
        out[out.length - 1] = { ...merged, mergeable: true };
        continue;
      }
    }
    out.push(item);
  }
  return out;
}

/** A section as part of a chunk; the lead travels with it until the chunk is joined. */
interface Part {
  headingHierarchy: string[];
  text: string;
  lead?: Section['lead'];
}

function partOf(section: Section): Part {
  return { headingHierarchy: section.hierarchy, text: section.text, lead: section.lead };
}

/**
 * Parts as one chunk: their texts in order, under the headings they share; a part's lead headings below those are
 * written before its text, so "## GPU" still stands above "### Minimum" when the header says only the page title.
 */
function joined(parts: Part[]): Omit<Piece, 'mergeable'> {
  const hierarchy = commonPrefix(parts.map((p) => p.headingHierarchy));
  const texts = parts.map((p) =>
    [...(p.lead ?? []).filter((l) => l.at >= hierarchy.length).map((l) => l.line), p.text].join('\n\n'),
  );
  return { hierarchy, text: texts.join('\n\n'), parts };
}

function commonPrefix(paths: string[][]): string[] {
  const [first = [], ...rest] = paths;
  let length = first.length;
  for (const path of rest) {
    let same = 0;
    while (same < Math.min(length, path.length) && path[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, length);
}

function headerTokens(hierarchy: readonly string[]): number {
  return countTokens(contextualHeader(hierarchy));
}

/**
 * A chunk's contextual header: its heading path, then the sections merged under it, named by their heading one level
 * down ("Introduction › Course Overview · Prerequisites"): the path alone would say only the page of a merged chunk.
 */
function headerOf(piece: { hierarchy: string[]; parts: Part[] }): string {
  const depth = piece.hierarchy.length;
  const below = [...new Set(piece.parts.flatMap((p) => p.headingHierarchy.slice(depth, depth + 1)))];
  const path = contextualHeader(piece.hierarchy);
  return below.length === 0 ? path : `${path} › ${below.join(' · ')}`;
}

/** Tokens of what is embedded: the header and the text (a blank line between them adds none). */
function embeddedTokens(piece: { hierarchy: string[]; text: string; parts: Part[] }): number {
  return countTokens(headerOf(piece)) + countTokens(piece.text);
}

interface Section {
  hierarchy: string[];
  text: string;
  /**
   * The heading lines of enclosing sections that had no text of their own (`## GPU` right before `### Minimum`), with
   * their place in the hierarchy: a merged chunk whose header stops above them writes them back into its text.
   */
  lead: { at: number; heading: string; line: string }[];
}

/**
 * Cuts the page at headings outside code fences; a section with nothing but its heading is dropped, its heading line
 * kept as the lead of the next section under it.
 */
function splitSections(markdown: string, title: string): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let lines: string[] = [];
  let bodyLines = 0;
  let fence: string | undefined;
  let seenContent = false;
  let lead: Section['lead'] = [];
  let inStatement = false;

  const flush = () => {
    const text = trimBlankLines(lines).join('\n');
    const hierarchy = [title, ...stack.map((h) => h.text)];
    // Only the leads still above this section: a heading that had no text, then a sibling of it, leaves none.
    const above = lead.filter((l) => l.at < hierarchy.length && hierarchy[l.at] === l.heading);
    if (bodyLines > 0 && text !== '') {
      sections.push({ hierarchy, text, lead: above });
      lead = [];
    } else if (stack.length > 0 && lines[0] !== undefined) {
      const at = hierarchy.length - 1;
      lead = [...above.filter((l) => l.at < at), { at, heading: hierarchy[at] ?? '', line: lines[0] }];
    }
    lines = [];
    bodyLines = 0;
  };

  for (const line of markdown.split('\n')) {
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
      stack.push({ level, text: headingText(heading[2]) });
      lines.push(line);
      continue;
    }
    // An MDX import or export statement runs to the next blank line, as MDX reads it (micromark-extension-mdxjs-esm:
    // ESM must be followed by a blank line): `export const toc = [` over several lines, `import {` one name a line,
    // all code, none of it prose. A heading ends it too, so a page that forgot the blank line loses no section.
    if (inStatement && (line.trim() === '' || HEADING.test(line))) inStatement = false;
    if (inStatement) continue;
    if (startsStatement(line, fence)) {
      inStatement = true;
      continue;
    }
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

// MDX import and export statements are not prose (comments and tags are gone already: mdx-text.ts). A statement
// starts at the line's first column, as MDX requires; an import names what it imports (a name, `{`, `*`) or a
// module in quotes, so prose that begins with the word "import" is left alone.
function startsStatement(line: string, fence: string | undefined): boolean {
  if (fence !== undefined) return false;
  return (
    /^import\s+([\w$]+\s*(,|\s+from\s+['"])|[{*]|['"])/.test(line) ||
    /^export\s+((const|let|var|function|async|class|default)\b|[{*])/.test(line)
  );
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
