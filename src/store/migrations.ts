import { fromRoot } from '../lib/package-root.js';

/** Folders drizzle-kit generates into (see drizzle.*.config.ts), from the package's root. */
export const migrationsFolder = {
  sqlite: fromRoot('drizzle', 'sqlite'),
  postgres: fromRoot('drizzle', 'pg'),
};
