import type { ProcessingRepo } from '../processing/contract.js';
import type { FeedRepo } from './contract.js';

/**
 * Tells listeners in this process that a connection's feed grew, once the append is committed:
 * the push to the ERP starts at once instead of at its next poll. Other processes find the new
 * events by polling (docs/erp-delivery.md).
 */
export function feedSignal() {
  const listeners = new Set<(connection: string) => void>();
  return {
    subscribe(listener: (connection: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Called by the store once the append is committed and its transaction's lock is left. */
    emit(connection: string): void {
      for (const l of listeners) {
        try {
          l(connection);
        } catch {
          // A listener's failure is its own; the append it reports has committed.
        }
      }
    },
    /** The repo, reporting each new row's connection to `onAppend` (the caller decides when to emit). */
    watch(repo: FeedRepo, onAppend: (connection: string) => void): FeedRepo {
      return {
        ...repo,
        append: async (input) => {
          const result = await repo.append(input);
          if (result.created) onAppend(input.connection);
          return result;
        },
      };
    },
    /** The same for the processing path, which appends feed entries with its own batched statements. */
    watchProcessing(repo: ProcessingRepo, onAppend: (connection: string) => void): ProcessingRepo {
      return {
        ...repo,
        complete: async (events, at) => {
          const results = await repo.complete(events, at);
          results.forEach((r, i) => {
            if (r.created) onAppend(events[i]!.feedEntry.connection);
          });
          return results;
        },
      };
    },
  };
}
