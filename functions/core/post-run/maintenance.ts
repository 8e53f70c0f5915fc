/**
 * A planned maintenance window (a re-index): while it lasts the runs still happen and their reports are stored and
 * say "maintenance", but no incident moves and no email goes out. The window is an S3 object an operator writes
 * (docs/DEPLOY.md): `{"until": "<ISO time>", "reason": "..."}`. It ends on its own at `until`, and a window longer
 * than MAINTENANCE_MAX_DAYS is refused, so a marker left behind or a typo in the year cannot silence the monitor.
 * Pure: the marker's text and the clock in, the verdict out.
 */
import { MaintenanceWindow } from '../report/maintenance-window.ts';
import { truncate } from '../shared/errors.ts';

/** The longest window a marker may ask for: a week covers a re-index of any book this monitors. */
export const MAINTENANCE_MAX_DAYS = 7;

/** Active: hold the alerts. Not active: alert as usual; `note` says why a marker that exists was not honoured. */
export type MaintenanceVerdict = { active: true; window: MaintenanceWindow } | { active: false; note: string | null };

/** Reads the marker at `where` (its text, undefined when there is none) as of `now`. */
export function judgeMaintenance(text: string | undefined, now: Date, where: string): MaintenanceVerdict {
  if (text === undefined) return { active: false, note: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { active: false, note: `maintenance marker ${where} is not JSON: alerting as usual` };
  }
  const result = MaintenanceWindow.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return {
      active: false,
      note: `maintenance marker ${where} is not valid (${truncate(problems, 200)}): alerting as usual`,
    };
  }
  const until = Date.parse(result.data.until);
  const window = { ...result.data, until: new Date(until).toISOString() };
  if (until <= now.getTime())
    return {
      active: false,
      note: `maintenance window ${where} ended at ${window.until}: alerting as usual (delete the marker)`,
    };
  if (until - now.getTime() > MAINTENANCE_MAX_DAYS * 86_400_000)
    return {
      active: false,
      note: `maintenance marker ${where} asks for a window until ${window.until}, more than ${MAINTENANCE_MAX_DAYS} days ahead: refused, alerting as usual`,
    };
  return { active: true, window };
}
