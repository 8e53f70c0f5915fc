/**
 * A sitemap's body as a stream of text, decompressed when it is gzip, never more than a byte cap. Nothing here
 * holds the whole body: memory stays at a few chunks whatever the size of the file (or of a gzip bomb's output).
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { GzipError } from './errors.ts';

/** How much of the body was read, and whether the cap cut it. */
export interface BodyProgress {
  /** Bytes after decompression. */
  bytes: number;
  /** True when the decompressed body reached `maxBytes` and reading stopped there. */
  capped: boolean;
}

/**
 * Yields the body as UTF-8 text until it ends or `maxBytes` decompressed bytes have been read (then `progress.capped`).
 * A .xml.gz sitemap arrives as gzip bytes (not Content-Encoding, which fetch undoes itself), recognised by its
 * magic number. Leaving the loop early, or an error, releases the connection and the decompressor.
 */
export async function* readSitemapBody(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  progress: BodyProgress,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of decompressed(body)) {
    const room = maxBytes - progress.bytes;
    // A body of exactly maxBytes is whole; only a byte beyond it means the file was cut.
    const over = chunk.byteLength > room;
    const part = over ? chunk.subarray(0, room) : chunk;
    progress.bytes += part.byteLength;
    const text = decoder.decode(part, { stream: true });
    if (text !== '') yield text;
    if (over) {
      progress.capped = true;
      return;
    }
  }
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

async function* decompressed(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  // The magic number needs two bytes; a first chunk of one byte is joined with the next.
  let head: Uint8Array = new Uint8Array(0);
  while (head.byteLength < 2) {
    const next = await chunks.next();
    if (next.done) break;
    head = head.byteLength === 0 ? next.value : Buffer.concat([head, next.value]);
  }
  let sourceError: unknown;
  const rest = (async function* () {
    if (head.byteLength > 0) yield head;
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    } catch (error) {
      sourceError = error;
      throw error;
    }
  })();
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest;
    return;
  }
  const gunzip = createGunzip();
  // pipeline, not pipe: a network error on the source must reach the reader, and an early exit must end both.
  pipeline(Readable.from(rest), gunzip, () => undefined);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    // A timeout or a reset connection is not a corrupt file.
    throw sourceError ?? new GzipError(error);
  } finally {
    gunzip.destroy();
  }
}
