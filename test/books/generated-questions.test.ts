/**
 * The questions `suite generate --docs` asks of the two real books (test/fixtures/books, docs/REAL-BOOKS.md), read
 * as a reader would (issue 23 §2): a sentence's first word keeps its capital when the book writes it as a name, a
 * sentence is not cut inside or right after inline code, and a cut does not end on a word that leads nowhere.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../functions/core/suite/generate-suite.ts';
import { readBookPagesFromDocs } from '../../functions/indexer/book-pages.ts';

const BOOKS = path.join(import.meta.dirname, '..', 'fixtures', 'books');
const OPENING = 'Where is it explained that ';

/** The book's body-text questions (the sentence asked), and its prose as Markdown, code fences left out. */
async function questionsOf(name: string): Promise<{ sentences: string[]; prose: string }> {
  const dir = path.join(BOOKS, name);
  const book = JSON.parse(readFileSync(path.join(dir, 'book.json'), 'utf8')) as { truth: { base_url: string } };
  const { pages } = await readBookPagesFromDocs({ docsDir: path.join(dir, 'docs'), baseUrl: book.truth.base_url });
  const suite = generateSuite(pages, { perPage: 5 });
  const sentences = (suite.queries as { query_text: string }[])
    .map((q) => q.query_text)
    .filter((t) => t.startsWith(OPENING))
    .map((t) => t.slice(OPENING.length, -1));
  const prose = pages
    .flatMap((p) => p.sections.map((s) => s.text))
    .join('\n')
    .replace(/```[\s\S]*?```/g, ' ');
  return { sentences, prose };
}

describe.each(['robotics-textbook-mit', 'ts-jest-docs'])('the body-text questions of %s', (name) => {
  it('keep the capital of a name that opens a sentence: a word the book capitalises mid-sentence, never lower', async () => {
    const { sentences, prose } = await questionsOf(name);
    expect(sentences.length).toBeGreaterThan(5);
    const words = (text: string) => text.match(/(?<![\p{L}\p{N}_./-])\p{L}+(?![\p{L}\p{N}_/-])/gu) ?? [];
    // Code and emphasis marks out ("**Note:** While ..." opens a sentence after the colon).
    const text = prose.replace(/`[^`]*`/g, ' ').replace(/\*\*|__/g, '');
    const lower = new Set(words(text).filter((w) => /^\p{Ll}/u.test(w)));
    // Capitalised after the first word of a sentence: "in Gazebo", "NVIDIA's Isaac Sim".
    const named = new Set(
      text
        .split(/(?<=[.!?:])\s+|\n/)
        .flatMap((sentence) => words(sentence).slice(1))
        .filter((w) => /^\p{Lu}\p{Ll}+$/u.test(w))
        .map((w) => w.toLowerCase())
        .filter((w) => !lower.has(w)),
    );
    const lowered = sentences.filter((sentence) => named.has(words(sentence)[0] ?? ''));
    expect(lowered).toEqual([]);
    // The sentences that opened with a name lowered before ("gazebo is a 3D ...", "isaac Sim is NVIDIA's ...").
    if (name === 'robotics-textbook-mit')
      expect(sentences.filter((s) => /^(Gazebo is a 3D|Isaac Sim is NVIDIA's)/.test(s))).toHaveLength(2);
  });

  it('are not cut inside or right after inline code, nor end on a word that leads nowhere', async () => {
    const { sentences } = await questionsOf(name);
    expect(sentences.filter((s) => /\b(the|a|an|that|which|as|of|to|and|or|with|for|is|are)$/i.test(s))).toEqual([]);
    // "... will look like this: new" (the code `new soundPlayer.default()` cut after its first word).
    expect(sentences.filter((s) => /:\s*\S+$/.test(s))).toEqual([]);
  });
});
