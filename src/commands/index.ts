import { emulatorCommand } from './emulator.js';
import { migrateCommand } from './migrate.js';
import { notYetAvailable } from './not-yet.js';
import { pushCommand } from './push.js';
import { serveCommand } from './serve.js';
import { startCommand } from './start.js';
import { syncCommand } from './sync.js';
import type { Command } from './types.js';
import { workerCommand } from './worker.js';

export const commands: Command[] = [
  startCommand,
  serveCommand,
  workerCommand,
  emulatorCommand,
  migrateCommand,
  pushCommand,
  syncCommand,
  notYetAvailable('replay', 'post stored or fixture webhook payloads again', 'Usage: wms-sync replay FILE... --to URL --connection NAME'),
  notYetAvailable('reconcile', 'run a stock reconciliation now', 'Usage: wms-sync reconcile [--connection NAME]'),
];
