import { describe, expect, it } from 'vitest';
import { pointIdFor, uuidV5 } from '../../functions/indexer/point-id.ts';

// Reference values computed with Python's uuid.uuid5, an independent RFC 4122 implementation.
describe('uuidV5', () => {
  it('matches the RFC 4122 reference value for python.org in the DNS namespace', () => {
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow('uuidV5: namespace must be a UUID, got "not-a-uuid"');
  });
});

describe('pointIdFor', () => {
  it('gives the UUID v5 of "url#index" in the URL namespace', () => {
    // Act
    const ids = [
      pointIdFor('https://book.example.com/docs/module-1-ros2/ch1-ros2-basics', 0),
      pointIdFor('https://book.example.com/docs/intro', 3),
      pointIdFor('https://book.example.com/docs/café', 0),
    ];

    // Assess
    expect(ids).toEqual([
      'deb36335-931f-550a-8bd8-5635727d9771',
      '536499ff-722e-513d-9951-a2055bc26b7f',
      '0b9790a6-a5e3-5280-a7c1-9e52264ca777',
    ]);
  });

  it('gives different ids to different chunks of one page', () => {
    expect(pointIdFor('https://b/docs/x', 0)).not.toBe(pointIdFor('https://b/docs/x', 1));
  });
});
