/** The parent's side of bench/engine-child.ts: fork the engine bundle, ask it for runs, stop it. */
import { type ChildProcess, fork } from 'node:child_process';
import type { ChildMessage, EngineFigures, ParentMessage } from './engine-child.ts';

/** A running engine process. */
export interface EngineProcess {
  /** RSS once its modules are loaded and its adapters built, before any run. */
  baselineRssMb: number;
  /** Runs the full validation once; the first run is the cold one. */
  run(): Promise<EngineFigures>;
  stop(): Promise<void>;
}

/**
 * Forks `bundle` with only the variables in `env` (nothing from this shell reaches the engine's configuration) and
 * waits until it is ready. `--expose-gc` only lets the child measure its live heap after a run; it triggers no
 * collection before the peak is read.
 */
export async function startEngineProcess(options: {
  bundle: string;
  env: Record<string, string>;
  nodeFlags: string[];
}): Promise<EngineProcess> {
  const child: ChildProcess = fork(options.bundle, {
    env: options.env,
    stdio: 'inherit',
    execArgv: ['--expose-gc', ...options.nodeFlags],
  });
  let pending: { resolve: (m: ChildMessage) => void; reject: (e: Error) => void } | undefined;
  const next = () =>
    new Promise<ChildMessage>((resolve, reject) => {
      pending = { resolve, reject };
    });
  child.on('message', (message: ChildMessage) => pending?.resolve(message));
  child.on('exit', (code) => pending?.reject(new Error(`the engine process exited (${code}) before answering`)));
  const ready = await next();
  if (ready.type !== 'ready') throw new Error('the engine process did not start');
  return {
    baselineRssMb: ready.baselineRssMb,
    run: async () => {
      const answer = next();
      child.send({ type: 'run' } satisfies ParentMessage);
      const message = await answer;
      if (message.type !== 'figures') throw new Error('the engine process answered out of turn');
      return message.figures;
    },
    stop: () => {
      pending = undefined;
      if (child.exitCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'exit' } satisfies ParentMessage);
      return exited;
    },
  };
}
