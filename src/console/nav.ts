/** The console's pages, in navigation order. Each lives under /console/connections/{connection}/. */
export const NAV = [
  { id: 'overview', label: 'Overview', path: 'overview' },
  { id: 'needs-action', label: 'Needs action', path: 'needs-action' },
  { id: 'events', label: 'Inbound events', path: 'events' },
  { id: 'pushes', label: 'WMS pushes', path: 'pushes' },
  { id: 'reconciliation', label: 'Reconciliation', path: 'reconciliations' },
  { id: 'feed', label: 'ERP feed', path: 'feed' },
  { id: 'deliveries', label: 'ERP deliveries', path: 'deliveries' },
  { id: 'audit', label: 'Audit trail', path: 'audit' },
  { id: 'emulator', label: 'Emulator', path: 'emulator', onlyWithEmulator: true },
] as const;

export type NavId = (typeof NAV)[number]['id'];

export const CONSOLE = '/console';
export const SIGN_IN = `${CONSOLE}/sign-in`;
export const ASSETS = `${CONSOLE}/assets`;

/** Where a connection's pages live. */
export function connectionBase(connection: string): string {
  return `${CONSOLE}/connections/${encodeURIComponent(connection)}`;
}

export function pageHref(connection: string, id: NavId): string {
  return `${connectionBase(connection)}/${NAV.find((n) => n.id === id)!.path}`;
}
