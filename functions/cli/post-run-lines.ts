/**
 * The CLI's side of the post-run use case: its notices and what happened on the way, as lines on stderr. A notice
 * is the line the nightly job would have emailed; there is no run alert (the summary on stdout is the run's own).
 */

import type { StoredFile } from '../adapters/files/report-store.ts';
import type { Notifier, PostRunEvent } from '../core/post-run/ports.ts';
import { redactUrlsIn } from '../core/shared/redact-url.ts';

/** One line per incident notice, sent to stderr. */
export const stderrNotices: Notifier<StoredFile> = {
  composeNotice: ({ kind, track, incident, breaches }) => ({
    subject: `${track} incident ${kind} [${incident.severity}] since ${incident.opened.started_at}: ${(kind === 'recovery' ? incident.breaches : breaches).map((b) => b.summary).join('; ')}`,
    body: '',
    severity: incident.severity,
  }),
  composeRunAlert: () => null,
  send: async (message) => {
    process.stderr.write(`ragwatch: ${redactUrlsIn(message.subject)}\n`);
    return { messageId: '' };
  },
};

/** Prints what a person at the terminal needs to know of the post-run steps; `out` is the report folder. */
export function printPostRunEvent(event: PostRunEvent, out: string): void {
  const line = lineOf(event, out);
  if (line !== null) process.stderr.write(`ragwatch: ${redactUrlsIn(line)}\n`);
}

function lineOf(event: PostRunEvent, out: string): string | null {
  switch (event.kind) {
    case 'history_not_read':
      return `earlier reports under ${out} not read: ${event.reason}`;
    case 'report_not_stored':
      // Nothing is lost: if the report cannot be written, it goes to stderr in full.
      return `could not write the report under ${out}: ${event.reason}\n${JSON.stringify(event.report)}`;
    case 'latest_not_updated':
      return `latest.json not updated under ${out}: ${event.reason}`;
    case 'runs_page_not_written':
      return `index.html (the page of past runs) not written under ${out}: ${event.reason}`;
    case 'incidents_unavailable':
      return event.reason;
    default:
      // The rest is for the Lambda's log: the summary on stdout says the run, each notice was printed as sent.
      return null;
  }
}
