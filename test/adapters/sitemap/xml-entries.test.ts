/**
 * The sitemap reader reads each validated piece with its own small scanner, not with fast-xml-parser's XMLParser
 * (docs/PERFORMANCE.md, the engine's cold CPU). These tests hold its entries equal to what the parser, configured
 * as the reader used it, gave for the same text: on generated sitemaps full of what a hand-made or hostile file
 * holds (namespace prefixes, comments and CDATA inside values, entities, CRLF, nested and repeated fields,
 * processing instructions, attributes with `>` in their values, empty and self-closing fields).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SitemapFormatError } from '../../../functions/adapters/sitemap/errors.ts';
import { SitemapXmlReader } from '../../../functions/adapters/sitemap/xml.ts';

/** The parser exactly as functions/adapters/sitemap/xml.ts configured it before its own scanner (commit 09762f2). */
const KEPT_AS_ARRAYS = new Set([
  'r.url',
  'r.sitemap',
  'r.url.loc',
  'r.url.lastmod',
  'r.sitemap.loc',
  'r.sitemap.lastmod',
]);
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (_name, jPath) => KEPT_AS_ARRAYS.has(String(jPath)),
  processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 1 },
});

/** The entries the parser's tree gave, read as the reader read it then. */
function parserEntries(body: string, kind: 'url' | 'sitemap'): { loc: string; lastmod?: string }[] {
  const root = (parser.parse(`<r>${body}</r>`) as { r?: unknown }).r;
  const items = isRecord(root) ? root[kind] : undefined;
  const entries: { loc: string; lastmod?: string }[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const loc = isRecord(item) ? firstText(item.loc) : undefined;
    if (loc === undefined) continue;
    const lastmod = isRecord(item) ? firstText(item.lastmod) : undefined;
    entries.push(lastmod === undefined ? { loc } : { loc, lastmod });
  }
  return entries;
}

function firstText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const text = typeof first === 'string' ? first.trim() : '';
  return text === '' ? undefined : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = [
  'https://b/a',
  ' https://b/a?x=1&amp;y=2 ',
  '\n  https://b/c\r\n',
  'https://b/&lt;p&gt;',
  '&quot;q&quot;&apos;',
  'https://b/&#38;&#x26;',
  'https://b/a b',
  'a\r\nb\rc',
  '',
  '   ',
  '2026-02-01',
  '2026-11-28T10:00:00+00:00',
  '&amp;lt;',
];

/** One generated sitemap body: top-level entries and other elements, each built from random parts. */
function generateBody(next: () => number, kind: 'url' | 'sitemap'): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const text = () => pick(TEXTS);
  const value = (): string => {
    switch (Math.floor(next() * 9)) {
      case 0:
        return `${text()}<![CDATA[${pick([' x ', '', 'a</url>b', '&amp;', ']]'])}]]>${text()}`;
      case 1:
        return `${text()}<!-- ${pick(['note', '</loc>', ''])} -->${text()}`;
      case 2:
        return `${text()}<?pi x?>${text()}`;
      case 3:
        return `${text()}<b>${text()}</b>`;
      case 4:
        return `<x:y/>${text()}`;
      default:
        return text();
    }
  };
  const field = (name: string): string => {
    const tag = pick([name, `sm:${name}`, `${name} a="1>2"`, `${name}\n`]);
    const close = tag.startsWith('sm:') ? `sm:${name}` : name;
    return next() < 0.1 ? `<${tag}/>` : `<${tag}>${value()}</${close}>`;
  };
  const child = (): string =>
    pick([
      () => field('loc'),
      () => field('loc'),
      () => field('lastmod'),
      () => `<changefreq>${text()}</changefreq>`,
      () => `<image:image><image:loc>${text()}</image:loc></image:image>`,
      () => `<!-- ${text().replace(/-/g, '')} -->`,
      () => `<deep><loc>${text()}</loc><lastmod>x</lastmod></deep>`,
      () => pick([' ', '\n', 'stray text', '<![CDATA[raw]]>', '<?pi?>']),
    ])();
  const entry = (): string => {
    const prefix = pick(['', '', 'sm:']);
    const children = Array.from({ length: Math.floor(next() * 5) }, child).join('');
    const open = pick([`${prefix}${kind}`, `${prefix}${kind} id='a>b'`, `${prefix}${kind} x="<loc>no</loc>"`]);
    return next() < 0.05 ? `<${prefix}${kind}/>` : `<${open}>${children}</${prefix}${kind}>`;
  };
  const top = (): string =>
    pick([
      entry,
      entry,
      entry,
      () => `<!-- </${kind}> -->`,
      () => pick(['\n', ' ', '\r\n']),
      () => `<other><loc>${text()}</loc></other>`,
      () => `<?pi?>`,
    ])();
  const parts = Array.from({ length: 1 + Math.floor(next() * 6) }, top);
  // The reader cuts the text after the last closing entry tag: end with an entry, as every sitemap does.
  return `${parts.join('')}<${kind}><loc>${text() || 'https://b/last'}</loc></${kind}>`;
}

function readerEntries(body: string, kind: 'url' | 'sitemap', size: number) {
  const root = kind === 'url' ? 'urlset' : 'sitemapindex';
  const text = `<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</${root}>`;
  const reader = new SitemapXmlReader({ maxEntries: 10_000, maxPieceChars: 1_000_000 });
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  return reader.end({ cut: false }).entries;
}

describe('SitemapXmlReader reads entries as fast-xml-parser did', () => {
  it('on 2,000 generated sitemap bodies, whole and in pieces', () => {
    const next = random(20);
    let compared = 0;
    let withEntries = 0;
    for (let n = 0; n < 2_000; n++) {
      const kind = n % 4 === 3 ? 'sitemap' : 'url';
      const body = generateBody(next, kind);
      // Only well-formed bodies: the reader refuses the others before reading them (xml.test.ts).
      if (XMLValidator.validate(`<r>${body}</r>`) !== true) continue;
      const expected = parserEntries(body, kind);
      expect(readerEntries(body, kind, 1 << 20), body).toEqual(expected);
      // In pieces the text is cut after each complete entry, so nested entries (<other><url>) would not be cut
      // where the whole-body parse put them: only bodies without them.
      if (!/<other>|<deep>/.test(body)) expect(readerEntries(body, kind, 1 + (n % 37)), body).toEqual(expected);
      compared++;
      if (expected.length > 1) withEntries++;
    }
    // The generator must mostly make well-formed bodies, many with entries before the last, or this compares little.
    expect(compared).toBeGreaterThan(1_900);
    expect(withEntries).toBeGreaterThan(400);
  });

  it('reads a prefixed urlset with lastmod', () => {
    const text =
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://b/a</sm:loc>' +
      '<sm:lastmod>2026-02-01</sm:lastmod></sm:url><sm:url><sm:loc>https://b/b</sm:loc></sm:url></sm:urlset>';
    const reader = new SitemapXmlReader({ maxEntries: 10, maxPieceChars: 10_000 });
    reader.push(text);

    expect(reader.end({ cut: false })).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://b/a', lastmod: '2026-02-01' }, { loc: 'https://b/b' }],
      full: false,
    });
  });

  it('takes the first <loc> of an entry, and none when the first holds an element', () => {
    const body =
      '<url><loc>https://b/1</loc><loc>https://b/2</loc></url>' +
      '<url><loc>https://b/<b>x</b></loc><loc>https://b/3</loc></url>' +
      '<url><loc> a <![CDATA[ b ]]> c </loc><lastmod><!-- x --></lastmod></url>';

    expect(readerEntries(body, 'url', 1 << 20)).toEqual([{ loc: 'https://b/1' }, { loc: 'a b c' }]);
  });

  it('refuses a DTD declaration out of place, naming where', () => {
    expect(() => readerEntries('<url><!ELEMENT loc ANY><loc>https://b/a</loc></url>', 'url', 1 << 20)).toThrow(
      /has a markup declaration outside a DOCTYPE \(in the entry at line 1, column 61\)/,
    );
  });

  it('refuses elements nested more than 100 deep, and reads 100', () => {
    const nested = (depth: number) =>
      `<url><loc>https://b/a</loc>${'<x>'.repeat(depth - 1)}${'</x>'.repeat(depth - 1)}</url>`;

    expect(readerEntries(nested(100), 'url', 1 << 20)).toEqual([{ loc: 'https://b/a' }]);
    expect(() => readerEntries(nested(101), 'url', 1 << 20)).toThrow(SitemapFormatError);
    expect(() => readerEntries(nested(101), 'url', 1 << 20)).toThrow(/nests elements more than 100 deep/);
  });
});
