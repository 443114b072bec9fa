import { defineConfig } from 'vitest/config';

// Postgres suites (`*.pg.test.ts`, and `pg.test.ts` beside a store contract) run when TEST_DATABASE_URL is set, as `.ci/run` does. Without
// it they are left out of the run (not skipped inside a file) and global setup says so.
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The storage fault suites need root and run apart: `npm run test:faults`.
    exclude: withPostgres
      ? ['**/node_modules/**', 'test/faults/**']
      : ['**/node_modules/**', 'test/faults/**', 'test/**/*.pg.test.ts', 'test/**/pg.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 3,
    // Bounds for failing tests only; generous because CI shares 2 cores (see docs/conventions.md).
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Each file gets its own process and its own database/schema; nothing is shared across files.
    isolate: true,
  },
});
