import { fileURLToPath } from 'node:url';

/** Folders drizzle-kit generates into (see drizzle.*.config.ts), resolved from this file. */
export const migrationsFolder = {
  sqlite: fileURLToPath(new URL('../../drizzle/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../../drizzle/pg', import.meta.url)),
};
