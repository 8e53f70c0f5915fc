/**
 * The IncidentStore port for the CLI: <dir>/<collection>/incidents-<environment>.json, beside its reports.
 * The version is a SHA-256 of the file's bytes. A write checks it, then writes a temporary file and renames it
 * into place; between the check and the rename another process could still write (a local folder has no
 * compare-and-swap), which is acceptable for a terminal tool that one person runs at a time.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncidentStore, VersionedIncidentState } from '../../core/ports.ts';
import type { IncidentState } from '../../core/report/incident-state.ts';
import { pathSegment } from '../path-segment.ts';
import { errnoOf, fileSinkError } from './errors.ts';

type Key = { collection: string; environment: string };
const safe = (name: string) => pathSegment(name);

export class FileIncidentStore implements IncidentStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(key: Key): string {
    return path.join(this.#dir, safe(key.collection), `incidents-${safe(key.environment)}.json`);
  }

  async read(key: Key): Promise<VersionedIncidentState> {
    const text = await readFile(this.#file(key), 'utf8').catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return null;
      throw fileSinkError(error);
    });
    if (text === null) return { state: null, version: null };
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch {
      state = { unparseable: true };
    }
    return { state, version: hash(text) };
  }

  async write(key: Key, state: IncidentState, version: string | null): Promise<string | null> {
    const file = this.#file(key);
    const current = await this.read(key);
    if (current.version !== version) return null;
    const text = `${JSON.stringify(state, null, 2)}\n`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, text, 'utf8');
      await rename(tmp, file);
    } catch (error) {
      throw fileSinkError(error);
    }
    return hash(text);
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
