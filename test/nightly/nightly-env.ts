/** The smallest environment the nightly handler accepts, and the problems a configuration is refused with. */
import { InputError } from '../../functions/core/shared/errors.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';

export const VALID = {
  QDRANT_URL: 'https://qdrant.example.org:6333',
  DOCUSAURUS_BASE_URL: 'https://book.example.org',
  REPORT_BUCKET: 'ragwatch-reports-123',
  ALERT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ragwatch-alerts',
  COHERE_SECRET_ID: 'ragwatch/cohere',
};

/** Every problem parseNightlyConfig lists for `env` (none when it accepts it). */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    parseNightlyConfig(env);
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}
