/**
 * Every report a test produces goes through here: the engine must never write a report that fails its own schema.
 * A report is checked twice: by the zod schema the engine fills (every rule, URLs and refinements included), and by
 * the published docs/report.schema.json, so a consumer validating against the document accepts it too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ValidationReport } from '../../functions/core/report/report.ts';
import { listIssues } from '../../functions/core/suite/issue-messages.ts';

const SCHEMA_PATH = path.join(import.meta.dirname, '..', '..', 'docs', 'report.schema.json');
/**
 * The published document as a consumer would validate it: every keyword on, formats (uuid, uri, date-time) included,
 * so a rule the document states is a rule it enforces (test/core/report/invalid-reports.test.ts).
 */
export function compileReportJsonSchema(): ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
}

const validateDocument = compileReportJsonSchema();

/** Parses a report (an object, or JSON text) and throws one error listing every rule it breaks, in either schema. */
export function parseValidReport(value: unknown): ValidationReport {
  const report: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  const problems: string[] = [];
  const parsed = ValidationReport.safeParse(report);
  if (!parsed.success) problems.push(...listIssues(parsed.error).map((p) => `zod: ${p}`));
  if (!validateDocument(report))
    problems.push(...(validateDocument.errors ?? []).map((e) => `report.schema.json: ${e.instancePath} ${e.message}`));
  if (problems.length > 0 || !parsed.success)
    throw new Error(`the report fails its own schema:\n  ${problems.slice(0, 20).join('\n  ')}`);
  return parsed.data;
}
