import { describe, expect, it } from 'vitest';
import {
  matchesChapter,
  matchesModule,
  matchesSource,
  normaliseUrl,
  rememberedUrls,
  urlPath,
} from '../../../functions/core/book/matching.ts';

const BOOK = 'https://book.example.com';

describe('matchesModule', () => {
  it('matches a payload module name written differently', () => {
    expect(matchesModule('Module 1 Ros2', 'module-1-ros2')).toBe(true);
  });

  it('matches the module folder of the chapter id when the payload has no module name', () => {
    expect(matchesModule('Module 1 Ros2', null, 'module1-ros2/ch1-ros2-basics')).toBe(true);
  });

  it('takes a top-level page’s id for its module, as the indexer names it', () => {
    expect(matchesModule('quick-reference', 'Course Quick Reference', 'quick-reference')).toBe(true);
  });

  it('does not match module 1 against module 11', () => {
    expect(matchesModule('Module 1', 'Module 11', 'module-11/ch1')).toBe(false);
  });

  it('does not match module 11 against the folder module1-1', () => {
    expect(matchesModule('Module 11', 'Module 1 1', 'module1-1/ch1')).toBe(false);
  });

  it('matches the folder slug module1-ros2 against the seed’s form "Module 1 Ros2"', () => {
    expect(matchesModule('module1-ros2', 'Module 1 Ros2', 'module1-ros2/ch1')).toBe(true);
  });

  it('does not match an expectation with no letters or digits', () => {
    expect(matchesModule(' - ', '', '')).toBe(false);
  });
});

describe('matchesChapter', () => {
  it('matches a bare chapter id against the full chapter id', () => {
    expect(matchesChapter('ch1-ros2-basics', 'module-1-ros2/ch1-ros2-basics')).toBe(true);
  });

  it('matches a full chapter id against itself', () => {
    expect(matchesChapter('module-1-ros2/ch1-ros2-basics', 'module-1-ros2/ch1-ros2-basics')).toBe(true);
  });

  it('matches a full expected id against a payload that omits the module folder', () => {
    expect(matchesChapter('module-1-ros2/ch1-ros2-basics', 'ch1-ros2-basics')).toBe(true);
  });

  it('does not match the same chapter name under another module', () => {
    expect(matchesChapter('module-2-sim/ch1-ros2-basics', 'module-1-ros2/ch1-ros2-basics')).toBe(false);
  });

  it('does not match a chapter whose name merely starts the same', () => {
    expect(matchesChapter('ch1', 'module-1-ros2/ch10')).toBe(false);
  });

  it('does not match an empty expected chapter', () => {
    expect([matchesChapter('', 'module-1-ros2/ch1'), matchesChapter('/', 'module-1-ros2/ch1')]).toEqual([false, false]);
  });

  it('does not match a missing chapter id', () => {
    expect(matchesChapter('ch1-ros2-basics', null)).toBe(false);
  });
});

describe('normaliseUrl', () => {
  it.each([
    ['lowercases scheme and host, keeps path case', 'HTTPS://Book.Example.COM/docs/Intro', `${BOOK}/docs/Intro`],
    ['drops a trailing slash', `${BOOK}/docs/intro/`, `${BOOK}/docs/intro`],
    ['drops the fragment', `${BOOK}/docs/intro#setup`, `${BOOK}/docs/intro`],
    ['drops the query', `${BOOK}/docs/intro?utm_source=x`, `${BOOK}/docs/intro`],
    ['keeps the root slash', `${BOOK}/`, `${BOOK}/`],
    ['adds the root slash to a bare host', BOOK, `${BOOK}/`],
    ['drops index.html', `${BOOK}/docs/index.html`, `${BOOK}/docs`],
    ['drops the default port', 'https://book.example.com:443/docs', `${BOOK}/docs`],
    ['keeps another port', 'http://localhost:3000/docs/', 'http://localhost:3000/docs'],
    ['collapses doubled slashes', `${BOOK}//docs//intro`, `${BOOK}/docs/intro`],
    ['normalises a path given alone', ' /docs/intro/#a ', '/docs/intro'],
    ['drops a whole query from a path given alone', '/docs/intro?ref=nav&x=1', '/docs/intro'],
    ['drops index.htm', `${BOOK}/docs/index.htm`, `${BOOK}/docs`],
    ['takes an index.html given alone for the root', 'index.html', '/'],
    ['takes an empty string for the root', '', '/'],
    ['keeps a URL of another scheme as written', 'ftp://Files.Example.com/docs/', 'ftp://Files.Example.com/docs/'],
  ])('%s', (_name, input, expected) => {
    expect(normaliseUrl(input)).toBe(expected);
    // The second answer comes from normaliseUrl's memory of the first: it must be the same.
    expect(normaliseUrl(input)).toBe(expected);
  });

  it('remembers at most 20,000 answers, then starts again; a URL longer than 256 characters is not remembered', () => {
    // Fresh URLs one at a time until the memory is emptied: it must hold exactly 20,000 just before, 1 just after.
    let before = rememberedUrls();
    let after = before;
    for (let i = 0; i <= 20_001 && after >= before; i++) {
      before = after;
      normaliseUrl(`https://book.example.com/bound/${i}`);
      after = rememberedUrls();
    }
    expect([before, after]).toEqual([20_000, 1]);
    const prefix = 'https://book.example.com/';
    normaliseUrl(`${prefix}${'b'.repeat(256 - prefix.length)}`);
    expect(rememberedUrls()).toBe(2);
    normaliseUrl(`${prefix}${'c'.repeat(257 - prefix.length)}`);
    expect(rememberedUrls()).toBe(2);
    normaliseUrl(`${prefix}${'b'.repeat(256 - prefix.length)}`);
    expect(rememberedUrls()).toBe(2);
  });

  it('answers the same past the bound of what it remembers, and for URLs too long to be remembered', () => {
    const long = `HTTPS://Book.Example.COM/docs/${'a'.repeat(300)}/`;
    const urls = Array.from({ length: 20_050 }, (_, i) => `HTTPS://Book.Example.COM/docs/p${i}/#x`);
    const first = urls.map(normaliseUrl);
    expect([first[0], first[20_049]]).toEqual([`${BOOK}/docs/p0`, `${BOOK}/docs/p20049`]);
    expect(urls.map(normaliseUrl)).toEqual(first);
    expect([normaliseUrl(long), normaliseUrl(long)]).toEqual([
      `${BOOK}/docs/${'a'.repeat(300)}`,
      `${BOOK}/docs/${'a'.repeat(300)}`,
    ]);
  });
});

describe('urlPath', () => {
  it('returns the normalised path of a URL', () => {
    expect([urlPath(`${BOOK}/docs/intro/#a`), urlPath(BOOK), urlPath('/docs/x/')]).toEqual([
      '/docs/intro',
      '/',
      '/docs/x',
    ]);
  });
});

describe('matchesSource', () => {
  const source = `${BOOK}/docs/module-1-ros2/ch1-ros2-basics`;

  it('matches a full URL after normalisation', () => {
    expect(matchesSource('https://BOOK.example.com/docs/module-1-ros2/ch1-ros2-basics/', source)).toBe(true);
  });

  it('does not match a full URL on another host', () => {
    expect(matchesSource('https://other.example.com/docs/module-1-ros2/ch1-ros2-basics', source)).toBe(false);
  });

  it('matches a path', () => {
    expect(matchesSource('/docs/module-1-ros2/ch1-ros2-basics/', source)).toBe(true);
  });

  it('matches a path under a base path', () => {
    expect(matchesSource('/docs/intro', 'https://someone.github.io/my-book/docs/intro')).toBe(true);
  });

  it('does not match a path that is only a prefix of the last segment', () => {
    expect(matchesSource('/docs/intro', `${BOOK}/docs/intro-2`)).toBe(false);
  });

  it.each([
    ['a doc file', 'ch1-ros2-basics.md'],
    ['a doc id', 'ch1-ros2-basics'],
    ['a doc id with its folder', 'module-1-ros2/ch1-ros2-basics'],
    ['a doc id in another case', 'CH1-ROS2-Basics'],
    ['a doc file with a number prefix', '01-ch1-ros2-basics.mdx'],
    ['a folder index file', 'ch1-ros2-basics/index.md'],
  ])('matches %s against the last path segments', (_name, expected) => {
    expect(matchesSource(expected, source)).toBe(true);
  });

  it('does not match a doc id under another folder', () => {
    expect(matchesSource('module-2-sim/ch1-ros2-basics', source)).toBe(false);
  });

  it('matches an http URL', () => {
    expect(matchesSource('http://book.example.com/docs/intro', 'http://book.example.com/docs/intro/')).toBe(true);
  });

  it('ignores spaces around an expected path', () => {
    expect(matchesSource('  /docs/module-1-ros2/ch1-ros2-basics  ', source)).toBe(true);
  });

  it('compares a path case-sensitively, as a server does', () => {
    expect(matchesSource('/docs/Module-1-ros2/ch1-ros2-basics', source)).toBe(false);
  });

  it('does not let the root path or an empty doc id match every page', () => {
    expect([matchesSource('/', source), matchesSource('', source), matchesSource('.md', source)]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('matches a doc file named index against a page named index', () => {
    expect(matchesSource('index.md', `${BOOK}/docs/index`)).toBe(true);
  });

  it('drops a number prefix only at the start of a segment', () => {
    expect(matchesSource('ch1-intro', `${BOOK}/docs/chintro`)).toBe(false);
  });

  it('does not match a missing source URL', () => {
    expect(matchesSource('ch1-ros2-basics', null)).toBe(false);
  });
});
