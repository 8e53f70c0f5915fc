/** The CDK app's entry point (cdk.json "app"): context comes from cdk.json and `-c key=value`; see docs/DEPLOY.md. */
import { buildNightlyApp } from './nightly-app.ts';

buildNightlyApp();
