/**
 * CloudWatch dimension values must be 1..1,024 ASCII characters with at least one that is not blank (the
 * PutMetricData API reference). Collection, environment and query-category names come from configuration and
 * suites and may be in any script, so they are mapped, one way everywhere (the metrics and the alarms' dimensions):
 * every character outside printable ASCII (U+0020..U+007E), and `%` itself, is written as its UTF-8 bytes in `%XX`
 * form, as in a URL. The mapping is reversible (decodeURIComponent) and leaves ASCII names as they are.
 * A blank value becomes "unknown"; a longer one is cut at 1,024 characters, never inside a `%XX`.
 */
import { redactUrlsIn } from '../shared/redact-url.ts';

const MAX_CHARS = 1024;

/** The CloudWatch dimension value for a name. */
export function dimensionValue(name: string): string {
  const trimmed = redactUrlsIn(name).trim();
  if (trimmed === '') return 'unknown';
  let out = '';
  for (const char of trimmed) {
    const code = char.codePointAt(0) ?? 0;
    const piece = code >= 0x20 && code <= 0x7e && char !== '%' ? char : percentEncoded(char);
    if (out.length + piece.length > MAX_CHARS) break;
    out += piece;
  }
  return out;
}

function percentEncoded(char: string): string {
  return [...new TextEncoder().encode(char)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
