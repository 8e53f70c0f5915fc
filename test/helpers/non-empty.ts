import { expect } from 'vitest';

/**
 * The list, once asserted to hold something: an assertion looped over a list (`for`, `every`) holds vacuously
 * when the list is empty, so a test whose code under test stopped producing anything would still pass.
 */
export function nonEmpty<T>(items: readonly T[], what: string): readonly T[] {
  expect(items.length, `${what}: empty, so the assertions over it would hold for nothing`).toBeGreaterThan(0);
  return items;
}
