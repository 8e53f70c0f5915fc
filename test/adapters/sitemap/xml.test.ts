import { describe, expect, it } from 'vitest';
import { SitemapFormatError } from '../../../functions/adapters/sitemap/errors.ts';
import { SitemapXmlReader } from '../../../functions/adapters/sitemap/xml.ts';

const OPTIONS = { maxEntries: 100, maxPieceChars: 10_000 };

/** Feeds `text` in pieces of `size` characters, as a network would. */
function read(text: string, size = 7, options = OPTIONS) {
  const reader = new SitemapXmlReader(options);
  for (let i = 0; i < text.length && !reader.full; i += size) reader.push(text.slice(i, i + size));
  return reader.end({ cut: false });
}

describe('SitemapXmlReader', () => {
  it('reads entries whatever the size of the pieces the text arrives in', () => {
    const text =
      '<?xml version="1.0"?>\n<!-- made by hand -->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      '<url><loc>https://b/a?x=1&amp;y=2</loc><lastmod>2026-02-01</lastmod></url>\n<url><loc> https://b/b </loc></url></urlset>';

    for (const size of [1, 2, 7, 64, text.length]) {
      expect(read(text, size)).toEqual({
        kind: 'urlset',
        entries: [{ loc: 'https://b/a?x=1&y=2', lastmod: '2026-02-01' }, { loc: 'https://b/b' }],
        full: false,
      });
    }
  });

  it('does not split an entry at a </url> inside CDATA or a comment', () => {
    const text =
      '<urlset><url><loc><![CDATA[https://b/</url>]]></loc></url><!-- </url> --><url><loc>https://b/c</loc></url></urlset>';

    expect(read(text).entries).toEqual([{ loc: 'https://b/</url>' }, { loc: 'https://b/c' }]);
  });

  it('reads the children of a sitemap index with namespace prefixes', () => {
    const text =
      '<sm:sitemapindex xmlns:sm="x"><sm:sitemap><sm:loc>https://b/s.xml</sm:loc></sm:sitemap></sm:sitemapindex>';

    expect(read(text)).toEqual({ kind: 'sitemapindex', entries: [{ loc: 'https://b/s.xml' }], full: false });
  });

  it('reads a prefixed urlset, one entry or several per piece, with its lastmod', () => {
    const text =
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://b/a</sm:loc>' +
      '<sm:lastmod>2026-02-01</sm:lastmod></sm:url><sm:url><sm:loc>https://b/b</sm:loc><sm:loc>https://b/c</sm:loc>' +
      '</sm:url></sm:urlset>';

    for (const size of [1, 64, text.length]) {
      expect(read(text, size)).toEqual({
        kind: 'urlset',
        entries: [{ loc: 'https://b/a', lastmod: '2026-02-01' }, { loc: 'https://b/b' }],
        full: false,
      });
    }
  });

  it('names the line and column of a malformed entry in the whole document', () => {
    const text = '<urlset>\n<url><loc>https://b/a</loc></url>\n  <url><loc>https://b/b</lox></url>\n</urlset>';

    expect(() => read(text)).toThrow(/is not well-formed XML: .*\(line 3, column \d+\)/);
  });

  it('refuses a document that ends before its root closes', () => {
    expect(() => read('<urlset><url><loc>https://b/a</loc></url>')).toThrow(
      'ends before its closing </urlset> tag (truncated?)',
    );
  });

  it('refuses content after the root element', () => {
    expect(() => read('<urlset><url><loc>https://b/a</loc></url></urlset><urlset>')).toThrow(SitemapFormatError);
  });

  it('refuses a DOCTYPE declared inside the document', () => {
    expect(() =>
      read('<urlset><url><!DOCTYPE x [<!ENTITY a "aaaa">]><loc>https://b/&a;</loc></url></urlset>', 1000),
    ).toThrow(/declares a DOCTYPE with entities/);
  });

  it('skips a DOCTYPE without an internal subset', () => {
    expect(read('<!DOCTYPE urlset><urlset><url><loc>https://b/a</loc></url></urlset>').entries).toHaveLength(1);
  });

  it('says so when the document is empty', () => {
    expect(() => read('  \n ')).toThrow('is empty: expected a <urlset> or <sitemapindex> document');
  });

  it('refuses an element longer than the piece cap rather than holding it', () => {
    const text = `<urlset><url><loc>https://b/${'a'.repeat(20_000)}</loc></url></urlset>`;

    expect(() => read(text, 1000)).toThrow(/has an element of more than 10000 characters at line 1, column 9/);
  });

  it('keeps an element exactly at the piece cap', () => {
    const entry = '<url><loc>https://b/</loc></url>';
    const loc = `https://b/${'a'.repeat(10_000 - entry.length)}`;

    expect(read(`<urlset><url><loc>${loc}</loc></url></urlset>`, 10_000).entries).toEqual([{ loc }]);
  });

  it('stops at the entry cap and marks the file full', () => {
    const text = `<urlset>${'<url><loc>https://b/a</loc></url>'.repeat(5)}</urlset>`;

    expect(read(text, 7, { ...OPTIONS, maxEntries: 4 })).toMatchObject({ full: true, entries: { length: 4 } });
  });

  it('accepts a cut document when the caller says it was cut', () => {
    const reader = new SitemapXmlReader(OPTIONS);
    reader.push('<urlset><url><loc>https://b/a</loc></url><url><loc>htt');

    expect(reader.end({ cut: true }).entries).toEqual([{ loc: 'https://b/a' }]);
  });
});
