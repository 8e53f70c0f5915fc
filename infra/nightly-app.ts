/**
 * Builds the CDK app: one nightly stack configured from context, with cdk-nag's AwsSolutions pack registered as a
 * policy-validation plugin, so an unacknowledged finding fails `cdk synth` exactly as it fails the tests.
 */
import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { acknowledgeNagFindings } from './nag-acknowledgements.ts';
import { NightlyStack } from './nightly-stack.ts';
import { readStackSettings } from './settings.ts';

/** The app and its stack; tests pass context and an output directory, the CLI passes nothing. */
export function buildNightlyApp(props: AppProps = {}): { app: App; stack: NightlyStack } {
  const app = new App(props);
  const settings = readStackSettings((key) => app.node.tryGetContext(key));
  const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'RagwatchNightly';
  const stack = new NightlyStack(app, stackName, {
    settings,
    description: 'ragwatch: nightly validation of a RAG system retrieval (Lambda, Scheduler, S3, CloudWatch, SNS)',
  });
  acknowledgeNagFindings(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}
