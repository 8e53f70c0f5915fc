/**
 * The names a person reads: the function, the alarms and the dashboard share one prefix, ragwatch-<env>-<collection>,
 * so an alarm email, a console search and a log group all say which deployment they belong to. The topic policy and
 * the KMS key let CloudWatch publish for alarms under this prefix only, so the prefix is built here, once.
 */
import type { StackSettings } from './settings.ts';

/** `ragwatch-<environment>-<collection>`, with anything CloudWatch or Lambda would refuse turned into '-'. */
export function deploymentPrefix(settings: Pick<StackSettings, 'environment' | 'collection'>): string {
  return `ragwatch-${settings.environment}-${settings.collection}`.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** The function's name (Lambda allows 64 characters), fixed so `npm run invoke` and people can find it. */
export function functionName(settings: Pick<StackSettings, 'environment' | 'collection'>): string {
  return deploymentPrefix(settings).slice(0, 64);
}

/** One alarm's name, e.g. ragwatch-prod-book-heartbeat. */
export function alarmName(settings: Pick<StackSettings, 'environment' | 'collection'>, what: string): string {
  return `${deploymentPrefix(settings)}-${what}`;
}
