import type { ConfirmationsRepo, ProcessingRepo } from './types.js';

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
    emit(connection: string): void {
      if (listeners.size === 0) return;
      // On the next turn: on SQLite the commit returns inside the store's write lock, and a listener
      // that reads the store at once must not find it held.
      setImmediate(() => {
        for (const l of listeners) {
          try {
            l(connection);
          } catch {
            // A listener's failure is its own; the append it reports has committed.
          }
        }
      });
    },
    /** The repo, reporting each new row's connection to `onAppend` (the caller decides when to emit). */
    watch(repo: ConfirmationsRepo, onAppend: (connection: string) => void): ConfirmationsRepo {
      return {
        ...repo,
        append: async (input) => {
          const result = await repo.append(input);
          if (result.created) onAppend(input.connection);
          return result;
        },
      };
    },
    /** The same for the processing path, which appends confirmations with its own batched statements. */
    watchProcessing(repo: ProcessingRepo, onAppend: (connection: string) => void): ProcessingRepo {
      return {
        ...repo,
        complete: async (events, at) => {
          const results = await repo.complete(events, at);
          results.forEach((r, i) => {
            if (r.created) onAppend(events[i]!.confirmation.connection);
          });
          return results;
        },
      };
    },
  };
}
