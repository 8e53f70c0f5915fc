import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUIRED_FIELDS, parseEngineConfig, parseLocations } from '../../functions/core/config.ts';
import { InputError } from '../../functions/core/shared/errors.ts';

const VALID = {
  COHERE_API_KEY: 'co-secret-key-123',
  QDRANT_URL: 'https://qdrant.example:6333',
  QDRANT_API_KEY: 'qd-secret-key-456',
  DOCUSAURUS_BASE_URL: 'https://book.example.com',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseEngineConfig(env);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseEngineConfig', () => {
  it('reads the seeds’ variables with their defaults', () => {
    // Act
    const config = parseEngineConfig({
      ...VALID,
      SIMILARITY_THRESHOLD: '0.65',
      TOP_K_RESULTS: '8',
      LOG_LEVEL: 'warning',
    });

    // Assess
    expect(config).toEqual({
      qdrantUrl: 'https://qdrant.example:6333',
      collection: 'book',
      cohereBaseUrl: null,
      embeddingModel: 'embed-english-v3.0',
      chatModel: 'command-a-03-2025',
      groundingJudge: 'cohere',
      judgeModel: 'command-a-03-2025',
      judgeMaxClaims: 100,
      maxAgentQueries: 10,
      docusaurusBaseUrl: 'https://book.example.com',
      sitemapUrl: 'https://book.example.com/sitemap.xml',
      sitemapAllowedOrigins: [],
      coveragePathPrefix: '/docs/',
      coverageExclude: [],
      minSimilarity: 0.65,
      topK: 8,
      requiredFields: DEFAULT_REQUIRED_FIELDS,
      criteria: { minPassRate: null, minCoverage: null, minCompleteness: null },
      qdrantTimeoutMs: 10_000,
      cohereTimeoutMs: 30_000,
      searchConcurrency: 4,
      scrollPartitions: 8,
      annRecallSample: 20,
      runDeadlineSeconds: 600,
      environment: 'dev',
      logLevel: 'WARN',
      secrets: { cohereApiKey: 'co-secret-key-123', qdrantApiKey: 'qd-secret-key-456' },
    });
  });

  it('looks for coverage under the base URL’s own path: a project site’s docs are under /repo/docs/', () => {
    // Act
    const config = parseEngineConfig({ ...VALID, DOCUSAURUS_BASE_URL: 'https://user.github.io/repo/' });

    // Assess
    expect(config.coveragePathPrefix).toBe('/repo/docs/');
  });

  it('looks for coverage under /repo/docs/ when the base URL has no trailing slash', () => {
    // Act
    const config = parseEngineConfig({ ...VALID, DOCUSAURUS_BASE_URL: 'https://user.github.io/repo' });

    // Assess
    expect(config.coveragePathPrefix).toBe('/repo/docs/');
  });

  it('keeps an explicit COVERAGE_PATH_PREFIX over the base URL’s path', () => {
    // Act
    const config = parseEngineConfig({
      ...VALID,
      DOCUSAURUS_BASE_URL: 'https://user.github.io/repo/',
      COVERAGE_PATH_PREFIX: '/repo/guide/',
    });

    // Assess
    expect(config.coveragePathPrefix).toBe('/repo/guide/');
  });

  it('reads COVERAGE_EXCLUDE as site paths, none by default, and refuses one without a leading slash', () => {
    expect(parseEngineConfig(VALID).coverageExclude).toEqual([]);
    expect(parseEngineConfig({ ...VALID, COVERAGE_EXCLUDE: ' /, /markdown-page ,/blog/**' }).coverageExclude).toEqual([
      '/',
      '/markdown-page',
      '/blog/**',
    ]);
    expect(problemsOf({ ...VALID, COVERAGE_EXCLUDE: '/a,blog/**' })).toEqual([
      'COVERAGE_EXCLUDE: each item must be a path starting with "/" (e.g. /markdown-page or /blog/**), got "blog/**"',
    ]);
  });

  it('lists every bad variable at once with what was expected', () => {
    const problems = problemsOf({
      QDRANT_URL: 'qdrant:6333',
      SIMILARITY_THRESHOLD: '1.2',
      TOP_K_RESULTS: '5.5',
      MIN_PASS_RATE: 'ninety',
      COVERAGE_PATH_PREFIX: 'docs',
      LOG_LEVEL: 'LOUD',
      REQUIRED_FIELDS: ' , ',
    });

    expect(problems).toEqual([
      'QDRANT_URL: must be an http(s) URL, got "qdrant:6333"',
      'DOCUSAURUS_BASE_URL: required (the book’s base URL)',
      'COHERE_API_KEY: required (the Cohere API key)',
      'COVERAGE_PATH_PREFIX: must start with "/", got "docs"',
      'LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, got "LOUD"',
      'SIMILARITY_THRESHOLD: must be a number from 0 to 1, got "1.2"',
      'TOP_K_RESULTS: must be a whole number from 1 to 50, got "5.5"',
      'REQUIRED_FIELDS: must list at least one name, comma-separated',
      'MIN_PASS_RATE: must be a number from 0 to 100, got "ninety"',
    ]);
  });

  it('reads the claim judge: cohere by default, lexical on demand, its model and budget; refuses another judge', () => {
    expect(parseEngineConfig({ ...VALID, GROUNDING_JUDGE: 'Lexical' })).toMatchObject({ groundingJudge: 'lexical' });
    expect(parseEngineConfig({ ...VALID, CHAT_MODEL: 'command-r', JUDGE_MAX_CLAIMS: '0' })).toMatchObject({
      groundingJudge: 'cohere',
      judgeModel: 'command-r',
      judgeMaxClaims: 0,
    });
    expect(parseEngineConfig({ ...VALID, JUDGE_MODEL: 'command-r-plus', JUDGE_MAX_CLAIMS: '500' })).toMatchObject({
      judgeModel: 'command-r-plus',
      judgeMaxClaims: 500,
    });
    expect(problemsOf({ ...VALID, GROUNDING_JUDGE: 'gpt', JUDGE_MAX_CLAIMS: '501' })).toEqual([
      'GROUNDING_JUDGE: must be cohere or lexical, got "gpt"',
      'JUDGE_MAX_CLAIMS: must be a whole number from 0 to 500, got "501"',
    ]);
  });

  it('never puts a secret or URL credentials into an error message', () => {
    // Prepare
    const env = { ...VALID, QDRANT_URL: 'ftp://admin:hunter2-password@qdrant.example', TOP_K_RESULTS: 'x' };

    // Act
    const message = (() => {
      try {
        parseEngineConfig(env);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();

    // Assess
    expect(message).toContain('QDRANT_URL: must be an http(s) URL');
    expect(message).not.toContain('hunter2-password');
    expect(message).not.toContain(VALID.COHERE_API_KEY);
    expect(message).not.toContain(VALID.QDRANT_API_KEY);
  });

  it('names the variable and the service of an API key an HTTP header cannot carry, quoting nothing of it', () => {
    // Prepare: a check mark (U+2713, "value of 10003" in the HTTP client's own message), a typographic quote, a space.
    const env = { ...VALID, COHERE_API_KEY: 'co-s\u2713cret-key', QDRANT_API_KEY: '\u201cqd secret\u201d' };

    // Act
    const problems = problemsOf(env);

    // Assess
    expect(problems).toEqual([
      'COHERE_API_KEY: the Cohere API key holds 1 character that an HTTP header cannot carry (a key is printable ' +
        'ASCII without spaces; look for a typographic quote, a non-breaking space or a line break pasted with it)',
      'QDRANT_API_KEY: the Qdrant API key holds 3 characters that an HTTP header cannot carry (a key is printable ' +
        'ASCII without spaces; look for a typographic quote, a non-breaking space or a line break pasted with it)',
    ]);
    for (const leak of ['co-s', 'cret', '10003', '\u2713', 'qd', '8220'])
      expect(problems.join('\n')).not.toContain(leak);
  });

  it('takes every printable ASCII character in a key (0x21 to 0x7e)', () => {
    const key = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    expect(parseEngineConfig({ ...VALID, COHERE_API_KEY: key }).secrets.cohereApiKey).toBe(key);
  });

  it('keeps a SITEMAP_URL with a token in its query (reports redact it), and redacts it in a message', () => {
    expect(parseEngineConfig({ ...VALID, SITEMAP_URL: 'https://book.example.com/s.xml?token=t0k' }).sitemapUrl).toBe(
      'https://book.example.com/s.xml?token=t0k',
    );
    expect(problemsOf({ ...VALID, QDRANT_URL: 'ftp://qdrant.example/?api-key=t0k' })).toEqual([
      'QDRANT_URL: must be an http(s) URL, got "ftp://qdrant.example/?api-key=***"',
    ]);
  });

  it('takes SITEMAP_URL over the one derived from the base URL', () => {
    const config = parseEngineConfig({ ...VALID, SITEMAP_URL: 'https://book.example.com/sitemap-index.xml' });

    expect(config.sitemapUrl).toBe('https://book.example.com/sitemap-index.xml');
  });

  it('reads SITEMAP_ALLOWED_ORIGINS as a list of origins', () => {
    const config = parseEngineConfig({
      ...VALID,
      SITEMAP_ALLOWED_ORIGINS: 'https://cdn.example.com, http://127.0.0.1:8080/',
    });

    expect(config.sitemapAllowedOrigins).toEqual(['https://cdn.example.com', 'http://127.0.0.1:8080']);
  });

  it('refuses a SITEMAP_ALLOWED_ORIGINS item with a path, credentials or another scheme', () => {
    const problems = problemsOf({
      ...VALID,
      SITEMAP_ALLOWED_ORIGINS: 'https://cdn.example.com/sitemaps,https://u:hunter2@x.example,ftp://x.example',
    });

    expect(problems).toEqual([
      'SITEMAP_ALLOWED_ORIGINS: each item must be an http(s) origin such as https://cdn.example.com (no path, no credentials), got "https://cdn.example.com/sitemaps"',
      'SITEMAP_ALLOWED_ORIGINS: each item must be an http(s) origin such as https://cdn.example.com (no path, no credentials), got "https://***@x.example"',
      'SITEMAP_ALLOWED_ORIGINS: each item must be an http(s) origin such as https://cdn.example.com (no path, no credentials), got "ftp://x.example"',
    ]);
  });

  it.each(['QDRANT_URL', 'DOCUSAURUS_BASE_URL', 'SITEMAP_URL', 'COHERE_BASE_URL'])(
    'refuses credentials in %s, without repeating them',
    (name) => {
      const problems = problemsOf({ ...VALID, [name]: 'https://admin:p@ss-w0rd@host.example/x' });

      expect(problems).toEqual([
        `${name}: must not carry credentials (user:password@); API keys have their own variables, got "https://***@host.example/x"`,
      ]);
    },
  );

  it.each(['..', '.', 'a/b', 'a\\b', 'x:y', 'tab\there', 'a'.repeat(256)])(
    'refuses the collection name %j, which could leave its folder or that Qdrant refuses',
    (name) => {
      expect(problemsOf({ ...VALID, QDRANT_COLLECTION: name })).toEqual([
        expect.stringMatching(/^QDRANT_COLLECTION: must be a collection name of 1 to 255 characters/),
      ]);
    },
  );

  it.each(['book', 'book..v2', '.hidden', 'книга', 'a'.repeat(255)])('accepts the collection name %j', (name) => {
    expect(parseEngineConfig({ ...VALID, QDRANT_COLLECTION: name }).collection).toBe(name);
  });

  it.each(['0x10', '0o20', '0b10000', '016'])('refuses the numeral %s, written other than in decimal', (raw) => {
    expect(problemsOf({ ...VALID, SEARCH_CONCURRENCY: raw })).toEqual([
      `SEARCH_CONCURRENCY: must be a whole number from 1 to 32 written in decimal (hex, octal and binary are refused), got "${raw}"`,
    ]);
  });

  it.each(['Infinity', '1_0', '16px', '+', '.'])('refuses %j where a number is expected', (raw) => {
    expect(problemsOf({ ...VALID, SEARCH_CONCURRENCY: raw })).toEqual([
      `SEARCH_CONCURRENCY: must be a whole number from 1 to 32, got "${raw}"`,
    ]);
  });

  it.each([
    ['16', 16],
    ['+16', 16],
    ['1.6e1', 16],
  ])('reads the decimal %s', (raw, value) => {
    expect(parseEngineConfig({ ...VALID, SEARCH_CONCURRENCY: raw }).searchConcurrency).toBe(value);
  });

  it.each([
    ['QDRANT_TIMEOUT_MS', '60000', '60001', 'a whole number from 100 to 60000'],
    ['COHERE_TIMEOUT_MS', '120000', '120001', 'a whole number from 100 to 120000'],
    ['MAX_AGENT_QUERIES', '50', '51', 'a whole number from 0 to 50'],
    ['SEARCH_CONCURRENCY', '32', '33', 'a whole number from 1 to 32'],
    ['SCROLL_PARTITIONS', '32', '33', 'a whole number from 1 to 32'],
    ['SCROLL_PARTITIONS', '1', '0', 'a whole number from 1 to 32'],
    ['ANN_RECALL_SAMPLE', '10000', '10001', 'a whole number from 0 to 10000'],
    ['ANN_RECALL_SAMPLE', '0', '-1', 'a whole number from 0 to 10000'],
  ])('bounds %s: %s is taken, %s refused', (name, highest, over, what) => {
    expect(() => parseEngineConfig({ ...VALID, [name]: highest })).not.toThrow();
    expect(problemsOf({ ...VALID, [name]: over })).toEqual([`${name}: must be ${what}, got "${over}"`]);
  });
});

describe('parseEngineConfig: every variable and its bounds', () => {
  it('reads every optional variable, trimmed, when it is set', () => {
    // Act
    const config = parseEngineConfig({
      ...VALID,
      QDRANT_COLLECTION: ' physical-ai ',
      COHERE_BASE_URL: 'http://127.0.0.1:8081',
      EMBEDDING_MODEL: 'embed-v4.0',
      CHAT_MODEL: 'command-r',
      MAX_AGENT_QUERIES: '0',
      REQUIRED_FIELDS: ' source_url , chapter_id ,',
      MIN_PASS_RATE: '85',
      MIN_COVERAGE: '99.5',
      MIN_COMPLETENESS: '0',
      QDRANT_TIMEOUT_MS: '100',
      COHERE_TIMEOUT_MS: '120000',
      SEARCH_CONCURRENCY: '32',
      ENVIRONMENT: 'staging',
      LOG_LEVEL: 'debug',
    });

    // Assess
    expect(config).toMatchObject({
      collection: 'physical-ai',
      cohereBaseUrl: 'http://127.0.0.1:8081',
      embeddingModel: 'embed-v4.0',
      chatModel: 'command-r',
      maxAgentQueries: 0,
      requiredFields: ['source_url', 'chapter_id'],
      criteria: { minPassRate: 85, minCoverage: 99.5, minCompleteness: 0 },
      qdrantTimeoutMs: 100,
      cohereTimeoutMs: 120_000,
      searchConcurrency: 32,
      environment: 'staging',
      logLevel: 'DEBUG',
    });
  });

  it('takes a variable set to blanks as unset', () => {
    // Act
    const config = parseEngineConfig({ ...VALID, QDRANT_COLLECTION: '  ', ENVIRONMENT: '', SEARCH_CONCURRENCY: ' ' });

    // Assess
    expect([config.collection, config.environment, config.searchConcurrency]).toEqual(['book', 'dev', 4]);
  });

  it('accepts each bound and refuses just outside it', () => {
    // Act
    const inside = parseEngineConfig({
      ...VALID,
      SIMILARITY_THRESHOLD: '1',
      TOP_K_RESULTS: '50',
      MAX_AGENT_QUERIES: '50',
      MIN_PASS_RATE: '100',
      QDRANT_TIMEOUT_MS: '60000',
      COHERE_TIMEOUT_MS: '100',
      SEARCH_CONCURRENCY: '1',
    });
    const outside = problemsOf({
      ...VALID,
      SIMILARITY_THRESHOLD: '-0.01',
      TOP_K_RESULTS: '0',
      MAX_AGENT_QUERIES: '51',
      MIN_PASS_RATE: '100.01',
      MIN_COVERAGE: '-1',
      MIN_COMPLETENESS: '101',
      QDRANT_TIMEOUT_MS: '99',
      COHERE_TIMEOUT_MS: '120001',
      SEARCH_CONCURRENCY: '33',
    });

    // Assess
    expect(inside).toMatchObject({
      minSimilarity: 1,
      topK: 50,
      maxAgentQueries: 50,
      criteria: { minPassRate: 100 },
      qdrantTimeoutMs: 60_000,
      cohereTimeoutMs: 100,
      searchConcurrency: 1,
    });
    expect(outside).toEqual([
      'MAX_AGENT_QUERIES: must be a whole number from 0 to 50, got "51"',
      'SIMILARITY_THRESHOLD: must be a number from 0 to 1, got "-0.01"',
      'TOP_K_RESULTS: must be a whole number from 1 to 50, got "0"',
      'MIN_PASS_RATE: must be a number from 0 to 100, got "100.01"',
      'MIN_COVERAGE: must be a number from 0 to 100, got "-1"',
      'MIN_COMPLETENESS: must be a number from 0 to 100, got "101"',
      'QDRANT_TIMEOUT_MS: must be a whole number from 100 to 60000, got "99"',
      'COHERE_TIMEOUT_MS: must be a whole number from 100 to 120000, got "120001"',
      'SEARCH_CONCURRENCY: must be a whole number from 1 to 32, got "33"',
    ]);
  });

  it('refuses a timeout or a concurrency that is not a whole number', () => {
    expect(
      problemsOf({ ...VALID, QDRANT_TIMEOUT_MS: '1000.5', COHERE_TIMEOUT_MS: 'Infinity', SEARCH_CONCURRENCY: '2.5' }),
    ).toEqual([
      'QDRANT_TIMEOUT_MS: must be a whole number from 100 to 60000, got "1000.5"',
      'COHERE_TIMEOUT_MS: must be a whole number from 100 to 120000, got "Infinity"',
      'SEARCH_CONCURRENCY: must be a whole number from 1 to 32, got "2.5"',
    ]);
  });

  it('refuses a Cohere base URL that is not http(s)', () => {
    expect(problemsOf({ ...VALID, COHERE_BASE_URL: 'localhost:8081' })).toEqual([
      'COHERE_BASE_URL: must be an http(s) URL, got "localhost:8081"',
    ]);
  });

  it('needs no Cohere key when told so, and still reads one that is set', () => {
    // Act
    const { COHERE_API_KEY: _key, ...withoutKey } = VALID;
    const without = parseEngineConfig(withoutKey, { requireCohereKey: false });
    const withKey = parseEngineConfig(VALID, { requireCohereKey: false });

    // Assess
    expect([without.secrets.cohereApiKey, withKey.secrets.cohereApiKey]).toEqual([null, VALID.COHERE_API_KEY]);
  });

  it('derives the sitemap beside a base URL given with or without its trailing slash', () => {
    // Act
    const urls = ['https://user.github.io/repo', 'https://user.github.io/repo/'].map(
      (base) => parseEngineConfig({ ...VALID, DOCUSAURUS_BASE_URL: base }).sitemapUrl,
    );

    // Assess
    expect(urls).toEqual(['https://user.github.io/repo/sitemap.xml', 'https://user.github.io/repo/sitemap.xml']);
  });
});

describe('parseEngineConfig: what it refuses, and how it says so', () => {
  it('names the configuration as what is invalid, and each required variable by what it is for', () => {
    // Act
    const error = (() => {
      try {
        parseEngineConfig({});
      } catch (caught) {
        return caught as InputError;
      }
      throw new Error('expected an InputError');
    })();

    // Assess
    expect(error.message.split('\n')[0]).toBe('configuration is invalid:');
    expect(error.problems).toEqual([
      'QDRANT_URL: required (the Qdrant base URL)',
      'DOCUSAURUS_BASE_URL: required (the book’s base URL)',
      'COHERE_API_KEY: required (the Cohere API key)',
    ]);
  });

  it('refuses a URL that does not parse at all', () => {
    expect(problemsOf({ ...VALID, QDRANT_URL: 'not a url' })).toEqual([
      'QDRANT_URL: must be an http(s) URL, got "not a url"',
    ]);
  });

  it.each([
    ['a user alone', 'https://admin@host.example/x'],
    ['a password alone', 'https://:s3cret@host.example/x'],
  ])('refuses a URL carrying %s', (_what, url) => {
    expect(problemsOf({ ...VALID, QDRANT_URL: url })).toEqual([
      'QDRANT_URL: must not carry credentials (user:password@); API keys have their own variables, got "https://***@host.example/x"',
    ]);
  });

  it('refuses a COVERAGE_PATH_PREFIX that ends with "/" but does not start with it', () => {
    expect(problemsOf({ ...VALID, COVERAGE_PATH_PREFIX: 'docs/' })).toEqual([
      'COVERAGE_PATH_PREFIX: must start with "/", got "docs/"',
    ]);
  });

  it('bounds RUN_DEADLINE_SECONDS from 1 to 3600', () => {
    expect(
      [1, 3600].map((s) => parseEngineConfig({ ...VALID, RUN_DEADLINE_SECONDS: String(s) }).runDeadlineSeconds),
    ).toEqual([1, 3600]);
    expect([
      ...problemsOf({ ...VALID, RUN_DEADLINE_SECONDS: '0.99' }),
      ...problemsOf({ ...VALID, RUN_DEADLINE_SECONDS: '3601' }),
    ]).toEqual([
      'RUN_DEADLINE_SECONDS: must be a number from 1 to 3600, got "0.99"',
      'RUN_DEADLINE_SECONDS: must be a number from 1 to 3600, got "3601"',
    ]);
  });

  it('looks for coverage under /repo/docs/ when the base URL ends in several slashes', () => {
    expect(
      parseEngineConfig({ ...VALID, DOCUSAURUS_BASE_URL: 'https://user.github.io/repo//' }).coveragePathPrefix,
    ).toBe('/repo/docs/');
  });

  it('quotes at most 300 characters of a collection name it refuses', () => {
    const [problem] = problemsOf({ ...VALID, QDRANT_COLLECTION: 'a'.repeat(400) });

    expect(problem?.endsWith(` got "${'a'.repeat(300)}"`)).toBe(true);
  });

  it.each([
    ['an item that is not a URL', 'cdn example', 'cdn example'],
    ['a user alone', 'https://u@cdn.example.com', 'https://***@cdn.example.com'],
    ['a password alone', 'https://:pw@cdn.example.com', 'https://***@cdn.example.com'],
  ])('refuses a SITEMAP_ALLOWED_ORIGINS item with %s', (_what, item, shown) => {
    expect(problemsOf({ ...VALID, SITEMAP_ALLOWED_ORIGINS: item })).toEqual([
      `SITEMAP_ALLOWED_ORIGINS: each item must be an http(s) origin such as https://cdn.example.com (no path, no credentials), got "${shown}"`,
    ]);
  });
});

describe('parseLocations', () => {
  it('reads SUITE_PATH and REPORT_DIR', () => {
    expect(parseLocations({ SUITE_PATH: 'suites/nightly.yaml', REPORT_DIR: 'out' })).toEqual({
      suitePath: 'suites/nightly.yaml',
      reportDir: 'out',
    });
  });

  it('looks for suite.json and writes under reports/ when neither is set', () => {
    expect(parseLocations({ SUITE_PATH: ' ' })).toEqual({ suitePath: 'suite.json', reportDir: 'reports' });
  });
});
