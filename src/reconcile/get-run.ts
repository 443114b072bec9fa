import type { Store } from '../store/index.js';
import { type ReconciliationRunView, runView } from './view.js';

export interface GetRunInput {
  connection: string;
  id: number;
  itemsAfter?: number;
  itemsLimit: number;
}

/** A run of this connection with a page of its items; undefined when the connection has no such run. */
export async function getRun(store: Store, input: GetRunInput): Promise<ReconciliationRunView | undefined> {
  const run = await store.reconciliation.getRun(input.id);
  if (!run || run.connection !== input.connection) return undefined;
  // One more than asked tells whether another page follows.
  const items = await store.reconciliation.listItems(run.id, {
    ...(input.itemsAfter ? { afterId: input.itemsAfter } : {}),
    limit: input.itemsLimit + 1,
  });
  const page = items.slice(0, input.itemsLimit);
  return runView(run, page, items.length > input.itemsLimit ? page.at(-1)!.id : null);
}
