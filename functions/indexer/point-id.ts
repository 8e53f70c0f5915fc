/**
 * Deterministic point ids, so re-indexing the same page overwrites its points instead of adding copies: an RFC 4122
 * version-5 UUID (SHA-1 of a namespace and a name) of `${source_url}#${chunk_index}` in the URL namespace. Any UUID v5
 * library gives the same id, e.g. Python's `uuid.uuid5(uuid.NAMESPACE_URL, name)`.
 */
import { createHash } from 'node:crypto';

/** The RFC 4122 namespace for names that are URLs. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** The id of the chunk at `chunkIndex` of the page at `sourceUrl`. */
export function pointIdFor(sourceUrl: string, chunkIndex: number): string {
  return uuidV5(`${sourceUrl}#${chunkIndex}`, URL_NAMESPACE);
}

/** An RFC 4122 version-5 UUID of `name` (UTF-8) in `namespace` (a UUID). */
export function uuidV5(name: string, namespace: string): string {
  const namespaceHex = namespace.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(namespaceHex)) throw new Error(`uuidV5: namespace must be a UUID, got "${namespace}"`);
  const hash = createHash('sha1').update(Buffer.from(namespaceHex, 'hex')).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50; // version 5
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
