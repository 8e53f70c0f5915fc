/** The per-run gate in front of a dependency: how many hard failures in a row close it, and which close it at once. */
import { describe, expect, it } from 'vitest';
import { DependencyGate } from '../../functions/adapters/transport.ts';
import { IndexError } from '../../functions/core/shared/errors.ts';

const fails = (error: Error) => () => Promise.reject(error);
const answers = () => Promise.resolve('ok');
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: Error) => e.message,
  );

describe('DependencyGate', () => {
  const timeout = new IndexError('Qdrant search timed out after 10000 ms', 'timeout');

  it('with 2 strikes, stays open after one timed-out call and closes after two in a row', async () => {
    const gate = new DependencyGate('Qdrant', { strikes: 2 });
    expect(await outcome(gate.run(fails(timeout)))).toBe(timeout.message);
    expect(await outcome(gate.run(answers))).toBe('ok');
    expect(await outcome(gate.run(fails(timeout)))).toBe(timeout.message);
    const second = new IndexError('Qdrant facet timed out after 10000 ms', 'timeout');
    expect(await outcome(gate.run(fails(second)))).toBe(second.message);
    // Closed, naming the first failure of the two in a row.
    expect(await outcome(gate.run(answers))).toBe(
      `Qdrant not tried again: it failed earlier in this run (${timeout.message})`,
    );
  });

  it('counts no strike for a failure after the caller’s own stop aborted, and one before it', async () => {
    const gate = new DependencyGate('Cohere');
    const stop = new AbortController();
    const cut = () => {
      stop.abort();
      return Promise.reject(timeout);
    };
    expect(await outcome(gate.run(cut, stop.signal))).toBe(timeout.message);
    // The caller ran out of time; Cohere did not fail: still open.
    expect(await outcome(gate.run(answers, stop.signal))).toBe('ok');
    expect(await outcome(gate.run(fails(timeout), new AbortController().signal))).toBe(timeout.message);
    expect(await outcome(gate.run(answers))).toMatch(/^Cohere not tried again/);
  });

  it('with 1 strike (the default), closes on the first hard failure', async () => {
    const gate = new DependencyGate('Cohere');
    await outcome(gate.run(fails(timeout)));
    expect(await outcome(gate.run(answers))).toMatch(/^Cohere not tried again/);
  });

  it('closes at once on a refused key, whatever the strikes; an answer (5xx, 429) never counts', async () => {
    const refused = new IndexError('Qdrant search answered 401', 'unauthorized', { status: 401 });
    const gate = new DependencyGate('Qdrant', { strikes: 2 });
    await outcome(gate.run(fails(refused)));
    expect(await outcome(gate.run(answers))).toMatch(/^Qdrant not tried again: .*answered 401\)$/);
    const answering = new DependencyGate('Qdrant', { strikes: 2 });
    const busy = new IndexError('Qdrant search answered 503', 'unavailable', { status: 503 });
    for (let i = 0; i < 3; i++) await outcome(answering.run(fails(busy)));
    expect(await outcome(answering.run(answers))).toBe('ok');
  });

  it('counts an unreachable dependency (no HTTP status) as a hard failure', async () => {
    const refused = new IndexError('Qdrant is unreachable (ECONNREFUSED)', 'unavailable');
    const gate = new DependencyGate('Qdrant', { strikes: 2 });
    await outcome(gate.run(fails(refused)));
    expect(await outcome(gate.run(answers))).toBe('ok');
    await outcome(gate.run(fails(refused)));
    await outcome(gate.run(fails(refused)));
    expect(await outcome(gate.run(answers))).toMatch(/^Qdrant not tried again/);
  });
});
