/**
 * The cdk-nag AwsSolutions findings this stack accepts, each on the construct it concerns and with the reason it is
 * right here. Anything not listed fails the synth and the tests. Every IAM wildcard is acknowledged on a policy that
 * holds that one statement (see NightlyStack#grant), so the acknowledgement cannot cover a statement added later:
 * an unrelated `Resource::*` on the function's role is a finding, and the synth fails.
 */
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { NightlyStack } from './nightly-stack.ts';

const ack = (construct: IConstruct, rule: string, reason: string) =>
  Validations.of(construct).acknowledge({ id: `AwsSolutions::AwsSolutions-${rule}`, reason });

/** Attaches every acknowledgment to the resource it concerns. */
export function acknowledgeNagFindings(stack: NightlyStack): void {
  ack(
    stack.bucket,
    'S1',
    'The only writer is the nightly function, which logs every report it stores (key and run id); reads are by ops in the console. Server access logs would need a second bucket whose own logs nobody reads; CloudTrail S3 data events are the account-level audit path if one is required.',
  );
  ack(
    stack.deadLetterQueue,
    'SQS3',
    'This queue is itself the dead-letter queue: of the EventBridge Scheduler target and of the function’s failed async invocations. A DLQ of a DLQ would only move the same messages again.',
  );
  const bucketArn = `<${logicalId(stack, stack.bucket.node.defaultChild)}.Arn>`;
  const { writeReports, readHistory, putMetrics, encryptAlerts } = stack.scopedPolicies;
  ack(
    writeReports,
    `IAM5[Resource::${bucketArn}/reports/*]`,
    'PutObject is limited to the reports/ prefix; each run writes new keys (reports/<collection>/<date>/<run_id>.json, .html, .csv), latest.json and the incident state, so the keys cannot be listed in advance.',
  );
  ack(
    readHistory,
    `IAM5[Resource::${bucketArn}/reports/*]`,
    'GetObject is limited to the reports/ prefix; each run reads the last runs’ reports back for its baseline, latest.json and the incident state, whose keys carry dates and run ids, so they cannot be listed in advance.',
  );
  ack(
    putMetrics,
    'IAM5[Resource::*]',
    'cloudwatch:PutMetricData supports no resource-level permission; the statement is narrowed by the cloudwatch:namespace condition to this stack’s metric namespace.',
  );
  ack(
    encryptAlerts,
    'IAM5[Action::kms:GenerateDataKey*]',
    'SNS asks for a data key (GenerateDataKey and its variants) to encrypt each published alert; the statement is limited to the alert topic’s own key.',
  );
  const schedulerRole = stack.node.children.find((c) => c.node.id.startsWith('SchedulerRoleForTarget'));
  if (schedulerRole !== undefined)
    ack(
      schedulerRole,
      `IAM5[Resource::<${logicalId(stack, stack.function.node.defaultChild)}.Arn>:*]`,
      'The Scheduler role may invoke only the nightly function; the :* suffix (from aws-scheduler-targets’ LambdaInvoke) covers that function’s versions and aliases, nothing else.',
    );
}

function logicalId(stack: NightlyStack, resource: IConstruct | undefined): string {
  return resource === undefined ? '' : stack.resolve((resource as unknown as { logicalId: string }).logicalId);
}
