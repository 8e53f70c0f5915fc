/**
 * One sitemap file, read in bounded pieces as its text arrives.
 *
 * Why pieces: fast-xml-parser (the design's XML parser) builds a tree of the whole document it is given, about 40
 * times the size of the text, so a 50 MB sitemap cost gigabytes. Here the text is cut after each complete
 * `</url>` (or `</sitemap>`) and every piece is validated alone, then its entries read: memory holds one piece and
 * the entries kept (loc and lastmod only), whatever the file's size. The cut is found by a small scanner that skips comments
 * and CDATA, so a `</url>` inside them does not split an entry. The prolog (XML declaration, comments, DOCTYPE) and
 * the root element are read by that scanner, and the root's closing tag is checked at the end, so a document
 * that is not well-formed as a whole is still refused.
 *
 * Entities: no DOCTYPE reaches the reading (the prolog is read by the scanner, and a DOCTYPE or any other markup
 * declaration anywhere else is refused), so only XML's five predefined entities are decoded and an entity bomb
 * cannot expand.
 *
 * Why a piece is not handed to fast-xml-parser's XMLParser once validated: it builds a tree of every element and
 * then an object of it, for two short texts per entry. In a cold run (a nightly Lambda's only one) that was about
 * 110 ms of 5,000 entries' CPU (docs/PERFORMANCE.md). fast-xml-parser's validator still decides well-formedness;
 * `readEntries` below only reads a piece the validator accepted, with the parser's reading of each value
 * (test/adapters/sitemap/xml-entries.test.ts holds the two equal on generated pieces).
 */
import { XMLValidator } from 'fast-xml-parser';
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
/**
 * Elements nested deeper than this in one piece are refused (fast-xml-parser's own default cap, kept as it was:
 * a sitemap entry needs three levels).
 */
const MAX_NESTING = 100;
const DECLARATION = /<!(DOCTYPE|ENTITY)/;
/** Any other `<!` than a comment or CDATA (`<!ELEMENT`, `<!ATTLIST` ...) is a DTD declaration out of place. */
const OTHER_DECLARATION = /<!(?!--|\[CDATA\[)/;
const PREDEFINED_ENTITY = /&(lt|gt|amp|quot|apos);/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

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
    if (OTHER_DECLARATION.test(piece)) {
      throw new SitemapFormatError(
        `has a markup declaration outside a DOCTYPE (in the entry at line ${line}, column ${col}): refused (a sitemap needs none)`,
      );
    }
    for (const item of readEntries(piece, this.#kind === 'urlset' ? 'url' : 'sitemap', line, col)) {
      const loc = firstText(item.loc);
      if (loc === undefined) continue;
      if (this.#entries.length >= this.#options.maxEntries) {
        this.#full = true;
        return;
      }
      const lastmod = firstText(item.lastmod);
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
    const last = gone.lastIndexOf('\n');
    if (last >= 0) {
      this.#line += gone.split('\n').length - 1;
      this.#col = n - last;
    } else this.#col += n;
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

/** The index of the `>` that ends the tag starting at `from` in `text`, skipping quoted attribute values, or -1. */
function tagEnd(text: string, from = 0): number {
  let quote = '';
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** The index just after the tag name starting at `from`: at the first blank, `/` or `>`. */
function nameEnd(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62) break;
  }
  return i;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** One entry element's first <loc> and first <lastmod>: their text, or undefined if absent or not text alone. */
interface RawEntry {
  loc?: string | undefined;
  lastmod?: string | undefined;
}

/**
 * The entries of a piece the validator accepted (so its tags are balanced and its markup closed), read as
 * fast-xml-parser read them (ignoring attributes, namespace prefixes removed, values not parsed):
 * - an entry is an element named `entryName` at the top of the piece; its fields are its child elements named
 *   `loc` and `lastmod`, the first of each name deciding;
 * - a field's text is its text runs (comments inside a run are dropped, so `a<!-- -->b` is one run) each trimmed,
 *   with the five predefined entities decoded and CRLF read as LF, and its CDATA sections as written, joined;
 * - a field holding an element or a processing instruction has no text value (the parser made it an object).
 * Numeric character references are left as written, as the parser with this configuration left them.
 */
function readEntries(piece: string, entryName: string, line: number, col: number): RawEntry[] {
  const entries: RawEntry[] = [];
  let depth = 0;
  let entry: RawEntry | undefined;
  let field: 'loc' | 'lastmod' | undefined;
  let parts: string[] = [];
  let run = '';
  let hasChild = false;
  let i = 0;
  const flushRun = () => {
    const text = run.trim();
    if (text !== '') parts.push(decodeText(text));
    run = '';
  };
  while (i < piece.length) {
    const lt = piece.indexOf('<', i);
    const textEnd = lt < 0 ? piece.length : lt;
    if (field !== undefined && depth === 2) run += piece.slice(i, textEnd);
    if (lt < 0) break;
    if (piece.startsWith('<!--', lt)) {
      i = closeOf(piece, '-->', lt + 4);
      continue;
    }
    if (field !== undefined && depth === 2) flushRun();
    if (piece.startsWith('<![CDATA[', lt)) {
      i = closeOf(piece, ']]>', lt + 9);
      if (field !== undefined && depth === 2) parts.push(lineFeeds(piece.slice(lt + 9, i - 3)));
      continue;
    }
    if (piece.charCodeAt(lt + 1) === 63) {
      // A processing instruction inside a field makes it a node, not text.
      if (field !== undefined && depth === 2) hasChild = true;
      i = closeOf(piece, '?>', lt + 2);
      continue;
    }
    const end = closeOf(piece, '>', lt) - 1;
    i = end + 1;
    if (piece.charCodeAt(lt + 1) === 47) {
      depth--;
      if (depth === 1 && field !== undefined && entry !== undefined) {
        entry[field] = hasChild ? undefined : parts.join('');
        field = undefined;
      } else if (depth === 0 && entry !== undefined) {
        entries.push(entry);
        entry = undefined;
      }
      continue;
    }
    const selfClosing = piece.charCodeAt(end - 1) === 47;
    const name = localName(piece.slice(lt + 1, nameEnd(piece, lt + 1)));
    if (depth === 0 && name === entryName) entry = {};
    else if (depth === 1 && entry !== undefined && (name === 'loc' || name === 'lastmod') && !(name in entry)) {
      if (selfClosing) entry[name] = '';
      else {
        field = name;
        parts = [];
        hasChild = false;
      }
    } else if (depth === 2 && field !== undefined) hasChild = true;
    if (selfClosing) {
      if (depth === 0 && entry !== undefined) {
        entries.push(entry);
        entry = undefined;
      }
      continue;
    }
    depth++;
    if (depth > MAX_NESTING) {
      throw new SitemapFormatError(
        `nests elements more than ${MAX_NESTING} deep (in the entry at line ${line}, column ${col}): refused`,
      );
    }
  }
  return entries;
}

/**
 * The index just after the `marker` that closes the markup at `from` (for `>`, outside quoted attribute values).
 * The validator has seen every piece closed, so a missing one is a bug; it is refused rather than read on (an
 * index of -1 would send the scan back to the start, forever).
 */
function closeOf(piece: string, marker: string, from: number): number {
  const at = marker === '>' ? tagEnd(piece, from) : piece.indexOf(marker, from);
  if (at < 0)
    throw new SitemapFormatError(`is not well-formed XML: ${marker} expected after offset ${from} of an entry`);
  return at + marker.length;
}

/** A text run as XML reads it: line ends as LF, the five predefined entities decoded (most runs have neither). */
function decodeText(text: string): string {
  const lf = lineFeeds(text);
  return lf.includes('&') ? lf.replace(PREDEFINED_ENTITY, (_, name: string) => PREDEFINED[name] ?? '') : lf;
}

function lineFeeds(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * A field's text, trimmed and copied, or undefined when empty. The copy matters: the values are V8 substrings that
 * keep their whole piece alive, so 50,000 kept <loc> values would otherwise pin the whole document in memory.
 */
function firstText(value: string | undefined): string | undefined {
  const text = value?.trim() ?? '';
  return text === '' ? undefined : Buffer.from(text, 'utf8').toString('utf8');
}
