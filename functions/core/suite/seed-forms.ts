/**
 * A suite may be written with any seed's names. Three forms load, each mapped to the project's one name per idea
 * before the suite is validated (docs/DATA-MODEL.md lists every name):
 * - the project's own: `queries[]` with `query_text`, `id`, `category`, `criteria`, `min_similarity`;
 * - seed 003's request form: `queries[]` (or a bare list) of ValidationRequests, with `query`, `query_id`,
 *   `query_category`, `validation_criteria`, `similarity_threshold` (seed 004's Query name for the threshold);
 * - seed 004's benchmark form: `benchmark_name`, `question_set`, `ground_truth_mappings`, `metrics`.
 * A file that mixes forms is refused with a message naming where each form was found: two names for one idea in
 * one file would leave a reader unsure which one counts.
 */
import { InputError } from '../shared/errors.ts';
import { parseBenchmarkMetric } from './benchmark-metric-names.ts';

export type SuiteForm = 'project' | 'request-003' | 'benchmark-004';

/** Seed 003 request names and the project's name for each. */
const REQUEST_NAMES: Readonly<Record<string, string>> = {
  query: 'query_text',
  query_id: 'id',
  query_category: 'category',
  validation_criteria: 'criteria',
  similarity_threshold: 'min_similarity',
};
const PROJECT_QUERY_NAMES = new Set(Object.values(REQUEST_NAMES));
const BENCHMARK_ONLY = new Set<string>(['benchmark_name', 'question_set', 'ground_truth_mappings']);

/** The suite in the project's form, which form it was written in, and how to name a project path in the original. */
export interface NormalisedSuite {
  form: SuiteForm;
  suite: unknown;
  /** Maps a path of the project form ("queries[2].min_similarity") back to the name the file used. */
  originalPath: (path: string) => string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps a parsed suite file to the project's form; throws one InputError when it mixes forms or a seed rule fails. */
export function normaliseSuiteForm(raw: unknown, source: string): NormalisedSuite {
  const list = Array.isArray(raw) ? { queries: raw } : raw;
  if (!isRecord(list)) return { form: 'project', suite: raw, originalPath: (p) => p };
  const benchmarkKeys = Object.keys(list).filter((k) => BENCHMARK_ONLY.has(k));
  const queries = Array.isArray(list.queries) ? list.queries : [];
  const requestAt = queries.flatMap((q, i) => (isRecord(q) ? namesIn(q, Object.keys(REQUEST_NAMES), i) : []));
  const projectAt = queries.flatMap((q, i) => (isRecord(q) ? namesIn(q, [...PROJECT_QUERY_NAMES], i) : []));

  const forms: string[] = [];
  if (benchmarkKeys.length > 0) forms.push(`the seed 004 benchmark form (${benchmarkKeys.join(', ')})`);
  if (requestAt.length > 0) forms.push(`the seed 003 request form (${requestAt.slice(0, 3).join(', ')})`);
  if (projectAt.length > 0 || (benchmarkKeys.length > 0 && 'queries' in list))
    forms.push(`the project's form (${projectAt.slice(0, 3).join(', ') || 'queries'})`);
  if (forms.length > 1)
    throw new InputError(source, [
      `mixes suite forms: ${forms.join('; ')}. Write the whole file in one form, renaming the fields named here (docs/DATA-MODEL.md maps each seed's names to the project's); \`ragwatch suite normalize\` converts a file once it is wholly in one seed's form`,
    ]);
  if (benchmarkKeys.length > 0) return fromBenchmark(list, source);
  if (requestAt.length > 0) return fromRequests(list);
  return { form: 'project', suite: raw, originalPath: (p) => p };
}

function namesIn(query: Record<string, unknown>, names: string[], index: number): string[] {
  return names.filter((n) => n in query).map((n) => `queries[${index}].${n}`);
}

function fromRequests(list: Record<string, unknown>): NormalisedSuite {
  const queries = (list.queries as unknown[]).map((q) =>
    isRecord(q) ? Object.fromEntries(Object.entries(q).map(([k, v]) => [REQUEST_NAMES[k] ?? k, v])) : q,
  );
  const back = Object.fromEntries(Object.entries(REQUEST_NAMES).map(([seed, project]) => [project, seed]));
  return {
    form: 'request-003',
    suite: { ...list, queries },
    originalPath: (path) =>
      path.replace(/^(queries\[\d+\]\.)(\w+)/, (_, head: string, key: string) => head + (back[key] ?? key)),
  };
}

function fromBenchmark(list: Record<string, unknown>, source: string): NormalisedSuite {
  const { benchmark_name: name, question_set: questions, ground_truth_mappings: truth, metrics, ...rest } = list;
  const problems: string[] = [];
  if (typeof name !== 'string' || name.trim() === '') problems.push('benchmark_name: must not be empty (seed 004)');
  if (!Array.isArray(questions) || questions.length === 0)
    problems.push('question_set: must list at least one question (seed 004)');
  if (!isRecord(truth)) problems.push('ground_truth_mappings: must map each question to its relevant document ids');
  const set = Array.isArray(questions) ? questions : [];
  const mappings = isRecord(truth) ? truth : {};
  set.forEach((q, i) => {
    if (typeof q !== 'string') problems.push(`question_set[${i}]: must be a question (a string)`);
    else if (!Array.isArray(mappings[q]) || (mappings[q] as unknown[]).length === 0)
      problems.push(
        `ground_truth_mappings: no mapping for question_set[${i}] ${JSON.stringify(q)} (seed 004: each question needs one)`,
      );
  });
  for (const key of Object.keys(mappings))
    if (!set.includes(key)) problems.push(`ground_truth_mappings: ${JSON.stringify(key)} is not in question_set`);
  problems.push(...metricProblems(metrics));
  if (problems.length > 0) throw new InputError(source, problems);
  const strings = set as string[];
  return {
    form: 'benchmark-004',
    suite: {
      ...rest,
      name,
      // The project's own `metrics` field has seed 004's meaning: each metric at its cut-off, searched to the deepest.
      ...(metrics === undefined ? {} : { metrics }),
      queries: strings.map((q, i) => ({ id: `q${i + 1}`, query_text: q, relevant: toJudgments(mappings[q]) })),
    },
    originalPath: (path) => {
      const at = path.match(/^queries\[(\d+)\]\.(query_text|relevant)(.*)$/);
      const question = at ? strings[Number(at[1])] : undefined;
      if (at && question !== undefined)
        return at[2] === 'query_text'
          ? `question_set[${at[1]}]`
          : `ground_truth_mappings[${JSON.stringify(question)}]${(at[3] ?? '').replace(/\.(?:url|chunk_id)$/, '')}`;
      return path.replace(/^name\b/, 'benchmark_name');
    },
  };
}

// A Qdrant point id (UUID or unsigned integer) names a chunk; any other id names a page, matched as expected_sources
// are (URL, path, doc id or file name).
const POINT_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i;
function toJudgments(ids: unknown): unknown {
  if (!Array.isArray(ids)) return ids;
  return ids.map((id) => (typeof id === 'string' ? (POINT_ID.test(id) ? { chunk_id: id } : { url: id }) : id));
}

/** Seed 004: `metrics` is "a valid list of supported metrics"; checked here so its problems come with the form's. */
function metricProblems(metrics: unknown): string[] {
  if (metrics === undefined) return [];
  if (!Array.isArray(metrics) || metrics.length === 0)
    return ['metrics: must list at least one metric, e.g. ["precision@5", "mrr"]'];
  return metrics.flatMap((m, i) =>
    typeof m === 'string' && parseBenchmarkMetric(m) !== null
      ? []
      : [
          `metrics[${i}]: ${JSON.stringify(m)} is not supported; use precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k`,
        ],
  );
}

/**
 * Seed 003 puts the similarity threshold among a query's filters (`filters: { min_similarity }`); it is the query's
 * `min_similarity`, whatever the form, so it is moved there. A query that gives both, differently, is refused: one
 * of the two would silently not count.
 */
export function liftFilterThresholds(normalised: NormalisedSuite, source: string): NormalisedSuite {
  const suite = normalised.suite;
  if (!isRecord(suite) || !Array.isArray(suite.queries)) return normalised;
  const problems: string[] = [];
  const queries = suite.queries.map((q, i) => {
    if (!isRecord(q) || !isRecord(q.filters) || !('min_similarity' in q.filters)) return q;
    const { min_similarity: threshold, ...filters } = q.filters;
    const at = `queries[${i}].filters.min_similarity`;
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1))
      problems.push(`${at}: must be a number between 0 and 1 (seed 003), not ${JSON.stringify(threshold)}`);
    else if (q.min_similarity !== undefined && q.min_similarity !== threshold)
      problems.push(
        `${at} (${threshold}) and ${normalised.originalPath(`queries[${i}].min_similarity`)} (${JSON.stringify(q.min_similarity)}) disagree: give the query's threshold once`,
      );
    return { ...q, filters, min_similarity: threshold };
  });
  if (problems.length > 0) throw new InputError(source, problems);
  return { ...normalised, suite: { ...suite, queries } };
}
