/** Golden-set rot: the expectations no page of the sitemap answers any more. */
import { describe, expect, it } from 'vitest';
import { staleExpectations } from '../../../functions/core/sitemap/stale-expectations.ts';
import type { ResolvedQuery } from '../../../functions/core/suite/suite.ts';

const BOOK = 'https://book.example.com';
const query = (id: string, expected_sources: string[]) => ({ id, expected_sources }) as unknown as ResolvedQuery;

describe('staleExpectations', () => {
  it('judges nothing stale when the sitemap listed no page', () => {
    expect(staleExpectations([query('q1', ['/docs/intro'])], [])).toEqual(new Map());
  });

  it('finds each expectation by full URL, path or doc id on any page, and names the ones no page answers', () => {
    const pages = [
      ...Array.from({ length: 500 }, (_, i) => `${BOOK}/docs/filler-${i}`),
      `${BOOK}/docs/module-1-ros2/ch1-ros2-basics/`,
      `${BOOK}/docs/intro`,
    ];
    const stale = staleExpectations(
      [
        query('url', [`${BOOK}/docs/intro/`]),
        query('path', ['/docs/module-1-ros2/ch1-ros2-basics']),
        query('doc', ['01-ch1-ros2-basics.md', 'gone-chapter']),
        query('gone', [`${BOOK}/docs/removed`, '/docs/also-removed']),
      ],
      pages,
    );
    expect(stale).toEqual(
      new Map([
        ['doc', ['gone-chapter']],
        ['gone', [`${BOOK}/docs/removed`, '/docs/also-removed']],
      ]),
    );
  });

  it('names a stale expectation for every query that holds it', () => {
    const stale = staleExpectations(
      [query('a', ['/docs/x']), query('b', ['/docs/x', '/docs/intro'])],
      [`${BOOK}/docs/intro`],
    );
    expect(stale).toEqual(
      new Map([
        ['a', ['/docs/x']],
        ['b', ['/docs/x']],
      ]),
    );
  });
});
