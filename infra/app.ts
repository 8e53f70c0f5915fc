/** The CDK app's entry point (cdk.json "app"): context comes from cdk.json and `-c key=value`; see docs/DEPLOY.md. */
import { buildNightlyApp } from './nightly-app.ts';
import { ContextError } from './settings.ts';

try {
  buildNightlyApp();
} catch (error) {
  // Bad context is the user's to fix and its message lists every problem: a stack trace after it only hides it.
  if (!(error instanceof ContextError)) throw error;
  process.stderr.write(`${error.message}\n`);
  // Exit now: on a normal exit the App would synthesize the half-built stack and add a template warning below the
  // message. The message is one short write, taken whole by the pipe before the exit.
  process.exit(1);
}
