/**
 * An IncidentStore in memory with the conditional write of the real ones (S3's If-Match / If-None-Match): a write
 * naming a version that is no longer current returns null. `beforeWrite` lets a test play another run that writes
 * first.
 */

import type { IncidentStore, VersionedIncidentState } from '../../functions/core/ports.ts';
import type { IncidentState } from '../../functions/core/report/incident-state.ts';

type Key = { collection: string; environment: string };

export class MemoryIncidentStore implements IncidentStore {
  state: unknown = null;
  version: string | null = null;
  /** Every write that landed, in order, with the version it replaced. */
  readonly writes: { state: IncidentState; replaced: string | null }[] = [];
  readonly keys: Key[] = [];
  reads = 0;
  private versions = 0;

  private readonly beforeWrite: ((store: MemoryIncidentStore) => void) | undefined;

  constructor(beforeWrite?: (store: MemoryIncidentStore) => void) {
    this.beforeWrite = beforeWrite;
  }

  /** Stores `state` as another writer would (a new version). */
  put(state: unknown): string {
    this.state = state;
    this.version = `v${++this.versions}`;
    return this.version;
  }

  async read(key: Key): Promise<VersionedIncidentState> {
    this.reads += 1;
    this.keys.push(key);
    return { state: structuredClone(this.state), version: this.version };
  }

  async write(key: Key, state: IncidentState, version: string | null): Promise<string | null> {
    this.keys.push(key);
    this.beforeWrite?.(this);
    if (version !== this.version) return null;
    this.writes.push({ state: structuredClone(state), replaced: version });
    return this.put(structuredClone(state));
  }
}
