/**
 * `npm run bench:support`: where the support check's word threshold (DEFAULT_MIN_WORD_SUPPORT) comes from. Every
 * sentence the Cohere stand-in could answer with (four words or more) of every chunk of the sample book is checked
 * three ways: against its own chunk (an honest citation), against every other chunk (a claim cited to the wrong
 * chunk) and, paraphrased as the stand-in paraphrases, against its own chunk (a faithful rewording). The threshold
 * must sit above the second and below the third. Figures, not assertions.
 */
import path from 'node:path';
import { extractClaimTerms } from '../functions/core/grounding/claim-terms.ts';
import { assessClaim, collectEvidence, DEFAULT_MIN_WORD_SUPPORT } from '../functions/core/grounding/support.ts';
import { chunkMarkdown } from '../functions/indexer/chunk-markdown.ts';
import { readDocs } from '../functions/indexer/read-docs.ts';
import { SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR } from '../sandbox/book-server.ts';
import { paraphrase } from '../sandbox/cohere/rewrite-claims.ts';
import { tokenizeWords } from '../sandbox/cohere/tokenizer.ts';

const pages = await readDocs({ docsDir: path.join(SAMPLE_BOOK_DIR, 'docs'), baseUrl: SAMPLE_BOOK_BASE_URL });
const chunks = pages.flatMap((page) => chunkMarkdown(page.body, { title: page.title }).map((c) => c.chunkText));
const evidence = chunks.map((text) => collectEvidence([text]));
const sentencesOf = (text: string) =>
  text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.replace(/^\s*(?:#+|[-*>]|\d+\.)\s+/, '').trim())
    .filter((s) => tokenizeWords(s).length >= 4 && extractClaimTerms(s).words.length > 0);

interface Checked {
  support: number;
  /** Numbers and names all found: the word threshold alone decides. */
  factsFound: boolean;
}
const own: number[] = [];
const paraphrased: Checked[] = [];
const other: Checked[] = [];
chunks.forEach((chunk, i) => {
  const mine = evidence[i];
  if (mine === undefined) return;
  for (const sentence of sentencesOf(chunk)) {
    const check = (text: string, against: typeof mine) =>
      assessClaim({ claim: text, evidence: against, minWordSupport: DEFAULT_MIN_WORD_SUPPORT });
    own.push(check(sentence, mine).word_support);
    const checked = (verdict: ReturnType<typeof check>): Checked => ({
      support: verdict.word_support,
      factsFound: verdict.missing_numbers.length === 0 && verdict.missing_names.length === 0,
    });
    paraphrased.push(checked(check(paraphrase(sentence), mine)));
    evidence.forEach((theirs, j) => {
      if (j !== i && !chunks[j]?.includes(sentence)) other.push(checked(check(sentence, theirs)));
    });
  }
});

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const row = (name: string, values: number[]) =>
  console.log(
    `${name.padEnd(34)} n=${String(values.length).padStart(5)}  min ${quantile(values, 0).toFixed(2)}  ` +
      `median ${quantile(values, 0.5).toFixed(2)}  p99 ${quantile(values, 0.99).toFixed(2)}  max ${Math.max(...values).toFixed(2)}`,
  );
console.log(`Sample book: ${pages.length} pages, ${chunks.length} chunks; word support (share of content words found)`);
row('sentence vs its own chunk', own);
row(
  'paraphrase vs its own chunk',
  paraphrased.map((c) => c.support),
);
row(
  'sentence vs another chunk',
  other.map((c) => c.support),
);
console.log('\nthreshold  paraphrases failing  cross-chunk citations passing (numbers and names found too)');
for (const t of [0.25, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8]) {
  const failing = paraphrased.filter((c) => !(c.factsFound && c.support >= t)).length;
  const passing = other.filter((c) => c.factsFound && c.support >= t).length;
  const mark = t === DEFAULT_MIN_WORD_SUPPORT ? '  <- DEFAULT_MIN_WORD_SUPPORT' : '';
  console.log(
    `${t.toFixed(2).padStart(9)}  ${`${failing} of ${paraphrased.length}`.padStart(19)}  ${`${passing} of ${other.length}`.padStart(12)}${mark}`,
  );
}
