/**
 * One sitemap file, read in bounded pieces as its text arrives.
 *
 * Why pieces: fast-xml-parser (the design's XML parser) builds a tree of the whole document it is given, about 40
 * times the size of the text, so a 50 MB sitemap cost gigabytes. Here the text is cut after each complete
 * `</url>` (or `</sitemap>`) and every piece is validated and parsed alone: memory holds one piece and the entries
 * kept (loc and lastmod only), whatever the file's size. The cut is found by a small scanner that skips comments
 * and CDATA, so a `</url>` inside them does not split an entry. The prolog (XML declaration, comments, DOCTYPE) and
 * the root element are read by that scanner, and the root's closing tag is checked at the end, so a document
 * that is not well-formed as a whole is still refused.
 *
 * Entities: the parser never sees a DOCTYPE (the prolog is not parsed by it, and a DOCTYPE or ENTITY declaration
 * anywhere else is refused), so only XML's five predefined entities are decoded and an entity bomb cannot expand.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SitemapFormatError } from './errors.ts';

export interface SitemapXmlOptions {
  /** At most this many entries are kept; the next one sets `full` and reading should stop. */
  maxEntries: number;
  /** A piece (one entry and what surrounds it) longer than this is refused rather than held in memory. */
  maxPieceChars: number;
}

export interface SitemapFile {
  kind: 'urlset' | 'sitemapindex';
  /** Each entry's <loc> and <lastmod> as written (trimmed); entries without a <loc> are left out. */
  entries: { loc: string; lastmod?: string }[];
  /** The file has more than `maxEntries` entries: the rest was not read. */
  full: boolean;
}

const WRAP = '<r>';
/** The entry elements, children of the root (<r>, then depth 2): always read as a list, even when a piece has one. */
const ENTRY_NAMES = new Set(['url', 'sitemap']);
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  // The matcher, not a path string: with `jPath: true` the parser builds every element's path string for this
  // and its other callbacks (27 ms of a cold run's 5,000 entries in the profile). <loc> and <lastmod> need no
  // list: firstText takes a value or the first of several.
  jPath: false,
  isArray: (name, matcher) => typeof matcher !== 'string' && matcher.getDepth() === 2 && ENTRY_NAMES.has(name),
  // A second guard: should a declaration ever reach the parser, it may not declare anything worth expanding.
  processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 1 },
});
const DECLARATION = /<!(DOCTYPE|ENTITY)/;

/** Push text in as it arrives, stop when `full`, then call `end`. */
export class SitemapXmlReader {
  readonly #options: SitemapXmlOptions;
  #state: 'prolog' | 'body' | 'done' = 'prolog';
  #kind: SitemapFile['kind'] = 'urlset';
  #buffer = '';
  #line = 1;
  #col = 1;
  #entries: SitemapFile['entries'] = [];
  #full = false;

  constructor(options: SitemapXmlOptions) {
    this.#options = options;
  }

  /** True once the file holds more entries than the cap: the caller should stop reading. */
  get full(): boolean {
    return this.#full;
  }

  push(text: string): void {
    if (this.#full || this.#state === 'done') return;
    this.#buffer += text;
    if (this.#state === 'prolog') this.#readProlog();
    if (this.#state === 'body') this.#readPieces();
    if (this.#buffer.length > this.#options.maxPieceChars) {
      throw new SitemapFormatError(
        `has an element of more than ${this.#options.maxPieceChars} characters at ${this.#where()}: refused rather than held in memory`,
      );
    }
  }

  /** `cut`: the text stopped at a cap, so an unfinished document is expected rather than an error. */
  end(options: { cut: boolean }): SitemapFile {
    if (this.#state === 'prolog') {
      throw new SitemapFormatError(
        this.#line === 1 && this.#buffer.trim() === ''
          ? 'is empty: expected a <urlset> or <sitemapindex> document'
          : 'is not a sitemap: expected a <urlset> or <sitemapindex> root element',
      );
    }
    if (this.#state === 'body' && !this.#full && !options.cut) this.#checkTail();
    return { kind: this.#kind, entries: this.#entries, full: this.#full };
  }

  #readProlog(): void {
    for (;;) {
      const b = this.#buffer;
      const i = b.search(/[^\s\uFEFF]/);
      if (i < 0) return;
      if (i > 0) this.#consume(i);
      const s = this.#buffer;
      if (s[0] !== '<')
        throw new SitemapFormatError(`is not a sitemap: text before the root element at ${this.#where()}`);
      if (s.startsWith('<?') || s.startsWith('<!--')) {
        const close = s.startsWith('<?') ? '?>' : '-->';
        const end = s.indexOf(close, 2);
        if (end < 0) return;
        this.#consume(end + close.length);
        continue;
      }
      const end = tagEnd(s);
      if (s.startsWith('<!DOCTYPE')) {
        const subset = s.indexOf('[');
        if (subset >= 0 && (end < 0 || subset < end)) throw this.#declarationRefused();
        if (end < 0) return;
        this.#consume(end + 1);
        continue;
      }
      if (end < 0) return;
      const name = /^<([^\s/>]+)/.exec(s)?.[1] ?? '';
      const local = localName(name);
      if (local !== 'urlset' && local !== 'sitemapindex') {
        throw new SitemapFormatError(
          `is not a sitemap: expected a <urlset> or <sitemapindex> root element, found <${name.slice(0, 40)}>`,
        );
      }
      this.#kind = local;
      this.#state = s[end - 1] === '/' ? 'done' : 'body';
      this.#consume(end + 1);
      return;
    }
  }

  #readPieces(): void {
    const cut = lastClosing(this.#buffer, this.#kind === 'urlset' ? 'url' : 'sitemap');
    if (cut < 0) {
      // Whitespace between entries is not held: a body of blanks (a typical gzip bomb) then meets the byte cap.
      const blank = this.#buffer.search(/\S/);
      this.#consume(blank < 0 ? this.#buffer.length : blank);
      return;
    }
    const piece = this.#buffer.slice(0, cut);
    const [line, col] = [this.#line, this.#col];
    this.#consume(cut);
    if (DECLARATION.test(piece)) throw this.#declarationRefused();
    const xml = `${WRAP}${piece}</r>`;
    const valid = XMLValidator.validate(xml);
    if (valid !== true) {
      const at = valid.err.line === 1 ? `line ${line}, column ${col + valid.err.col - 1 - WRAP.length}` : '';
      throw new SitemapFormatError(
        `is not well-formed XML: ${valid.err.msg} (${at || `line ${line + valid.err.line - 1}, column ${valid.err.col}`})`,
      );
    }
    const root = (parser.parse(xml) as { r?: unknown }).r;
    const items = isRecord(root) ? root[this.#kind === 'urlset' ? 'url' : 'sitemap'] : undefined;
    for (const item of Array.isArray(items) ? items : []) {
      const loc = isRecord(item) ? firstText(item.loc) : undefined;
      if (loc === undefined) continue;
      if (this.#entries.length >= this.#options.maxEntries) {
        this.#full = true;
        return;
      }
      const lastmod = isRecord(item) ? firstText(item.lastmod) : undefined;
      this.#entries.push(lastmod === undefined ? { loc } : { loc, lastmod });
    }
  }

  /** After the last entry only the root's closing tag (and comments) may remain. */
  #checkTail(): void {
    const rest = this.#buffer.replace(/<!--[\s\S]*?-->/g, '').trim();
    const close = /^<\/([^\s>]+)\s*>$/.exec(rest);
    if (close?.[1] && localName(close[1]) === this.#kind) return;
    if (rest === '') throw new SitemapFormatError(`ends before its closing </${this.#kind}> tag (truncated?)`);
    const valid = XMLValidator.validate(`${WRAP}${this.#buffer}</r>`);
    const why = valid === true ? `unexpected content after the last entry` : valid.err.msg;
    throw new SitemapFormatError(`is not well-formed XML: ${why} (after ${this.#where()})`);
  }

  #declarationRefused(): SitemapFormatError {
    return new SitemapFormatError(
      `declares a DOCTYPE with entities (near ${this.#where()}): refused, so that no entity is expanded (a sitemap needs none)`,
    );
  }

  #where(): string {
    return `line ${this.#line}, column ${this.#col}`;
  }

  #consume(n: number): void {
    const gone = this.#buffer.slice(0, n);
    // Counted in place: splitting the consumed text into lines allocated a string per line of the sitemap.
    let last = -1;
    for (let i = gone.indexOf('\n'); i >= 0; i = gone.indexOf('\n', i + 1)) {
      this.#line++;
      last = i;
    }
    this.#col = last >= 0 ? n - last : this.#col + n;
    this.#buffer = this.#buffer.slice(n);
  }
}

/** The index just after the last `</name>` closing tag outside comments and CDATA, or -1. */
function lastClosing(text: string, name: string): number {
  let last = -1;
  let i = text.indexOf('<');
  while (i >= 0) {
    const skip = text.startsWith('<!--', i) ? '-->' : text.startsWith('<![CDATA[', i) ? ']]>' : null;
    if (skip) {
      const end = text.indexOf(skip, i);
      if (end < 0) break;
      i = text.indexOf('<', end + skip.length);
      continue;
    }
    if (text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf('>', i);
      if (end < 0) break;
      if (localName(text.slice(i + 2, end).trim()) === name) last = end + 1;
      i = text.indexOf('<', end + 1);
      continue;
    }
    i = text.indexOf('<', i + 1);
  }
  return last;
}

/** The index of the `>` that ends the tag opening `text`, skipping quoted attribute values, or -1. */
function tagEnd(text: string): number {
  let quote = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * The first text value, trimmed and copied. The copy matters: the parser's values are V8 substrings that keep
 * their whole piece alive, so 50,000 kept <loc> values would otherwise pin the whole document in memory.
 */
function firstText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const text = typeof first === 'string' ? first.trim() : '';
  return text === '' ? undefined : Buffer.from(text, 'utf8').toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
