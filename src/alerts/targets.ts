import { SERVICE_WIDE } from '../lib/alert-signals.js';
import type { AlertTarget } from '../lib/alert-targets.js';
import type { Config } from '../lib/config.js';

/**
 * Where an alert goes: the service-wide targets, plus the connection's own; the service's alerts
 * (connection '') go to every target, since each operator waits on the same queue.
 */
export function alertRouting(config: Pick<Config, 'alerts' | 'connections'>): (connection: string) => AlertTarget[] {
  const global = config.alerts.targets;
  const own = new Map(config.connections.map((c) => [c.name, c.alertTargets ?? []]));
  const dedupe = (targets: AlertTarget[]) => [...new Map(targets.map((t) => [t.url, t])).values()];
  const everyone = dedupe([...global, ...[...own.values()].flat()]);
  return (connection) => (connection === SERVICE_WIDE ? everyone : dedupe([...global, ...(own.get(connection) ?? [])]));
}

/** Whether anything is configured to receive notifications. */
export const alertsConfigured = (config: Pick<Config, 'alerts' | 'connections'>): boolean =>
  alertRouting(config)(SERVICE_WIDE).length > 0;

/** The base of the console links: the public URL, else the address the service listens on. */
export const consoleBase = (config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string =>
  config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
