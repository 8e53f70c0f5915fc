/**
 * What a reader sees of an MDX page's markup, for chunking (issue 23 §5): JSX and HTML tags are replaced by the text
 * their props carry for a reader (a title, a label, the strings of a list), and props that are not text
 * (`zoomable={true}`, `groupId="os"`, `to="/quickstart/"`) are dropped, as are `{/* comments *\/}` and HTML comments.
 * Admonition fences (`:::tip Title`, `:::`) keep their title only. Text between tags, fenced code and inline code are
 * left exactly as written.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
// Lower-case tags that are HTML elements; any other lower-case `<word>` is prose ("run stow <name>"), kept as written.
const HTML_TAGS = new Set(
  'a abbr b blockquote br center code details dd div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i iframe img kbd li mark ol p picture pre small source span strong sub summary sup table tbody td th thead tr u ul video'.split(
    ' ',
  ),
);
const ADMONITION = /^(\s*):::+\s*([A-Za-z]*)\s*(?:\[([^\]]*)\]|(.*?))?\s*(\{.*\})?\s*$/;

/** The page's markdown with its MDX markup reduced to the text it shows; code blocks are untouched. */
export function mdxToText(markdown: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | undefined;
  const flushProse = () => {
    if (prose.length > 0) out.push(cleanProse(prose.join('\n')));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      out.push(line);
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    const opened = line.match(FENCE)?.[1];
    if (opened !== undefined) {
      flushProse();
      fence = opened;
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flushProse();
  return out.join('\n');
}

function closesFence(line: string, fence: string): boolean {
  const mark = line.trim();
  return mark.length >= fence.length && mark === (fence[0] ?? '`').repeat(mark.length);
}

/** Prose outside fences: tags and comments replaced, inline code kept; line structure kept where nothing was cut. */
function cleanProse(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '`') {
      const run = /^`+/.exec(text.slice(i))?.[0] ?? '`';
      const close = text.indexOf(run, i + run.length);
      const end = close === -1 ? i + run.length : close + run.length;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (text.startsWith('{/*', i)) {
      const close = text.indexOf('*/}', i + 3);
      if (close !== -1) {
        i = close + 3;
        continue;
      }
    }
    if (text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close !== -1) {
        i = close + 3;
        continue;
      }
    }
    if (ch === '<') {
      const tag = readTag(text, i);
      if (tag !== undefined) {
        out += tag.text;
        i = tag.end;
        continue;
      }
    }
    out += ch;
    i += 1;
  }
  return out
    .split('\n')
    .map((line) => admonitionTitle(line) ?? line)
    .join('\n');
}

/** `:::tip[Title]` or `:::note Title` gives `Title`; a bare `:::` gives an empty line; other lines undefined. */
function admonitionTitle(line: string): string | undefined {
  const match = ADMONITION.exec(line);
  if (match === null) return undefined;
  return `${match[1] ?? ''}${(match[3] ?? match[4] ?? '').trim()}`.trimEnd();
}

/**
 * A JSX or HTML tag starting at `start` (`<Name ...>`, `<Name ... />`, `</Name>`, `<>`, `</>`): where it ends and the
 * reader's text of its props. Undefined when what is there is not a tag (`a < b`, `<name>` in prose, no closing `>`).
 */
function readTag(text: string, start: number): { end: number; text: string } | undefined {
  const head = /^<(\/?)([A-Za-z][\w.:-]*)?/.exec(text.slice(start, start + 200));
  if (head === null) return undefined;
  const name = head[2];
  const fragment = name === undefined;
  if (fragment && text[start + head[0].length] !== '>') return undefined;
  if (!fragment && !/^[A-Z]/.test(name) && !HTML_TAGS.has(name.toLowerCase())) return undefined;
  const strings: string[] = [];
  let depth = 0;
  let i = start + head[0].length;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '"' || ch === "'" || ch === '`') {
      const close = text.indexOf(ch, i + 1);
      if (close === -1) return undefined;
      strings.push(text.slice(i + 1, close));
      i = close + 1;
      continue;
    }
    if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    else if (ch === '>' && depth === 0) {
      const said = head[1] === '/' ? [] : strings.filter(isReaderText);
      return { end: i + 1, text: said.join(', ') };
    }
    i += 1;
  }
  return undefined;
}

/**
 * A prop's string a reader sees: words with a space between them ("From watts to maps", "RHEL / Rocky") or one
 * capitalised word ("Files", "CLI"); not ids, slugs, paths, URLs or class names ("operating-systems", "/quickstart/",
 * "img/robot.png", "margin--md").
 */
function isReaderText(value: string): boolean {
  const text = value.trim();
  if (!/\p{L}/u.test(text) || /^(\/|\.\.?\/|#|@|[a-z][\w+.-]*:\/\/)/i.test(text)) return false;
  return /\s/.test(text) || /^\p{Lu}[\p{L}\p{N}+#.&-]*$/u.test(text);
}
