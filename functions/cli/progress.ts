/**
 * A progress bar on a terminal: queries settled so far (searched, or known never to be), and the stage that is
 * running. Only on a TTY; a pipe or a CI log gets the summary alone.
 */
import cliProgress from 'cli-progress';
import type { ProgressListener } from '../core/ports.ts';
import { EXIT } from './exit-codes.ts';

/** A progress listener drawing one bar on the given stream; call stop() before printing anything else. */
export function createProgressReporter(stream: NodeJS.WriteStream): { listener: ProgressListener; stop(): void } {
  const bar = new cliProgress.SingleBar(
    { stream, format: 'ragwatch |{bar}| {value}/{total} queries · {stage}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  const running = new Set<string>();
  let started = false;
  // The bar hides the cursor while it draws. Ctrl-C would end the process with the cursor still hidden (Node's
  // default for SIGINT exits at once), leaving the user's shell without one: stop the bar first, which shows it.
  const interrupted = () => {
    bar.stop();
    stream.write('ragwatch: interrupted; no report was written\n');
    process.exit(EXIT.interrupted);
  };
  const listener: ProgressListener = (event) => {
    if (event.kind === 'stage') {
      if (event.status === 'started') running.add(event.stage);
      else running.delete(event.stage);
      if (started) bar.update({ stage: [...running].join(', ') || 'analysing' });
      return;
    }
    if (!started) {
      // The handler first: a Ctrl-C that lands between the bar hiding the cursor and the handler being there would
      // end the process with the cursor hidden (seen once in the terminal test on a loaded machine).
      process.once('SIGINT', interrupted);
      bar.start(event.total, 0, { stage: [...running].join(', ') });
      started = true;
    }
    bar.update(event.done, { stage: [...running].join(', ') });
  };
  return {
    listener,
    stop: () => {
      if (!started) return;
      process.removeListener('SIGINT', interrupted);
      bar.stop();
    },
  };
}
