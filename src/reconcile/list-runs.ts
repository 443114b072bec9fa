import { z } from '@hono/zod-openapi';
import type { Store } from '../store/index.js';
import { reconciliationRunSchema, runView } from './view.js';

export const runSummarySchema = reconciliationRunSchema
  .omit({ items: true, nextItemsAfter: true })
  .openapi('ReconciliationRunSummary');
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runPageSchema = z
  .object({
    runs: z.array(runSummarySchema),
    nextBefore: z.int().nullable().openapi({ description: 'Pass as `before` for older runs; null on the last page' }),
  })
  .openapi('ReconciliationRunPage');
export type RunPage = z.infer<typeof runPageSchema>;

/** The connection's runs, newest first, with their counters (drift per run over time) and no items. */
export async function listRuns(
  store: Store,
  input: { connection: string; before?: number | undefined; limit: number },
): Promise<RunPage> {
  const rows = await store.reconciliation.listRuns(input.connection, {
    limit: input.limit + 1,
    ...(input.before !== undefined ? { beforeId: input.before } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    runs: page.map((run) => {
      const { items: _items, nextItemsAfter: _next, ...summary } = runView(run, [], null);
      return summary;
    }),
    nextBefore: rows.length > input.limit ? page.at(-1)!.id : null,
  };
}
