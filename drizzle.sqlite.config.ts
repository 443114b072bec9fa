import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: [
    './src/store/sqlite/schema.ts',
    './src/store/sqlite/reconciliation-schema.ts',
    './src/store/sqlite/delivery-schema.ts',
    './src/store/sqlite/audit-schema.ts',
    './src/store/sqlite/alert-schema.ts',
    './src/queue/sqlite/schema.ts',
  ],
  out: './drizzle/sqlite',
});
