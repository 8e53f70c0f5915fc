/** The page route's selection (HIGH and CRITICAL) and its message, a Chatbot custom notification. */
import { describe, expect, it } from 'vitest';
import { isPaged, PAGED_SEVERITIES, pageMessage } from '../../../functions/core/delivery/page-message.ts';

const LABELS = { collection: 'book', environment: 'prod', track: 'quality' };

describe('which alerts page', () => {
  it('pages HIGH and CRITICAL, never MEDIUM or LOW', () => {
    expect(PAGED_SEVERITIES).toEqual(['HIGH', 'CRITICAL']);
    expect(isPaged('CRITICAL')).toBe(true);
    expect(isPaged('HIGH')).toBe(true);
    expect(isPaged('MEDIUM')).toBe(false);
    expect(isPaged('LOW')).toBe(false);
  });
});

describe('the page message', () => {
  const alert = {
    subject: '[CRITICAL] prod/book: 3 queries regressed',
    body: '3 queries regressed; MRR 0.81 -> 0.61\nCause: Qdrant 503\nSeverity: CRITICAL',
    severity: 'CRITICAL' as const,
  };

  it('is a Chatbot custom notification: title the subject, description the body, one thread per incident', () => {
    expect(JSON.parse(pageMessage(alert, LABELS))).toEqual({
      version: '1.0',
      source: 'custom',
      content: {
        textType: 'client-markdown',
        title: alert.subject,
        description: alert.body,
        keywords: ['CRITICAL', 'prod', 'book'],
      },
      metadata: { threadId: 'ragwatch/prod/book/quality', summary: alert.subject },
    });
  });

  it('threads a run alert (no incident track) apart from the incidents', () => {
    const { collection, environment } = LABELS;
    expect(JSON.parse(pageMessage(alert, { collection, environment })).metadata.threadId).toBe(
      'ragwatch/prod/book/run',
    );
  });

  it('keeps a body of 3,500 characters whole and cuts a longer one at a line, saying the email has the rest', () => {
    const line = `${'x'.repeat(99)}\n`;
    const exact = { ...alert, body: 'y'.repeat(3500) };
    expect(JSON.parse(pageMessage(exact, LABELS)).content.description).toBe(exact.body);
    const over = { ...alert, body: `${'y'.repeat(3000)}\n${'y'.repeat(500)}` };
    expect(JSON.parse(pageMessage(over, LABELS)).content.description).toBe(
      `${'y'.repeat(3000)}\n… (cut here: the email has the rest)`,
    );
    const long = { ...alert, body: line.repeat(40) };
    const description: string = JSON.parse(pageMessage(long, LABELS)).content.description;
    expect(description.length).toBeLessThanOrEqual(3500);
    expect(description.endsWith('\n… (cut here: the email has the rest)')).toBe(true);
    const kept = description.split('\n… (cut')[0] as string;
    expect(kept.split('\n').every((l) => l === 'x'.repeat(99))).toBe(true);
    expect(kept.split('\n')).toHaveLength(34);
  });

  it('cuts a body of one long line at the limit when it has no line break to cut at', () => {
    const description: string = JSON.parse(pageMessage({ ...alert, body: 'z'.repeat(5000) }, LABELS)).content
      .description;
    expect(description).toHaveLength(3500);
    expect(description.startsWith('z'.repeat(3400))).toBe(true);
    // A break at the very start is no line to cut at: the text after it is kept.
    const leading: string = JSON.parse(pageMessage({ ...alert, body: `\n${'z'.repeat(5000)}` }, LABELS)).content
      .description;
    expect(leading).toHaveLength(3500);
    expect(leading.startsWith(`\n${'z'.repeat(3400)}`)).toBe(true);
  });
});
