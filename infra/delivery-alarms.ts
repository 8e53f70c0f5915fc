/**
 * A failed alert publish, and a refused metric write, each reach a person by another path than the one that failed.
 *
 * The function logs each failure as one JSON line (functions/nightly/log-events.ts): "alert not sent..." and
 * "metrics not published". A metric filter on its log group turns each line into a datapoint: CloudWatch Logs
 * publishes it, not the function, so neither the function's SNS rights nor its PutMetricData rights are involved.
 * Each metric has an alarm whose action is a second topic, under a key of its own, with the same email addresses:
 * when the alert topic itself is the fault (deleted, its KMS key disabled or its policy changed, an SCP), the
 * alarm's email still goes out; the composite `not-running` cannot say it, since it notifies the topic at fault.
 */
import {
  aws_cloudwatch as cloudwatch,
  aws_cloudwatch_actions as cwActions,
  Duration,
  aws_logs as logs,
  type aws_sns as sns,
} from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { alarmName, functionName } from './names.ts';
import type { StackSettings } from './settings.ts';

/** The log lines counted, by the start of their message (the function's own words). */
export const DELIVERY_FAILURE_LINES = {
  alertNotSent: 'alert not sent',
  metricsNotPublished: 'metrics not published',
} as const;

export interface DeliveryAlarmTargets {
  settings: StackSettings;
  logGroup: logs.ILogGroup;
  fallbackTopic: sns.ITopic;
  /** The alert topic, named in the descriptions. */
  topicName: string;
}

/** The two metric filters and their alarms, each notifying the fallback topic on ALARM. */
export function addDeliveryAlarms(scope: Construct, t: DeliveryAlarmTargets): cloudwatch.Alarm[] {
  const { settings } = t;
  const where = `${settings.environment}/${settings.collection}`;
  const logs_ = `Logs Insights on log group ${t.logGroup.logGroupName}`;
  const counted = [
    {
      id: 'AlertNotSent',
      metricName: 'AlertNotSent',
      // A prefix: "alert not sent" (the run's own alert) and "alert not sent; incident state put back ..." (a notice).
      pattern: logs.FilterPattern.stringValue('$.message', '=', `${DELIVERY_FAILURE_LINES.alertNotSent}*`),
      what: 'alert-not-sent',
      description: `ragwatch ${where}: the function could not publish an alert to its topic ${t.topicName}, so this email comes by the fallback topic. The incident state was put back, so the next run tries that email again. What to do: ${logs_}, message "alert not sent", field reason (AuthorizationError, KMS, NotFound, throttling); check that the topic exists, that its KMS key is enabled and that its policy lets the function's role publish; meanwhile read the run's report (latest.json under the report prefix).`,
    },
    {
      id: 'MetricsNotPublished',
      metricName: 'MetricsNotPublished',
      pattern: logs.FilterPattern.stringValue('$.message', '=', DELIVERY_FAILURE_LINES.metricsNotPublished),
      what: 'metrics-not-sent',
      description: `ragwatch ${where}: CloudWatch refused or dropped the run's metrics, so the dashboard has a gap and the heartbeat may fire later for a run that did happen. The run's report and email are not affected. What to do: ${logs_}, message "metrics not published", field reason (a 400 names the bad datum; AccessDenied: the role's PutMetricData condition on namespace ${settings.metricNamespace}).`,
    },
  ];
  const action = new cwActions.SnsAction(t.fallbackTopic);
  return counted.map((c) => {
    new logs.MetricFilter(scope, `${c.id}Filter`, {
      logGroup: t.logGroup,
      filterName: alarmName(settings, c.what),
      filterPattern: c.pattern,
      metricNamespace: settings.metricNamespace,
      metricName: c.metricName,
      metricValue: '1',
      // The function's name (ragwatch-<env>-<collection>, on every line) keeps two deployments in one namespace apart.
      dimensions: { FunctionName: '$.function_name' },
      unit: cloudwatch.Unit.COUNT,
    });
    const alarm = new cloudwatch.Alarm(scope, `${c.id}Alarm`, {
      alarmName: alarmName(settings, c.what),
      alarmDescription: c.description,
      metric: new cloudwatch.Metric({
        namespace: settings.metricNamespace,
        metricName: c.metricName,
        dimensionsMap: { FunctionName: functionName(settings) },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.hours(1),
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    // ALARM only: its OK an hour later says no more lines were logged, not that anything was fixed.
    alarm.addAlarmAction(action);
    return alarm;
  });
}
