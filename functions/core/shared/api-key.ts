/**
 * An API key travels in an HTTP header, which carries printable ASCII only: a key pasted with a typographic quote,
 * a non-breaking space or a line break inside fails in the HTTP client with "Cannot convert argument to a
 * ByteString ... index 4 has a value of 10003", which names neither the secret nor the service and discloses a
 * character of the key as its code. Checked where a key is read (configuration, Secrets Manager) instead, with a
 * message that names where it came from and the service, and quotes nothing of the key.
 */

/** Visible ASCII, no space: what an API key is made of and what an HTTP header can carry. */
const USABLE = /^[\x21-\x7e]+$/;

/** Why `key` cannot be sent as an API key, never quoting it; null when it can. */
export function unusableApiKeyReason(key: string): string | null {
  if (USABLE.test(key)) return null;
  const bad = [...key].filter((char) => !USABLE.test(char)).length;
  return (
    `holds ${bad} character${bad === 1 ? '' : 's'} that an HTTP header cannot carry (a key is printable ASCII ` +
    'without spaces; look for a typographic quote, a non-breaking space or a line break pasted with it)'
  );
}
