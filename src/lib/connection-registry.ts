import type { ConnectionConfig } from './connections.js';
import { secretMatcher } from './crypto.js';

/** Looks connections up by name (webhook paths) and by ERP token (ERP API), the latter in constant time. */
export interface ConnectionRegistry {
  all(): readonly ConnectionConfig[];
  get(name: string): ConnectionConfig | undefined;
  /** The connection whose ERP token this is; every token is compared, so timing reveals nothing. */
  byErpToken(token: string): ConnectionConfig | undefined;
}

export function connectionRegistry(connections: readonly ConnectionConfig[]): ConnectionRegistry {
  const byName = new Map(connections.map((c) => [c.name, c]));
  const erpToken = secretMatcher(connections.map((c) => c.erpApiToken));
  return {
    all: () => connections,
    get: (name) => byName.get(name),
    byErpToken: (token) => connections[erpToken(token)],
  };
}
