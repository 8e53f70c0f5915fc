/**
 * Qdrant and Cohere misbehaving, through the real CLI. Hang rows use short request timeouts (2 s) so the matrix
 * stays minutes long; what they prove is that a hung service costs one timeout per run, not one per query.
 */
import { type Case, common, expectExitOfStatus, expectFinding, expectStatus, expectWithin, findings } from './case.ts';
import { EUCLID_COLLECTION, LARGE_SUITE_QUERIES, type World } from './world.ts';

const qdrantError = (status: number, error: string) => ({
  kind: 'status' as const,
  status,
  body: JSON.stringify({ status: { error }, time: 0 }),
});
const cli = (world: World, env: Record<string, string> = {}) => ({
  surface: 'cli' as const,
  env: { ...world.cliEnv(), ...env },
});
const failed = (o: Parameters<Case['check']>[0]) => [...common(o), ...expectExitOfStatus(o)];
const embedOnly = (request: string) => request.includes('/v2/embed');

export const SERVICE_CASES: Case[] = [
  {
    name: 'Qdrant down (connection refused)',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report naming Qdrant unreachable, < 30 s',
    arrange: (w) => cli(w, { QDRANT_URL: `http://127.0.0.1:${w.closedPort}` }),
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['RETRIEVAL_FAILED'], /Qdrant .* unreachable \(ECONNREFUSED\)/),
      ...expectWithin(o, 30),
    ],
  },
  {
    name: 'Qdrant hangs',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report with TIMEOUT naming Qdrant; one 2 s timeout, not one per query: < 15 s',
    arrange: (w) => {
      w.qdrant.setFault({ kind: 'hang' });
      return cli(w, { QDRANT_TIMEOUT_MS: '2000' });
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['TIMEOUT'], /Qdrant/),
      ...expectWithin(o, 15),
    ],
  },
  {
    name: 'Qdrant 429, Retry-After 30',
    group: 'Qdrant',
    expected: 'exit 4, fails fast as rate limited naming the 30 s asked (past the 10 s cap): < 15 s',
    arrange: (w) => {
      w.qdrant.setFault({ ...qdrantError(429, 'Rate limiting exceeded'), headers: { 'retry-after': '30' } });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectFinding(o, ['RATE_LIMITED', 'RETRIEVAL_FAILED'], /Retry-After 30 s/),
      ...expectWithin(o, 15),
    ],
  },
  ...[500, 503].map(
    (status): Case => ({
      name: `Qdrant ${status}`,
      group: 'Qdrant',
      expected: `exit 4, ERROR report naming Qdrant's ${status} after 2 retries`,
      arrange: (w) => {
        w.qdrant.setFault(qdrantError(status, 'Service internal error'));
        return cli(w);
      },
      check: (o) => [
        ...failed(o),
        ...expectStatus(o, ['ERROR']),
        ...expectFinding(o, ['RETRIEVAL_FAILED'], new RegExp(`Qdrant .* failed with ${status}`)),
      ],
    }),
  ),
  {
    name: 'Qdrant 401 (wrong API key)',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report naming the 401, the key nowhere',
    arrange: (w) => {
      w.qdrant.setFault(qdrantError(401, 'Must provide an API key or an Authorization bearer token'));
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['RETRIEVAL_FAILED'], /Qdrant .* failed with 401/),
    ],
  },
  {
    name: 'Qdrant collection of the wrong dimension',
    group: 'Qdrant',
    expected: 'exit 4, DIMENSION_MISMATCH 1024 vs 8',
    arrange: (w) => cli(w, { QDRANT_COLLECTION: 'faults-wrong-dimension' }),
    check: (o) => [
      ...common(o),
      ...expectExitOfStatus(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['DIMENSION_MISMATCH'], /1024 .* 8/),
    ],
  },
  {
    name: 'Qdrant collection with Euclid distance',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report: UNSUPPORTED_DISTANCE naming Euclid, nothing searched (not a pass)',
    arrange: (w) => cli(w, { QDRANT_COLLECTION: EUCLID_COLLECTION }),
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['UNSUPPORTED_DISTANCE'], /"faults-euclid" uses Euclid distance/),
    ],
  },
  {
    name: 'Qdrant scores out of range (7.5, -3, 1e999)',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report: INDEX_ANOMALY; those queries ERROR, never clamped into a pass',
    arrange: (w) => {
      const lies = ['7.5', '-3', '1e999'];
      // The top hit of the first three queries of every search answer gets an impossible score.
      w.qdrant.setFault({
        kind: 'rewrite',
        when: (request) => request.includes('/points/query/batch'),
        rewrite: (body) => {
          let n = 0;
          return body.replace(/("points":\[\{[^{}]*?"score":)[-+0-9.eE]+/g, (all, head: string) =>
            n < lies.length ? `${head}${lies[n++]}` : all,
          );
        },
      });
      return cli(w);
    },
    check: (o) => {
      const anomalous = (o.report?.query_results ?? []).filter((q) => q.error_types.includes('INDEX_ANOMALY'));
      return [
        ...failed(o),
        ...expectStatus(o, ['ERROR']),
        ...expectFinding(o, ['INDEX_ANOMALY'], /for 3 queries; .*first: [^:]+: 7\.5 \(point/),
        ...(anomalous.length === 3 && anomalous.every((q) => q.status === 'ERROR')
          ? []
          : [`${anomalous.length} queries with INDEX_ANOMALY (expected 3, each ERROR)`]),
        ...(findings(o).some((f) => /Infinity/.test(f)) ? [] : ['1e999 is not named as Infinity']),
      ];
    },
  },
  {
    name: 'Qdrant collection missing',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report naming the collection not found',
    arrange: (w) => cli(w, { QDRANT_COLLECTION: 'faults-missing' }),
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['RETRIEVAL_FAILED'], /"faults-missing" .* failed with 404/),
    ],
  },
  {
    name: 'Qdrant garbage body (200, not JSON)',
    group: 'Qdrant',
    expected: 'exit 4, ERROR report: Qdrant answered a malformed response',
    arrange: (w) => {
      w.qdrant.setFault({ kind: 'status', status: 200, body: '<html>502 Bad Gateway</html>' });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['RETRIEVAL_FAILED'], /Qdrant .* answered a malformed response/),
    ],
  },
  {
    name: 'Qdrant slow (+300 ms per request)',
    group: 'Qdrant',
    expected: 'exit 1 as on a normal night (the sample breaches on purpose), status FAILED, no service error',
    arrange: (w) => {
      w.qdrant.setFault({ kind: 'delay', ms: 300 });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['FAILED']),
      ...(findings(o).some((f) => /^(RETRIEVAL_FAILED|TIMEOUT)/.test(f)) ? ['a service error on a slow Qdrant'] : []),
    ],
  },
  {
    name: 'Cohere 401 (wrong API key)',
    group: 'Cohere',
    expected: 'exit 4, ERROR report naming the 401; no chat call after it; the key nowhere',
    arrange: (w) => {
      w.cohere.setFault({ kind: 'status', status: 401, body: '{"message":"invalid api token"}' });
      return cli(w);
    },
    check: (o, w) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['EMBEDDING_FAILED', 'RETRIEVAL_FAILED'], /answered 401/),
      ...(w.cohere.requestsMatching(/\/v2\/chat/) === 0
        ? []
        : [`${w.cohere.requestsMatching(/\/v2\/chat/)} chat calls after the embedding's 401`]),
    ],
  },
  {
    name: 'Cohere 429, Retry-After 120',
    group: 'Cohere',
    expected: 'exit 4, fails fast naming the 120 s asked (past the 60 s cap): < 20 s',
    arrange: (w) => {
      w.cohere.setFault({
        kind: 'status',
        status: 429,
        body: '{"message":"trial key rate limit"}',
        headers: { 'retry-after': '120' },
      });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectFinding(
        o,
        ['RATE_LIMITED', 'EMBEDDING_FAILED', 'RETRIEVAL_FAILED'],
        /retry after 120 s|Retry-After 120 s/,
      ),
      ...expectWithin(o, 20),
    ],
  },
  {
    name: 'Cohere 500',
    group: 'Cohere',
    expected: 'exit 4, ERROR report naming Cohere’s 500',
    arrange: (w) => {
      w.cohere.setFault({ kind: 'status', status: 500, body: '{"message":"internal error"}' });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['EMBEDDING_FAILED', 'RETRIEVAL_FAILED'], /Cohere .* 500/),
    ],
  },
  {
    name: 'Cohere hangs',
    group: 'Cohere',
    expected: 'exit 4, TIMEOUT naming Cohere; one 2 s timeout, not one per agent question: < 15 s',
    arrange: (w) => {
      w.cohere.setFault({ kind: 'hang' });
      return cli(w, { COHERE_TIMEOUT_MS: '2000' });
    },
    check: (o, w) => {
      // Attempts counted at the proxy: the embed calls that hung together (queries, canary), no chat call after them.
      const chat = w.cohere.requestsMatching(/\/v2\/chat/);
      const embed = w.cohere.requestsMatching(/\/v2\/embed/);
      return [
        ...failed(o),
        ...expectFinding(o, ['TIMEOUT', 'EMBEDDING_FAILED'], /Cohere .* timed out/),
        ...expectWithin(o, 15),
        ...(chat === 0 && embed <= 2 ? [] : [`${embed} embed and ${chat} chat attempts reached Cohere`]),
      ];
    },
  },
  {
    name: 'Cohere embeddings of the wrong dimension (512)',
    group: 'Cohere',
    expected: 'exit 4, DIMENSION_MISMATCH 512 vs 1024',
    arrange: (w) => cli(w, { COHERE_BASE_URL: w.cohereWrongDimension.url }),
    check: (o) => [
      ...common(o),
      ...expectExitOfStatus(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['DIMENSION_MISMATCH'], /512 .* 1024/),
    ],
  },
  {
    name: 'Cohere: one embed call of the wrong size (512) among good ones',
    group: 'Cohere',
    expected: `exit 1; ${LARGE_SUITE_QUERIES} queries: only the 54 of the bad call ERROR (EMBEDDING_FAILED naming Cohere, 512 and 1024), the 96 others judged, no Qdrant failure`,
    arrange: (w) => {
      // The call of 54 texts answers 512 floats per vector; the call of 96 is left alone.
      w.cohere.setFault({
        kind: 'rewrite',
        when: embedOnly,
        rewrite: (body) => {
          const answer = JSON.parse(body) as { embeddings: { float: number[][] } };
          if (answer.embeddings.float.length === 96) return body;
          answer.embeddings.float = answer.embeddings.float.map((v) => v.slice(0, 512));
          return JSON.stringify(answer);
        },
      });
      return { ...cli(w), suite: w.largeSuitePath };
    },
    check: (o) => {
      const results = o.report?.query_results ?? [];
      // Some sample queries are ERRORs of their own on any night (a filter naming what the index lacks).
      const lost = results.filter((q) => q.error_types.includes('EMBEDDING_FAILED'));
      const judged = results.filter((q) => !q.error_types.includes('EMBEDDING_FAILED'));
      return [
        ...failed(o),
        ...expectFinding(
          o,
          ['EMBEDDING_FAILED'],
          /: Cohere embed call \d of 2 .* 54 of 54 vectors of size 512; .* size 1024/,
        ),
        ...(lost.length === 54 && lost.every((q) => q.status === 'ERROR')
          ? []
          : [`${lost.length} queries lost to the embedding, expected the 54 of the bad call`]),
        ...(judged.length === 96 && judged.some((q) => q.status === 'PASS')
          ? []
          : [`${judged.length} queries judged, expected 96 with passes among them`]),
        ...(findings(o).some((f) => /^(RETRIEVAL_FAILED|DIMENSION_MISMATCH)/.test(f))
          ? ['the bad call was blamed on Qdrant or on the whole run']
          : []),
      ];
    },
  },
  {
    name: 'Cohere malformed embed answer',
    group: 'Cohere',
    expected: 'exit 4, ERROR report: Cohere embed answered a malformed response (no "embeddings")',
    arrange: (w) => {
      w.cohere.setFault({ kind: 'status', status: 200, body: '{"id":"x","texts":["q"]}', when: embedOnly });
      return cli(w);
    },
    check: (o) => [
      ...failed(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['EMBEDDING_FAILED', 'RETRIEVAL_FAILED'], /malformed response: no "embeddings" object/),
    ],
  },
];
