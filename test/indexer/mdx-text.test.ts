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

describe('mdxToText, edge cases a reader would notice', () => {
  it('leaves every line of a fenced block as written until the fence really closes', () => {
    // Prepare: two tag lines inside one fence; a shorter fence and a fence with an info string do not close a longer
    // one; a closing fence may be indented or carry trailing spaces.
    const mdx = [
      '````md',
      '<Tabs>',
      '<TabItem label="Inside">',
      '```jsx',
      '```',
      '<Card label="Still inside" />',
      '  ````  ',
      '<Card label="Files" />',
    ].join('\n');

    // Act
    const text = mdxToText(mdx);

    // Assess
    expect(text).toBe(
      [
        '````md',
        '<Tabs>',
        '<TabItem label="Inside">',
        '```jsx',
        '```',
        '<Card label="Still inside" />',
        '  ````  ',
        'Files',
      ].join('\n'),
    );
  });

  it('keeps inline code of any backtick run as written, and reads the tags between code spans', () => {
    expect(mdxToText('See ``<Tabs> and `x` ``, then <Card label="Files" />.')).toBe(
      'See ``<Tabs> and `x` ``, then Files.',
    );
    expect(mdxToText('`a` <Card label="Files" /> `b`')).toBe('`a` Files `b`');
  });

  it('keeps an unclosed backtick as written and still reads the tag after it', () => {
    expect(mdxToText('it’s a ` mark <Card label="Files" />')).toBe('it’s a ` mark Files');
  });

  it('removes comments written back to back, and leaves an unclosed comment as written', () => {
    expect(mdxToText('A {/* one */}{/* two */}B <!-- three --><!-- four -->C')).toBe('A B C');
    expect(mdxToText('{/* never closed')).toBe('{/* never closed');
    expect(mdxToText('<!-- never closed')).toBe('<!-- never closed');
  });

  it('keeps an indented admonition’s title at its indentation, trimmed inside its brackets', () => {
    const mdx = ['1. Step one', '', '   :::note[ Careful here ]', '   Text.', '   :::'].join('\n');
    expect(mdxToText(mdx)).toBe(['1. Step one', '', '   Careful here', '   Text.', ''].join('\n'));
  });

  it('reads props in single quotes and template literals, and a tag whose props hold an arrow function', () => {
    expect(mdxToText("<Hero title='Robot arm' subtitle={`From watts to maps`} />")).toBe(
      'Robot arm, From watts to maps',
    );
    expect(mdxToText('<Button onClick={() => setOpen(true)} label="Open menu" /> then more.')).toBe(
      'Open menu then more.',
    );
  });

  it('reads lower-case HTML tags of several letters, and leaves a camelCase placeholder as written', () => {
    expect(mdxToText('<div className="note">Text</div>')).toBe('Text');
    expect(mdxToText('Replace <yourToken> with the key.')).toBe('Replace <yourToken> with the key.');
  });

  it('keeps one capitalised word with digits, and drops padded slugs, camelCase ids, relative paths and paths', () => {
    expect(mdxToText('<Card label="ROS2" />')).toBe('ROS2');
    expect(mdxToText('<Card icon=" rocket " groupId="operatingSystems" href="Docs/intro" label="Intro" />')).toBe(
      'Intro',
    );
    expect(mdxToText('<img src="./Robot Arm.png" alt="Robot arm" />')).toBe('Robot arm');
  });
});
