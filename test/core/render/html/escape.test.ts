/** The HTML report's escaping: every value is text until escaped, links only for http(s), numbers for people. */
import { describe, expect, it } from 'vitest';
import { cut, escapeHtml, html, link, Markup, num } from '../../../../functions/core/render/html/escape.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that can end text or an attribute value', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('renders null and undefined as nothing, and other values as their text', () => {
    expect([escapeHtml(null), escapeHtml(undefined), escapeHtml(0), escapeHtml(false)]).toEqual(['', '', '0', 'false']);
  });
});

describe('html', () => {
  it('escapes each interpolated value and keeps the literal parts as written', () => {
    expect(html`<p title="${'"x"'}">${'<b>'} and ${7}</p>`.value).toBe('<p title="&quot;x&quot;">&lt;b&gt; and 7</p>');
  });

  it('keeps rendered markup as markup and joins arrays without a separator', () => {
    const items = ['<a>', 'b'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>');
  });

  it('renders null, undefined and false as nothing, and true as its text', () => {
    expect(html`[${null}|${undefined}|${false}|${true}]`.value).toBe('[|||true]');
  });

  it('builds a Markup whose text is its value', () => {
    const markup = html`<i>${'x'}</i>`;
    expect(markup).toBeInstanceOf(Markup);
    expect(String(markup)).toBe('<i>x</i>');
  });
});

describe('link', () => {
  it('links an http or https URL, whatever its scheme case, opening safely in a new tab', () => {
    expect(link('https://book.example.org/docs/a?x=1&y=2').value).toBe(
      '<a class="url" href="https://book.example.org/docs/a?x=1&amp;y=2" rel="noopener noreferrer nofollow" target="_blank">https://book.example.org/docs/a?x=1&amp;y=2</a>',
    );
    expect(link('HTTP://book.example.org/', 'the book').value).toBe(
      '<a class="url" href="HTTP://book.example.org/" rel="noopener noreferrer nofollow" target="_blank">the book</a>',
    );
  });

  it('shows a javascript:, data: or relative URL as text, even when it holds an http URL further on', () => {
    expect(link('javascript:alert("https://x")').value).toBe(
      '<span class="url">javascript:alert(&quot;https://x&quot;)</span>',
    );
    expect(link('/docs/intro').value).toBe('<span class="url">/docs/intro</span>');
    expect(link('ftp://book.example.org/').value).toBe('<span class="url">ftp://book.example.org/</span>');
  });

  it('says none for a missing URL', () => {
    expect(link(null).value).toBe('<span class="muted">none</span>');
    expect(link(undefined).value).toBe('<span class="muted">none</span>');
  });
});

describe('num', () => {
  it('rounds to two decimals by default and drops trailing zeros', () => {
    expect([num(0.12345), num(2.5), num(3)]).toEqual(['0.12', '2.5', '3']);
  });

  it('rounds to the digits asked for and appends the unit', () => {
    expect(num(87.456, 1, '%')).toBe('87.5%');
    expect(num(1234.6, 0, ' ms')).toBe('1235 ms');
  });

  it('says n/a for a figure that could not be computed', () => {
    expect([num(null), num(undefined), num(Number.NaN), num(Number.POSITIVE_INFINITY, 1, '%')]).toEqual([
      'n/a',
      'n/a',
      'n/a',
      'n/a',
    ]);
  });
});

describe('cut', () => {
  it('keeps text of exactly the limit whole', () => {
    expect(cut('abcde', 5)).toBe('abcde');
  });

  it('cuts text over the limit to the limit, the last character an ellipsis', () => {
    expect(cut('abcdef', 5)).toBe('abcd…');
  });

  it('reads a missing text as empty', () => {
    expect(cut(null, 5)).toBe('');
    expect(cut(undefined, 5)).toBe('');
  });
});
