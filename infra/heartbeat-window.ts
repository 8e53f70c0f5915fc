/**
 * How long the heartbeat alarm waits for a run, derived from the schedule expression: the longest gap between two
 * scheduled runs, plus 2 hours of slack (a run's own 10 minutes, the metric's arrival, and the hour a daylight-saving
 * change moves a cron in a local time zone). A weekly cron under a fixed 26 h window would alarm 6 days of 7.
 *
 * A CloudWatch alarm on 1-hour periods looks back 7 days (168 h) at most, so a schedule whose runs are further apart
 * than 166 h (weekly, monthly, a one-time `at(...)`) cannot have a heartbeat that tells a missed run from a quiet
 * week: it is refused, with why and what to use instead. Only the cron forms whose gaps this can compute exactly are
 * accepted; anything else is refused rather than guessed.
 */

/** Slack added to the longest gap between runs, in hours. */
const HEARTBEAT_SLACK_HOURS = 2;
/** The longest window a CloudWatch alarm on 1-hour periods can evaluate (7 days). */
export const MAX_HEARTBEAT_HOURS = 168;

const MINUTES_PER_WEEK = 7 * 24 * 60;
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export type HeartbeatWindow = { ok: true; hours: number } | { ok: false; reason: string };

/** The heartbeat window for an EventBridge Scheduler expression, or why none can be derived. */
export function heartbeatWindow(expression: string): HeartbeatWindow {
  const gap = longestGapMinutes(expression.trim());
  if (typeof gap === 'string') return { ok: false, reason: gap };
  const hours = Math.ceil(gap / 60) + HEARTBEAT_SLACK_HOURS;
  if (hours > MAX_HEARTBEAT_HOURS)
    return {
      ok: false,
      reason: `runs up to ${formatGap(gap)} apart; a CloudWatch alarm looks back ${MAX_HEARTBEAT_HOURS} h at most, so a missed run could not page anyone. Run at least every ${MAX_HEARTBEAT_HOURS - HEARTBEAT_SLACK_HOURS} h (e.g. cron(0 3 ? * SUN,WED *) or daily)`,
    };
  return { ok: true, hours };
}

/** The longest time between two scheduled runs in minutes, or why it cannot be told. */
function longestGapMinutes(expression: string): number | string {
  const rate = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(expression);
  if (rate) {
    const unit = rate[2]?.startsWith('minute') ? 1 : rate[2]?.startsWith('hour') ? 60 : 1440;
    return Number(rate[1]) * unit;
  }
  if (expression.startsWith('at(')) return 'a one-time at(...) schedule has no next run for a heartbeat to expect';
  const cron = /^cron\((.+)\)$/.exec(expression);
  if (!cron) return 'must be cron(...) or rate(...)';
  const fields = (cron[1] ?? '').trim().split(/\s+/);
  if (fields.length !== 6) return `cron(...) needs 6 fields (minutes hours day-of-month month day-of-week year)`;
  const [minute, hour, dayOfMonth, month, dayOfWeek, year] = fields as [string, string, string, string, string, string];
  if (!['*', '?'].includes(dayOfMonth) || month !== '*' || year !== '*')
    return 'a cron with a day of month, month or year runs further apart than a week can show; use a daily or day-of-week schedule';
  const minutes = values(minute, 0, 59);
  const hours = values(hour, 0, 23);
  const days = dayOfWeek === '?' || dayOfWeek === '*' ? [0, 1, 2, 3, 4, 5, 6] : weekDays(dayOfWeek);
  if (minutes === null) return `cron minutes "${minute}" not understood (a number, a list, a range or */n)`;
  if (hours === null) return `cron hours "${hour}" not understood (a number, a list, a range or */n)`;
  if (days === null) return `cron day-of-week "${dayOfWeek}" not understood (SUN-SAT or 1-7, a list or a range)`;
  const runs = days
    .flatMap((d) => hours.flatMap((h) => minutes.map((m) => d * 1440 + h * 60 + m)))
    .sort((a, b) => a - b);
  let longest = 0;
  for (const [i, run] of runs.entries()) {
    const next = runs[i + 1] ?? (runs[0] ?? run) + MINUTES_PER_WEEK;
    longest = Math.max(longest, next - run);
  }
  return longest;
}

/** The values a cron field of numbers names (n, a,b, a-b, *, * /n, a/n), or null when not understood. */
function values(field: string, min: number, max: number): number[] | null {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) return null;
    const from = match[1] === '*' ? min : Number(match[2]);
    const to = match[1] === '*' || (match[4] !== undefined && match[3] === undefined) ? max : Number(match[3] ?? from);
    const step = Number(match[4] ?? 1);
    if (from < min || to > max || from > to || step < 1) return null;
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return [...out];
}

/** The days a day-of-week field names, 0 = Sunday (EventBridge counts 1 = SUN ... 7 = SAT). */
function weekDays(field: string): number[] | null {
  const named = field.toUpperCase().replace(/[A-Z]{3}/g, (name) => {
    const index = DAY_NAMES.indexOf(name);
    return index < 0 ? name : String(index + 1);
  });
  const days = values(named, 1, 7);
  return days === null ? null : days.map((d) => d - 1);
}

function formatGap(minutes: number): string {
  const hours = minutes / 60;
  return Number.isInteger(hours) ? `${hours} h` : `${hours.toFixed(1)} h`;
}
