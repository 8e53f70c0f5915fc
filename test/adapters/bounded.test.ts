import { describe, expect, it } from 'vitest';
import { awsClientSettings } from '../../functions/adapters/aws/clients.ts';
import { withinBound } from '../../functions/adapters/bounded.ts';
import { startRunDeadline } from '../../functions/adapters/run-deadline.ts';

const never = () => new Promise<never>(() => undefined);

describe('withinBound', () => {
  it('returns what the work returns when it finishes in time', async () => {
    expect(await withinBound({ what: 'S3 report', ms: 1000 }, async () => 'stored')).toBe('stored');
  });

  it('rejects naming the sink and its bound when the work ignores the signal and never ends', async () => {
    await expect(withinBound({ what: 'SNS alert', ms: 20 }, never)).rejects.toThrow(
      'SNS alert did not finish within its 20 ms bound',
    );
  });

  it('aborts the signal it hands the work when the bound is reached', async () => {
    let seen: AbortSignal | undefined;
    await withinBound({ what: 'CloudWatch metrics', ms: 20 }, (signal) => {
      seen = signal;
      return never();
    }).catch(() => undefined);
    expect(seen?.aborted).toBe(true);
  });

  it('is cut by the run deadline before its own bound, and says so', async () => {
    const deadline = startRunDeadline(10);
    await expect(withinBound({ what: 'Secrets Manager', ms: 5000, parent: deadline.signal }, never)).rejects.toThrow(
      'Secrets Manager was cut by the run deadline: the run deadline (0.01 s) was reached',
    );
  });

  it('passes the work’s own failure through when it fails first', async () => {
    await expect(
      withinBound({ what: 'S3 report', ms: 1000 }, async () => {
        throw new Error('AccessDenied');
      }),
    ).rejects.toThrow('AccessDenied');
  });
});

describe('the AWS clients’ transport', () => {
  it('has connection and request timeouts that throw rather than only warn', () => {
    expect(awsClientSettings().requestHandler).toEqual({
      connectionTimeout: 3000,
      requestTimeout: 10_000,
      throwOnRequestTimeout: true,
    });
  });
});
