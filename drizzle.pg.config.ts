import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/store/pg/schema.ts',
    './src/store/pg/reconciliation-schema.ts',
    './src/store/pg/delivery-schema.ts',
    './src/store/pg/audit-schema.ts',
    './src/store/pg/alert-schema.ts',
  ],
  out: './drizzle/pg',
});
