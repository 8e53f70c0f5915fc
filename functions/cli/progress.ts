/**
 * A progress bar on a terminal: queries searched so far, and the stage that is running. Only on a TTY;
 * a pipe or a CI log gets the summary alone.
 */
import cliProgress from 'cli-progress';
import type { ProgressListener } from '../core/ports.ts';

/** A progress listener drawing one bar on the given stream; call stop() before printing anything else. */
export function createProgressReporter(stream: NodeJS.WriteStream): { listener: ProgressListener; stop(): void } {
  const bar = new cliProgress.SingleBar(
    { stream, format: 'ragwatch |{bar}| {value}/{total} queries · {stage}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  const running = new Set<string>();
  let started = false;
  const listener: ProgressListener = (event) => {
    if (event.kind === 'stage') {
      if (event.status === 'started') running.add(event.stage);
      else running.delete(event.stage);
      if (started) bar.update({ stage: [...running].join(', ') || 'analysing' });
      return;
    }
    if (!started) {
      bar.start(event.total, 0, { stage: [...running].join(', ') });
      started = true;
    }
    bar.update(event.done, { stage: [...running].join(', ') });
  };
  return { listener, stop: () => started && bar.stop() };
}
