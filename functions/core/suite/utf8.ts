/**
 * Strict UTF-8 for suite files: a byte that is not valid UTF-8 is refused with its offset, rather than silently
 * replaced by U+FFFD (which would change a query's text, or an expected URL, without anyone seeing it).
 */

/** Where the first invalid UTF-8 sequence starts, or -1 when every byte is valid (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const [length, min, max] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b >= 0xf1 && b <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : b === 0xf4
                    ? [4, 0x80, 0x8f]
                    : [0, 0, 0];
    if (length === 0 || i + length > bytes.length) return i;
    const second = bytes[i + 1] ?? 0;
    if (second < min || second > max) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k] ?? 0;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/** Decodes UTF-8 (a leading BOM dropped), or returns the problem naming the byte offset, line and column. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: string } {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return { text: new TextDecoder('utf-8').decode(bytes) };
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  const hex = (bytes[offset] ?? 0).toString(16).padStart(2, '0');
  return {
    problem: `not valid UTF-8: byte 0x${hex} at byte offset ${offset} (line ${line}, column ${column}); save the file as UTF-8`,
  };
}
