import { describe, expect, it } from 'vitest';
import { mdxToText } from '../../functions/indexer/mdx-text.ts';

describe('mdxToText', () => {
  it('keeps the text a component’s props show and drops the props that are not text', () => {
    // Prepare: as in a real .mdx page, the props on several lines
    const mdx = [
      'Before.',
      '',
      '<FlowDiagram',
      '  title="From watts to maps"',
      '  steps={["Compute Hardware", "Message Bus"]}',
      '  zoomable={true}',
      '  current="introduction"',
      '/>',
      '',
      'After.',
    ].join('\n');

    // Act
    const text = mdxToText(mdx);

    // Assess
    expect(text).toBe('Before.\n\nFrom watts to maps, Compute Hardware, Message Bus\n\nAfter.');
  });

  it('keeps a tab’s label and the text and code inside it, not its value or group id', () => {
    const mdx = [
      '<Tabs groupId="operating-systems">',
      '<TabItem value="deb" label="Debian / Ubuntu" default>',
      '',
      'Install the package.',
      '',
      '```bash',
      '<Tabs> stays here, as does {zoomable}',
      '```',
      '',
      '</TabItem>',
      '</Tabs>',
    ].join('\n');

    expect(mdxToText(mdx)).toBe(
      [
        '',
        'Debian / Ubuntu',
        '',
        'Install the package.',
        '',
        '```bash',
        '<Tabs> stays here, as does {zoomable}',
        '```',
        '',
        '',
        '',
      ].join('\n'),
    );
  });

  it('keeps an image’s alt text and a link’s words, not their paths', () => {
    expect(
      mdxToText('See <img src="/img/arm.png" alt="Robot arm" /> and <Link to="/quickstart/">the start</Link>.'),
    ).toBe('See Robot arm and the start.');
  });

  it('keeps one capitalised word as text and drops ids, slugs, URLs and class names', () => {
    const mdx = '<Card label="Files" id="files" href="https://x.example/a b" className="margin--md" icon="./a.svg" />';
    expect(mdxToText(mdx)).toBe('Files');
  });

  it('leaves inline code, comparisons, placeholders and autolinks as written', () => {
    const mdx = 'Use `<Tabs groupId="x">` when a < b; run stow <name>; see <https://example.com>.';
    expect(mdxToText(mdx)).toBe(mdx);
  });

  it('leaves a tag that never closes as written', () => {
    expect(mdxToText('A <Widget title="x" and no end')).toBe('A <Widget title="x" and no end');
    expect(mdxToText('A <Widget title="never closed>')).toBe('A <Widget title="never closed>');
  });

  it('removes MDX and HTML comments, even over several lines, and fragments', () => {
    expect(mdxToText('A {/* note\nfor authors */}B <!-- one\ntwo -->C <>D</>')).toBe('A B C D');
  });

  it('keeps an admonition’s title and drops its fences', () => {
    const mdx = [':::tip[Keep a spare]', 'Text.', ':::', '', ':::note Power budget', 'More.', ':::', ':::danger'].join(
      '\n',
    );
    expect(mdxToText(mdx)).toBe(['Keep a spare', 'Text.', '', '', 'Power budget', 'More.', '', ''].join('\n'));
  });

  it('does not read tags inside a fenced block, whatever fence closes it', () => {
    const mdx = ['~~~~', '<Comments />', '```', '~~~~', '<Comments />', 'End.'].join('\n');
    expect(mdxToText(mdx)).toBe(['~~~~', '<Comments />', '```', '~~~~', '', 'End.'].join('\n'));
  });
});
