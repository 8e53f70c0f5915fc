/**
 * Rules between the fields of one record, declared once with both their forms: the zod check the engine's own
 * parse enforces, and, where JSON Schema can state the rule (an `if`/`then` on constants and presence), the same rule
 * for the published docs/report.schema.json, so a consumer validating the document holds the report to it too.
 * A rule without a JSON Schema form (an order, a sum, a comparison of two numbers) is zod-only, and
 * docs/DATA-MODEL.md lists it as such ("What the published schema cannot say").
 */
import type { z } from 'zod';

/** One rule on a record: what must hold (the error message), its zod check, and its JSON Schema form if it has one. */
export interface RecordRule<T> {
  rule: string;
  holds: (value: T) => boolean;
  /** The rule in JSON Schema (draft 2020-12), or null when JSON Schema cannot state it. */
  jsonSchema: Record<string, unknown> | null;
}

/** The schema with its rules: each checked by zod, and the stateable ones added to its JSON Schema as `allOf`. */
export function withRecordRules<S extends z.ZodType>(schema: S, rules: readonly RecordRule<z.output<S>>[]): S {
  const stated = rules.flatMap((r) => (r.jsonSchema === null ? [] : [r.jsonSchema]));
  const checked = schema.superRefine((value, ctx) => {
    for (const r of rules) if (!r.holds(value)) ctx.addIssue({ code: 'custom', message: r.rule });
  });
  return (stated.length === 0 ? checked : checked.meta({ allOf: stated })) as S;
}

/** `if` every field named holds its constant, `then` (and, when given, `else`) each field follows its schema. */
export function ifThen(
  when: Record<string, unknown>,
  then: Record<string, unknown>,
  otherwise?: Record<string, unknown>,
): Record<string, unknown> {
  const props = (fields: Record<string, unknown>) => ({ properties: fields, required: Object.keys(fields) });
  return {
    if: props(Object.fromEntries(Object.entries(when).map(([k, v]) => [k, { const: v }]))),
    // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a thenable.
    then: props(then),
    ...(otherwise === undefined ? {} : { else: props(otherwise) }),
  };
}
