import type { Config } from '../lib/config.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { INTAKE_KINDS, type IntakeKind } from '../push/entities.js';
import { UsageError } from './args.js';

/** The connection named by --connection, or the only one configured. */
export function pickConnection(config: Config, name: string | undefined): ConnectionConfig {
  if (name) {
    const found = config.connections.find((c) => c.name === name);
    if (!found)
      throw new UsageError(
        `no connection named "${name}" (configured: ${config.connections.map((c) => c.name).join(', ') || 'none'})`,
      );
    return found;
  }
  if (config.connections.length === 1) return config.connections[0]!;
  if (config.connections.length === 0)
    throw new UsageError('no connection is configured (WMS_BASE_URL… or CONNECTIONS_FILE)');
  throw new UsageError(
    `several connections are configured: choose one with --connection (${config.connections.map((c) => c.name).join(', ')})`,
  );
}

/** An ERP record kind given on the command line (products, delivery-points, documents). */
export function intakeKindArg(value: string | undefined): IntakeKind {
  if (!value || !(INTAKE_KINDS as readonly string[]).includes(value)) {
    throw new UsageError(`expected one of ${INTAKE_KINDS.join(', ')}${value ? ` (got "${value}")` : ''}`);
  }
  return value as IntakeKind;
}
