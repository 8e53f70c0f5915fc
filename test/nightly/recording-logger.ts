/** A NightlyLogger that keeps every line (with the keys appended so far) for tests to read. */
import type { NightlyLogger } from '../../functions/nightly/deps.ts';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  extra: Record<string, unknown>;
  keys: Record<string, unknown>;
}

export class RecordingLogger implements NightlyLogger {
  readonly lines: LogLine[] = [];
  #keys: Record<string, unknown> = {};

  info(message: string, extra: Record<string, unknown>): void {
    this.#record('info', message, extra);
  }

  warn(message: string, extra: Record<string, unknown>): void {
    this.#record('warn', message, extra);
  }

  error(message: string, extra: Record<string, unknown>): void {
    this.#record('error', message, extra);
  }

  appendKeys(keys: Record<string, unknown>): void {
    this.#keys = { ...this.#keys, ...keys };
  }

  /** Every line as the JSON Powertools would print, for "never contains" checks. */
  text(): string {
    return this.lines.map((l) => JSON.stringify({ ...l.keys, message: l.message, ...l.extra })).join('\n');
  }

  find(message: string): LogLine | undefined {
    return this.lines.find((l) => l.message === message);
  }

  #record(level: LogLine['level'], message: string, extra: Record<string, unknown>): void {
    this.lines.push({ level, message, extra, keys: { ...this.#keys } });
  }
}
