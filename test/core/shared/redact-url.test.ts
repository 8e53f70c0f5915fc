import { describe, expect, it } from 'vitest';
import {
  hasUrlCredentials,
  isCredentialParam,
  redactUrl,
  redactUrlsDeep,
  redactUrlsIn,
} from '../../../functions/core/shared/redact-url.ts';

describe('redactUrl', () => {
  it.each([
    ['https://book.example.com/sitemap.xml?token=s3cr3t', 'https://book.example.com/sitemap.xml?token=***'],
    ['https://b.example/s.xml?TOKEN=a&page=2', 'https://b.example/s.xml?TOKEN=***&page=2'],
    ['https://b.example/s.xml?page=2&Key=a', 'https://b.example/s.xml?page=2&Key=***'],
    ['https://b.example/s.xml?sig=a;signature=b', 'https://b.example/s.xml?sig=***;signature=***'],
    ['https://b.example/s.xml?password=p&user=ann', 'https://b.example/s.xml?password=***&user=ann'],
    [
      'https://bucket.s3.amazonaws.com/s.xml?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261127&x-amz-signature=abc123&v=1',
      'https://bucket.s3.amazonaws.com/s.xml?X-Amz-Algorithm=***&X-Amz-Credential=***&x-amz-signature=***&v=1',
    ],
    [
      'https://b.example/s.xml?access_token=a&api_key=b&apikey=c',
      'https://b.example/s.xml?access_token=***&api_key=***&apikey=***',
    ],
    ['https://user:pa@ss@b.example/s.xml', 'https://***@b.example/s.xml'],
    ['https://user@b.example/', 'https://***@b.example/'],
    ['https://b.example/s.xml?to%6Ben=a', 'https://b.example/s.xml?to%6Ben=***'],
    ['https://b.example/s.xml?token=a#frag', 'https://b.example/s.xml?token=***#frag'],
    // An OAuth redirect's token rides in the fragment.
    ['https://b.example/cb#access_token=abc&state=1', 'https://b.example/cb#access_token=***&state=1'],
    ['https://b.example/cb?a=1#token=abc', 'https://b.example/cb?a=1#token=***'],
    ['https://b.example/s.xml?%20token=a', 'https://b.example/s.xml?%20token=***'],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    'https://book.example.com/docs/intro',
    'https://book.example.com/search?q=token&page=2',
    'https://book.example.com/a?keyword=x&tokens=3&monkey=1&signed=yes',
    'https://book.example.com/a?token',
    'https://b.example/path@x',
    'https://b.example/p/http://x@y/z',
    'https://b.example/p?tokens&a=1',
    'https://b.example/docs/intro#token-bucket',
    'not a url',
  ])('leaves %s exactly as written', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('redacts a token written in an HTML attribute (&amp; between parameters)', () => {
    expect(redactUrl('https://b.example/s.xml?a=1&amp;token=s3cr3t')).toBe('https://b.example/s.xml?a=1&amp;token=***');
  });
});

describe('hasUrlCredentials', () => {
  it('is true for a URL carrying a credential and false for one without', () => {
    expect(hasUrlCredentials('https://b.example/s.xml?token=abc')).toBe(true);
    expect(hasUrlCredentials('https://u:p@b.example/s.xml')).toBe(true);
    expect(hasUrlCredentials('https://b.example/s.xml?page=2')).toBe(false);
  });
});

describe('isCredentialParam', () => {
  it('reads names case-insensitively and decoded; near-misses are not credentials', () => {
    for (const name of ['token', 'Token', 'KEY', 'sig', 'Signature', 'password', 'X-Amz-Security-Token', 'x-amz-date'])
      expect(isCredentialParam(name), name).toBe(true);
    for (const name of ['tokens', 'keyword', 'q', 'page', 'signed', 'x-am', '%E0%A4%A'])
      expect(isCredentialParam(name), name).toBe(false);
  });
});

describe('redactUrlsIn', () => {
  it('redacts every URL in a message and keeps the punctuation around it', () => {
    expect(
      redactUrlsIn(
        'could not read the sitemap https://b.example/s.xml?token=abc: 404 (from https://u:p@b.example/i.xml?sig=x).',
      ),
    ).toBe(
      'could not read the sitemap https://b.example/s.xml?token=***: 404 (from https://***@b.example/i.xml?sig=***).',
    );
  });

  it('keeps the punctuation that closes a sentence after a redacted value', () => {
    expect(redactUrlsIn('see (https://b.example/s.xml?token=abc).')).toBe('see (https://b.example/s.xml?token=***).');
    expect(redactUrlsIn('at https://b.example/s.xml?sig=abc]: done!')).toBe(
      'at https://b.example/s.xml?sig=***]: done!',
    );
  });

  it('redacts a URL whose only secret is its userinfo, and keeps a URL with neither @ nor = as it is', () => {
    expect(redactUrlsIn('from https://ann:pw@b.example/i.xml, retried')).toBe(
      'from https://***@b.example/i.xml, retried',
    );
    expect(redactUrlsIn('from https://ann@b.example/i.xml')).toBe('from https://***@b.example/i.xml');
    const plain = 'pages https://b.example/a?page#top and https://b.example/b;x';
    expect(redactUrlsIn(plain)).toBe(plain);
  });

  it('returns text without a URL unchanged', () => {
    const text = 'token=abc is not in a URL';
    expect(redactUrlsIn(text)).toBe(text);
  });
});

describe('redactUrlsDeep', () => {
  it('redacts every string of a report-like value and shares the parts it did not change', () => {
    const clean = { urls: ['https://b.example/a'], n: 3 };
    const value = {
      coverage: { sitemap_url: 'https://b.example/s.xml?token=abc', missing: ['https://b.example/p?key=k'] },
      clean,
      nothing: null,
      flag: true,
    };
    const out = redactUrlsDeep(value);
    expect(out).toEqual({
      coverage: { sitemap_url: 'https://b.example/s.xml?token=***', missing: ['https://b.example/p?key=***'] },
      clean,
      nothing: null,
      flag: true,
    });
    expect(out.clean).toBe(clean);
    // A change after clean items: the copy keeps the items before it and after it, in order, and only the
    // containers on the changed path are new.
    const inner = { n: 1 };
    const later = { a: 'x', b: inner, c: ['y', 'https://b.example/p?sig=s', 'z', inner], d: 'w' };
    const copy = redactUrlsDeep(later);
    expect(copy).toEqual({ a: 'x', b: inner, c: ['y', 'https://b.example/p?sig=***', 'z', inner], d: 'w' });
    expect(Object.keys(copy)).toEqual(['a', 'b', 'c', 'd']);
    expect(copy).not.toBe(later);
    expect(copy.c).not.toBe(later.c);
    expect(copy.b).toBe(inner);
    expect(later.c[1]).toBe('https://b.example/p?sig=s');
    // Two changes apart in one array: the second must not start the copy again from the originals.
    expect(redactUrlsDeep(['https://b.example/a?token=1', 'x', 'https://b.example/b?token=2', 'y'])).toEqual([
      'https://b.example/a?token=***',
      'x',
      'https://b.example/b?token=***',
      'y',
    ]);
    // Only plain objects and arrays are walked: a Date (or any class instance) is kept as it is.
    const at = new Date(0);
    expect(redactUrlsDeep({ at }).at).toBe(at);
    expect(value.coverage.sitemap_url).toBe('https://b.example/s.xml?token=abc');
  });
});
