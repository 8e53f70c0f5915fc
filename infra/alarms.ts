/**
 * The alarms: each named ragwatch-<env>-<collection>-<what> and described as an on-call engineer needs it at 3 a.m.:
 * what broke, then what to do. All notify the alert topic on ALARM and on OK.
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
import { alarmName } from './names.ts';
import type { StackSettings } from './settings.ts';

export interface AlarmTargets {
  settings: StackSettings;
  fn: lambda.IFunction;
  logGroup: logs.ILogGroup;
  deadLetterQueue: sqs.IQueue;
  topic: sns.ITopic;
  /** A metric of the run's namespace and dimensions. */
  metric: (metricName: string, statistic: string, period?: Duration) => cloudwatch.Metric;
}

/** Creates every alarm and wires it to the topic. */
export function addAlarms(scope: Construct, t: AlarmTargets): cloudwatch.Alarm[] {
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
      alarmDescription: `ragwatch ${where}: no nightly run has reported for 26 hours. What to do: look for a message in the dead-letter queue ${t.deadLetterQueue.queueName}, check the schedule is ENABLED, and search ${logs} for "invalid configuration" or a timeout; then run it now with npm run invoke.`,
      metric: t.metric(METRIC_NAMES.runSucceeded, cloudwatch.Stats.SAMPLE_COUNT, Duration.hours(1)),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      // 26 one-hour periods, all empty: a night's run lands once a day, so only a missed night (plus 2 h slack) fires.
      evaluationPeriods: 26,
      datapointsToAlarm: 26,
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
  const action = new cwActions.SnsAction(t.topic);
  for (const alarm of alarms) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
  return alarms;
}
