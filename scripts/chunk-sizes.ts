/**
 * The chunk sizes `ragwatch index` gives a book, measured without any service (issue 23 §5: README's figures measured,
 * not assumed). Per docs folder: pages, chunks, tokens per chunk (min, quartiles, median, max, share under 50 and
 * 100) and the largest embedded text (header and chunk), in `countTokens`'s word-and-symbol tokens.
 * Usage: node scripts/chunk-sizes.ts <docs dir> [<docs dir> ...] [--per-section]
 * `--per-section` measures one chunk per heading section (small sections not merged), as before issue 23.
 */
import { parseArgs } from 'node:util';
import { chunkMarkdown, countTokens } from '../functions/indexer/chunk-markdown.ts';
import { readDocs } from '../functions/indexer/read-docs.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'per-section': { type: 'boolean' } } });
for (const docsDir of positionals) {
  const pages = await readDocs({ docsDir, baseUrl: 'https://book.example.org' });
  const sizes: number[] = [];
  let largest = 0;
  for (const page of pages)
    for (const chunk of chunkMarkdown(page.body, { title: page.title, mergeSections: !values['per-section'] })) {
      sizes.push(chunk.tokenCount);
      largest = Math.max(largest, countTokens(chunk.embedHeader) + chunk.tokenCount);
    }
  sizes.sort((a, b) => a - b);
  const at = (q: number) => sizes[Math.round(q * (sizes.length - 1))] ?? 0;
  const share = (limit: number) =>
    `${((100 * sizes.filter((s) => s < limit).length) / (sizes.length || 1)).toFixed(1)} %`;
  console.log(
    `${docsDir}: ${pages.length} pages, ${sizes.length} chunks; tokens per chunk min ${at(0)}, p25 ${at(0.25)}, ` +
      `median ${at(0.5)}, p75 ${at(0.75)}, max ${at(1)}; under 50 ${share(50)}, under 100 ${share(100)}; ` +
      `largest embedded text (header and chunk) ${largest}`,
  );
}
