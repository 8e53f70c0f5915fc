/**
 * Resolves a field path in a zod schema, as docs/DATA-MODEL.md writes it: `query_results[].top_results[].chunk_id`
 * (`[]` steps into an array's items, `{}` into a record's values). Wrappers (optional, nullable, default, pipe) are
 * looked through.
 */
import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.in);
  if (def.type === 'union' && def.options) return def.options.flatMap(unwrap);
  return [schema];
}

/** True when `path` names a field of `schema`. */
export function hasSchemaPath(schema: z.ZodType, path: string): boolean {
  const steps = path.match(/[^.[\]{}]+|\[\]|\{\}/g) ?? [];
  let current: z.ZodType[] = [schema];
  for (const step of steps) {
    current = current.flatMap(unwrap).flatMap((s) => {
      const def = defOf(s);
      if (step === '[]') return def.type === 'array' && def.element ? [def.element] : [];
      if (step === '{}') return def.type === 'record' && def.valueType ? [def.valueType] : [];
      const field = def.type === 'object' ? def.shape?.[step] : undefined;
      return field ? [field] : [];
    });
    if (current.length === 0) return false;
  }
  return true;
}
