import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Stand-ins are real HTTP servers on loopback; forks keep each file's servers in a process of its own.
    pool: 'forks',
  },
});
