import { defineConfig } from 'vitest/config';

// The storage fault suites (`npm run test:faults`): they mount a tmpfs and run a private
// PostgreSQL cluster, so they need root, and `.ci/run` runs them on their own, one at a time.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    isolate: true,
  },
});
