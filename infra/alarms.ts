/**
 * The alarms: each named ragwatch-<env>-<collection>-<what> and described as an on-call engineer needs it at 3 a.m.:
 * what broke, then what to do. One cause pages once: a bad configuration fails the function, dead-letters the
 * invocation and silences the heartbeat at the same time, so those three carry no actions of their own; one composite,
 * "not-running", goes to ALARM when any of them does and notifies the alert topic (and the page topic, when there is
 * one) on ALARM and on OK. The three stay on the dashboard, where the composite's email sends the reader to see which one fired.
 */
import {
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cwActions,
  Duration,
  type aws_lambda as lambda,
  type aws_logs as logs,
  type aws_sns as sns,
  type aws_sqs as sqs,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { METRIC_NAMES } from '../functions/core/delivery/metric-data.ts';
import { dashboardName } from './dashboard.ts';
import { alarmName } from './names.ts';
import type { StackSettings } from './settings.ts';

export interface AlarmTargets {
  settings: StackSettings;
  fn: lambda.IFunction;
  logGroup: logs.ILogGroup;
  deadLetterQueue: sqs.IQueue;
  topic: sns.ITopic;
  /** The page route's topic (a pager, Slack), which the not-running alarm notifies too; none without one. */
  pageTopic?: sns.ITopic | undefined;
  /** A metric of the run's namespace and dimensions. */
  metric: (metricName: string, statistic: string, period?: Duration) => cloudwatch.Metric;
}

/** Creates every alarm and wires it to the topic. */
export function addAlarms(
  scope: Construct,
  t: AlarmTargets,
): { alarms: cloudwatch.Alarm[]; notRunning: cloudwatch.CompositeAlarm } {
  const { settings } = t;
  const where = `${settings.environment}/${settings.collection}`;
  const logs = `Logs Insights on log group ${t.logGroup.logGroupName}`;
  // One incident reaches a person once: the handler emails quality breaches and run errors itself, once per
  // incident (onset, escalation, recovery), so threshold alarms on PassRate, coverage, completeness or
  // RunSucceeded would repeat those emails. Only what the handler cannot report itself alarms: no run at all
  // (heartbeat), a failed invocation (function errors) and a dead-lettered one. See docs/DEPLOY.md.
  const alarms = [
    new cloudwatch.Alarm(scope, 'HeartbeatAlarm', {
      alarmName: alarmName(settings, 'heartbeat'),
      alarmDescription: `ragwatch ${where}: no nightly run has reported for ${settings.heartbeatHours} hours. What to do: look for a message in the dead-letter queue ${t.deadLetterQueue.queueName}, check the schedule is ENABLED, and search ${logs} for "invalid configuration" or a timeout; then run it now with npm run invoke.`,
      metric: t.metric(METRIC_NAMES.runSucceeded, cloudwatch.Stats.SAMPLE_COUNT, Duration.hours(1)),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      // As many one-hour periods as the schedule's longest gap between runs plus 2 h of slack (heartbeat-window.ts),
      // all empty: only a missed run fires.
      evaluationPeriods: settings.heartbeatHours,
      datapointsToAlarm: settings.heartbeatHours,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    }),
    new cloudwatch.Alarm(scope, 'FunctionErrorsAlarm', {
      alarmName: alarmName(settings, 'function-errors'),
      alarmDescription: `ragwatch ${where}: the function failed: an invalid configuration (no report, no email), or a run whose report could not be stored and whose email could not be sent. What to do: ${logs}, message "invalid configuration" lists every problem (fix the context values and redeploy); message "nothing delivered" names each failed sink, and "validation report (not stored)" holds the full report.`,
      metric: t.fn.metricErrors({ period: Duration.hours(1), statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }),
    new cloudwatch.Alarm(scope, 'DeadLettersAlarm', {
      alarmName: alarmName(settings, 'dead-letters'),
      alarmDescription: `ragwatch ${where}: a scheduled invocation or a failed run landed in the dead-letter queue ${t.deadLetterQueue.queueName}. What to do: read the message (aws sqs receive-message) for the error, fix it, then purge the queue so this alarm returns to OK.`,
      metric: t.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }),
  ];
  const notRunning = new cloudwatch.CompositeAlarm(scope, 'NotRunningAlarm', {
    compositeAlarmName: alarmName(settings, 'not-running'),
    alarmDescription: `ragwatch ${where}: the monitor is not running: ${alarmName(settings, 'heartbeat')} (no run for ${settings.heartbeatHours} h), ${alarmName(settings, 'function-errors')} (the function failed) or ${alarmName(settings, 'dead-letters')} (an invocation was dead-lettered) is in ALARM. What to do: see which of the three is red on the dashboard ${dashboardName(settings)}, then follow that alarm's own description; this one returns to OK when all three are.`,
    alarmRule: cloudwatch.AlarmRule.anyOf(
      ...alarms.map((alarm) => cloudwatch.AlarmRule.fromAlarm(alarm, cloudwatch.AlarmState.ALARM)),
    ),
  });
  for (const topic of [t.topic, ...(t.pageTopic ? [t.pageTopic] : [])]) {
    const action = new cwActions.SnsAction(topic);
    notRunning.addAlarmAction(action);
    notRunning.addOkAction(action);
  }
  return { alarms, notRunning };
}
