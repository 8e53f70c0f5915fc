/**
 * Escaping for the HTML report. Every value in a report may carry text from the indexed book (chunk text, headings,
 * URLs, answers) or from a service's error message: it is hostile until escaped. `html` is a tagged template that
 * escapes every interpolated value unless it is already rendered markup (a Markup); nothing else builds markup.
 */

/** Rendered, trusted markup: only `html` and the chart builders make one. */
export class Markup {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

type Value = Markup | string | number | boolean | null | undefined | Value[];

function render(value: Value): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** The one way to build markup: literal parts as written, every value escaped (arrays joined, Markup kept). */
export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Markup(out);
}

/** A link only for http(s) URLs; anything else (javascript:, data:, relative) is shown as text. */
export function link(url: string | null | undefined, text?: string): Markup {
  if (url === null || url === undefined) return html`<span class="muted">none</span>`;
  if (!/^https?:\/\//i.test(url)) return html`<span class="url">${url}</span>`;
  return html`<a class="url" href="${url}" rel="noopener noreferrer nofollow" target="_blank">${text ?? url}</a>`;
}

/** A number for people: at most `digits` decimals, n/a for null. */
export function num(value: number | null | undefined, digits = 2, unit = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${Number(value.toFixed(digits))}${unit}`;
}

/** Cuts long text at a character boundary, with an ellipsis. */
export function cut(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
