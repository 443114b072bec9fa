import { PUSH_STATES, type PushState } from '../values.js';

/**
 * The states an pushes page reads. A page of every state is read as one keyset page per state
 * (each a range of the (connection, entity, state, id) index) merged here: three short index
 * scans instead of sorting every record of the entity.
 */
export function pageStates(state: PushState | undefined): readonly PushState[] {
  return state ? [state] : PUSH_STATES;
}

/** Merges per-state pages (each newest first) into one page of at most `limit`, newest first. */
export function mergeNewestFirst<T extends { id: number }>(pages: readonly T[][], limit: number): T[] {
  if (pages.length === 1) return pages[0]!.slice(0, limit);
  return pages
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, limit);
}
