/** judgeMaintenance: a window is honoured only while it lasts and only up to a week ahead; anything else alerts. */
import { describe, expect, it } from 'vitest';
import { judgeMaintenance, MAINTENANCE_MAX_DAYS } from '../../../functions/core/post-run/maintenance.ts';
import { parseValidReport } from '../../helpers/valid-report.ts';
import { buildFailedReport } from '../../nightly/fixtures/reports.ts';

const NOW = new Date('2026-03-14T02:00:00.000Z');
const WHERE = 's3://bucket/reports/book/maintenance/prod.json';
const marker = (fields: object) => JSON.stringify(fields);
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

describe('judgeMaintenance', () => {
  it('is not active, and says nothing, when there is no marker', () => {
    expect(judgeMaintenance(undefined, NOW, WHERE)).toEqual({ active: false, note: null });
  });

  it('holds the alerts until the marker’s end, with its reason', () => {
    expect(judgeMaintenance(marker({ until: '2026-03-15T06:00:00Z', reason: 're-index v4' }), NOW, WHERE)).toEqual({
      active: true,
      window: { until: '2026-03-15T06:00:00.000Z', reason: 're-index v4' },
    });
  });

  it('gives a window without a reason "planned maintenance", and reads an offset as UTC', () => {
    expect(judgeMaintenance(marker({ until: '2026-03-15T08:00:00+02:00' }), NOW, WHERE)).toEqual({
      active: true,
      window: { until: '2026-03-15T06:00:00.000Z', reason: 'planned maintenance' },
    });
  });

  it('ends on its own: active 1 ms before its end, not at it', () => {
    expect(judgeMaintenance(marker({ until: at(1) }), NOW, WHERE).active).toBe(true);
    expect(judgeMaintenance(marker({ until: at(0) }), NOW, WHERE)).toEqual({
      active: false,
      note: `maintenance window ${WHERE} ended at ${at(0)}: alerting as usual (delete the marker)`,
    });
  });

  it(`honours a window up to ${MAINTENANCE_MAX_DAYS} days ahead and refuses one 1 ms longer`, () => {
    const week = MAINTENANCE_MAX_DAYS * 86_400_000;
    expect(judgeMaintenance(marker({ until: at(week) }), NOW, WHERE).active).toBe(true);
    expect(judgeMaintenance(marker({ until: at(week + 1) }), NOW, WHERE)).toEqual({
      active: false,
      note: `maintenance marker ${WHERE} asks for a window until ${at(week + 1)}, more than 7 days ahead: refused, alerting as usual`,
    });
  });

  it('alerts as usual, naming the marker and the field, when the marker is not JSON or not valid', () => {
    expect(judgeMaintenance('until tomorrow', NOW, WHERE)).toEqual({
      active: false,
      note: `maintenance marker ${WHERE} is not JSON: alerting as usual`,
    });
    const invalid = judgeMaintenance(marker({ until: 'tomorrow' }), NOW, WHERE);
    expect(invalid.active).toBe(false);
    expect(invalid.active === false && invalid.note).toMatch(
      new RegExp(`^maintenance marker ${WHERE} is not valid \\(until: .+\\): alerting as usual$`),
    );
    const blank = judgeMaintenance(marker({ until: at(1000), reason: ' ' }), NOW, WHERE);
    expect(blank.active === false && blank.note).toMatch(/is not valid \(reason: /);
  });
});

describe('a report in a maintenance window', () => {
  it('carries the window, and passes the published JSON Schema with it', () => {
    const report = {
      ...buildFailedReport(),
      maintenance: { until: '2026-03-15T06:00:00.000Z', reason: 're-index v4' },
    };
    expect(parseValidReport(JSON.stringify(report)).maintenance).toEqual(report.maintenance);
  });
});
