/**
 * The one redaction of URLs (docs/RELIABILITY.md, "Secrets nowhere"). A URL can carry a secret two ways: a
 * user:password before the host, and a credential in its query string (a sitemap behind `?token=`, a presigned
 * S3 URL's `X-Amz-Signature`). Every output ragwatch writes (the report and what is rendered from it: JSON, HTML,
 * CSV, the email; log lines; metric dimensions; error messages) passes its text through here, so a secret that came
 * in with a configured URL or a sitemap's <loc> leaves in none of them.
 */

/** Query parameter names that carry credentials, compared case-insensitively. */
const CREDENTIAL_PARAM =
  /^(?:x-amz-.*|token|access_token|id_token|refresh_token|auth|auth_token|authorization|key|api_key|apikey|api-key|sig|signature|password|passwd|pwd|secret|client_secret|session|sessionid|credential|credentials)$/i;

/** The marker a redacted value becomes. */
const REDACTED = '***';

/** Whether a query parameter's name says it carries a credential (token, key, sig, signature, password, X-Amz-*...). */
export function isCredentialParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: judged as written
  }
  return CREDENTIAL_PARAM.test(decoded.trim());
}

/**
 * The URL with its user:password replaced by ***@ and the value of every credential-like parameter, in the query or
 * in the fragment (an OAuth redirect carries `#access_token=`), by ***; everything else is left exactly as written
 * (no normalisation), so a redacted URL still reads as the one the user configured. Works on text that is not a
 * valid URL too (it is cut at the first space or quote by callers).
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? null : url.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const head = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? null : beforeHash.slice(queryAt + 1);
  // The authority's userinfo: up to the last @ before the path, since a password may itself hold an @.
  const cleanHead = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, `$1${REDACTED}@`);
  return (
    cleanHead +
    (query === null ? '' : `?${redactParams(query)}`) +
    (fragment === null ? '' : `#${redactParams(fragment)}`)
  );
}

/** `name=value` parameters (separated by &, ; or an HTML &amp;) with each credential-like value replaced by ***. */
function redactParams(params: string): string {
  return params
    .split(/(&amp;|&|;)/)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      if (!isCredentialParam(part.slice(0, eq))) return part;
      // Punctuation that closes the sentence around a URL in a message stays: "(…?token=***)."
      const tail = /[).,:!?\]]*$/.exec(part.slice(eq + 1))?.[0] ?? '';
      return `${part.slice(0, eq)}=${REDACTED}${tail}`;
    })
    .join('');
}

/** Whether the URL carries a credential: a user:password, or a credential-like query parameter (redactUrl's rules). */
export function hasUrlCredentials(url: string): boolean {
  return redactUrl(url) !== url;
}

/** URLs in free text: a scheme, then anything up to whitespace, a quote, an angle bracket or a backtick. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** The text with every URL in it redacted (redactUrl); text without a URL comes back unchanged. */
export function redactUrlsIn(text: string): string {
  // redactUrl changes only a userinfo (before an @) or a parameter's value (after an =): without either, every URL
  // comes back as it was. Most of a report's strings are URLs of neither kind, and the replace would copy each.
  if (!text.includes('://') || (!text.includes('@') && !text.includes('='))) return text;
  return text.replace(URL_IN_TEXT, redactUrl);
}

/** A copy of a JSON-like value with every string redacted (redactUrlsIn); unchanged parts are shared. */
export function redactUrlsDeep<T>(value: T): T {
  return walk(value) as T;
}

/** Copy on write: an array or object is copied only from its first changed item, so a clean report allocates nothing. */
function walk(value: unknown): unknown {
  if (typeof value === 'string') return redactUrlsIn(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = walk(item);
      if (out === undefined && next !== item) out = value.slice(0, i);
      out?.push(next);
    }
    return out ?? value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = record[key];
      const next = walk(item);
      if (out === undefined && next !== item) {
        out = {};
        for (const before of keys.slice(0, i)) out[before] = record[before];
      }
      if (out !== undefined) out[key] = next;
    }
    return out ?? value;
  }
  return value;
}
