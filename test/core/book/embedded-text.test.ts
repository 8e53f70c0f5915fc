import { describe, expect, it } from 'vitest';
import { contextualHeader, embeddedText } from '../../../functions/core/book/payload.ts';

describe('the text a vector is of', () => {
  it('puts the contextual header (title › H2 › H3) above the chunk text', () => {
    expect(contextualHeader(['Field Workstation', ' GPU ', '', 'Minimum'])).toBe('Field Workstation › GPU › Minimum');
    expect(embeddedText({ chunk_text: '24 GB of memory.', embed_header: 'Field Workstation › GPU' })).toBe(
      'Field Workstation › GPU\n\n24 GB of memory.',
    );
  });

  it('is the chunk text alone where no header was embedded: another indexer’s collection, or a page with none', () => {
    expect(embeddedText({ chunk_text: 'Text.' })).toBe('Text.');
    expect(embeddedText({ chunk_text: 'Text.', embed_header: '' })).toBe('Text.');
    expect(embeddedText({ chunk_text: 'Text.', embed_header: 42 })).toBe('Text.');
  });
});
